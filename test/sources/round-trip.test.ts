import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArtifactSet } from '../../src/artifacts/load.js';
import { splitFrontmatter } from '../../src/artifacts/parse.js';
import { fileNumber } from '../../src/artifacts/sources/files.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { loadSet as load } from '../helpers/artifact-set.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/adr-sources');

/**
 * "Lossless" (DEC-023): every record keeps its id, its number, title, status mapped and as
 * written, date, deciders, relations (both directions), the code it mentions, and its text
 * byte for byte (the body below any frontmatter of its own; with `export --format original`
 * the whole file, frontmatter included).
 */
const essence = (set: ArtifactSet) =>
  set.artifacts
    .filter((a) => a.type === 'decision')
    .map((a) => {
      const imported = a.format !== 'adr';
      return {
        id: a.id,
        number: imported ? ((a.data.number as string | undefined) ?? null) : (fileNumber(a.file) ?? null),
        title: a.title,
        status: a.status ?? null,
        statusText: (imported ? (a.data.status_text as string | undefined) : a.statusText) ?? null,
        created: a.created ?? null,
        owner: a.owner ?? null,
        relations: Object.fromEntries(Object.entries(a.relations).filter(([, v]) => v?.length).sort()),
        // imported: mentioned code became paths and anchors
        code: [...new Set([...(imported ? [] : (a.mentions ?? []).map((m) => m.target)), ...a.paths, ...a.anchors])].sort(),
        text: imported ? a.body : splitFrontmatter(a.body).hasFrontmatter ? splitFrontmatter(a.body).body : a.body,
      };
    });

/** Each format of the fixtures, alone in a repository as an adr source. */
const FORMATS: { name: string; files: string[]; dir: string; prefix: string }[] = [
  { name: 'Nygard / adr-tools (nested, CRLF)', dir: 'docs/adr', prefix: 'ADR-', files: ['0001-record-architecture-decisions.md', '0002-use-postgres-for-storage.md', '0003-use-cockroachdb-for-storage.md', '0004-crlf-record.md', 'historic/0005-use-rest.md'] },
  { name: 'MADR 3/4 with frontmatter', dir: 'docs/decisions', prefix: 'MADR-', files: ['0001-use-madr.md'] },
  { name: 'MADR 2 bullets', dir: 'docs/decisions', prefix: 'MADR-', files: ['0002-madr2-bullets.md'] },
  { name: 'log4brains', dir: 'docs/decisions', prefix: 'MADR-', files: ['0003-log4brains-style.md'] },
  { name: 'hand-written (bold, table, plain line, no status, unnumbered)', dir: 'docs/decisions', prefix: 'MADR-', files: ['0004-hand-written-bold.md', '0005-table-metadata.md', '0006-plain-status-line.md', '0007-no-status.md', 'choose-a-logger.md'] },
  { name: 'monorepo package', dir: 'packages/api/docs/adr', prefix: 'API-', files: ['0001-api-framework.md'] },
  { name: 'reStructuredText', dir: 'doc/rst', prefix: 'RST-', files: ['0001-use-sphinx.rst', '0002-rst-second.rst'] },
];

const sourceConfig = (f: (typeof FORMATS)[number]) => `sources:\n  - dir: ${f.dir}\n    format: adr\n    prefix: ${f.prefix}\nstatus_map:\n  settled: accepted\n`;

describe('import → export → import is lossless for every format', () => {
  for (const f of FORMATS) {
    it(f.name, async () => {
      const repo = makeRepo();
      cpSync(path.join(FIXTURE, 'src'), path.join(repo.dir, 'src'), { recursive: true });
      cpSync(path.join(FIXTURE, 'packages/api/src'), path.join(repo.dir, 'packages/api/src'), { recursive: true });
      for (const file of f.files) {
        mkdirSync(path.dirname(path.join(repo.dir, f.dir, file)), { recursive: true });
        cpSync(path.join(FIXTURE, f.dir, file), path.join(repo.dir, f.dir, file));
      }
      repo.write({ '.contextia/config.yaml': sourceConfig(f) });
      repo.commit('records');
      const original = essence(await load(repo.dir));
      expect(original).toHaveLength(f.files.length);
      // a record alone here may link to one left out: check says the same before and after
      const checked = runCli(['check', '--format', 'json'], { cwd: repo.dir });
      // (errors: an import makes mentioned code declared paths/anchors, so advice on anchored records may follow)
      const findings = (out: string) =>
        (JSON.parse(out) as { findings: { rule: string; message: string; severity: string }[] }).findings
          .filter((x) => x.severity === 'error')
          .map((x) => `${x.rule}: ${x.message}`)
          .sort();

      // import: frontmatter artifacts; the essence is the same
      const imp = runCli(['import'], { cwd: repo.dir });
      expect(imp.code, imp.stderr).toBe(0);
      repo.write({ '.contextia/config.yaml': 'status_map:\n  settled: accepted\n' });
      repo.commit('imported');
      const imported = await load(repo.dir);
      expect(imported.artifacts.filter((a) => a.type === 'decision').every((a) => a.format === undefined)).toBe(true);
      expect(essence(imported)).toEqual(original);
      const after = runCli(['check', '--format', 'json'], { cwd: repo.dir });
      expect(after.code).toBe(checked.code);
      expect(findings(after.stdout)).toEqual(findings(checked.stdout));

      // export as the files they were: byte for byte, at their own paths
      const exp = runCli(['export', '--format', 'original'], { cwd: repo.dir });
      expect(exp.code, exp.stderr).toBe(0);
      for (const file of f.files) expect(readFileSync(path.join(repo.dir, f.dir, file)).equals(readFileSync(path.join(FIXTURE, f.dir, file))), file).toBe(true);
      rmSync(path.join(repo.dir, '.contextia/system'), { recursive: true });
      writeFileSync(path.join(repo.dir, '.contextia/config.yaml'), sourceConfig(f));
      repo.commit('exported');
      expect(essence(await load(repo.dir))).toEqual(original);

      // and again
      expect(runCli(['import'], { cwd: repo.dir }).code).toBe(0);
      repo.write({ '.contextia/config.yaml': 'status_map:\n  settled: accepted\n' });
      repo.commit('imported again');
      expect(essence(await load(repo.dir))).toEqual(original);
    });
  }

  it('original: records that never were ADR files are named, not written; --out keeps file names', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Native\nstatus: accepted\n---\n# Native\n',
      'docs/adr/0001-keep.md': '# 1. Keep\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n',
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n',
    });
    repo.commit('mixed');
    const r = runCli(['export', '--format', 'original', '--out', 'out/adr'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('wrote out/adr/0001-keep.md  (ADR-0001)\n');
    expect(r.stderr).toContain('1 record never read from an ADR file (DEC-001): not written; use --format nygard or madr for those');
    expect(readFileSync(path.join(repo.dir, 'out/adr/0001-keep.md'), 'utf8')).toBe('# 1. Keep\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n');
    expect(runCli(['export', '--format', 'original', '--out', '../x'], { cwd: repo.dir }).code).toBe(2);
  });
});
