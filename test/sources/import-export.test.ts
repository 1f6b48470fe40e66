import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArtifactSet } from '../../src/artifacts/load.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { loadSet as load } from '../helpers/artifact-set.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/adr-sources');

/** What must survive a conversion: identity, title, status (mapped and as written), date, relations, the record text. */
const essence = (set: ArtifactSet) =>
  set.artifacts
    .filter((a) => a.type === 'decision')
    .map((a) => ({
      id: a.id,
      title: a.title,
      status: a.status ?? null,
      statusText: a.statusText ?? (a.data.status_text as string | undefined) ?? null,
      created: a.created ?? null,
      relations: a.relations,
      record: a.format === 'adr' ? a.body : a.body,
    }));

function adrOnlyRepo(): TestRepo {
  const repo = makeRepo();
  cpSync(path.join(FIXTURE, 'docs/adr'), path.join(repo.dir, 'docs/adr'), { recursive: true });
  cpSync(path.join(FIXTURE, 'src'), path.join(repo.dir, 'src'), { recursive: true });
  repo.write({ '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n' });
  repo.commit('records');
  return repo;
}

describe('git ctx import / export', () => {
  it('import → export → import is lossless, moves files with git mv, and is idempotent', async () => {
    const repo = adrOnlyRepo();
    // the duplicate number is renamed on read: give it its own number first, as the warning says
    repo.git('mv', 'docs/adr/historic/0005-use-soap.md', 'docs/adr/historic/0006-use-soap.md');
    repo.commit('renumber');
    const original = essence(await load(repo.dir));
    expect(original).toHaveLength(6);

    const dry = runCli(['import', '--dry-run'], { cwd: repo.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would move docs/adr/0002-use-postgres-for-storage.md → .contextia/system/rationale/ADR-0002.md  (ADR-0002)');
    expect(repo.git('status', '--porcelain')).toBe('');

    const imp = runCli(['import'], { cwd: repo.dir });
    expect(imp.code, imp.stderr).toBe(0);
    repo.write({ '.contextia/config.yaml': '{}\n' });
    repo.commit('imported');
    // history followed through the move
    expect(repo.git('log', '--follow', '--format=%s', '--', '.contextia/system/rationale/ADR-0002.md').split('\n')).toContain('records');
    const imported = await load(repo.dir);
    expect(imported.artifacts.every((a) => a.format === undefined)).toBe(true);
    const a2 = imported.byId.get('ADR-0002')!;
    expect(a2.data).toMatchObject({ number: '0002', status_text: 'Superseded by 3. Use CockroachDB for storage' });
    expect(a2.paths).toEqual(['src/db/pool.ts']);
    expect(a2.anchors).toEqual(['src/db/pool.ts#createPool']);
    // the body is the record, byte for byte (CRLF too)
    const crlf = imported.byId.get('ADR-0004')!;
    expect(crlf.body).toBe(readFileSync(path.join(FIXTURE, 'docs/adr/0004-crlf-record.md'), 'utf8'));
    expect(essence(imported)).toEqual(original);
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
    // idempotent: nothing left to import
    expect(runCli(['import'], { cwd: repo.dir }).stdout).toBe('');

    const exp = runCli(['export', '--format', 'nygard', '--out', 'docs/adr'], { cwd: repo.dir });
    expect(exp.code, exp.stderr).toBe(0);
    // the exported records are the original files, byte for byte
    expect(readFileSync(path.join(repo.dir, 'docs/adr/0004-use-crlf-line-endings-in-this-record.md')).equals(readFileSync(path.join(FIXTURE, 'docs/adr/0004-crlf-record.md')))).toBe(true);
    rmSync(path.join(repo.dir, '.contextia/system'), { recursive: true });
    writeFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'sources:\n  - dir: docs/adr\n    format: adr\n');
    repo.commit('exported');
    expect(essence(await load(repo.dir))).toEqual(original);
    expect(runCli(['import'], { cwd: repo.dir }).code).toBe(0);
    repo.write({ '.contextia/config.yaml': '{}\n' });
    repo.commit('imported again');
    expect(essence(await load(repo.dir))).toEqual(original);
  });

  it('a stamp kept in stamps.jsonl moves into the imported record (and out of the sidecar); the verdicts stay; --copy keeps the sidecar line', async () => {
    const stampsOf = (dir: string) => readFileSync(path.join(dir, '.contextia/stamps.jsonl'), 'utf8');
    const verdicts = (dir: string) => (JSON.parse(runCli(['stale', '--json'], { cwd: dir }).stdout) as { artifacts: { id: string; status: string }[] }).artifacts.filter((a) => a.id === 'ADR-0002' || a.id === 'ADR-0004').map((a) => `${a.id} ${a.status}`);
    for (const copy of [false, true]) {
      const repo = adrOnlyRepo();
      expect(runCli(['stamp', 'ADR-0002', 'ADR-0004'], { cwd: repo.dir }).code).toBe(0);
      repo.commit('stamped');
      const sidecar = stampsOf(repo.dir);
      const stamp2 = (await load(repo.dir)).byId.get('ADR-0002')!.stamp;
      expect(stamp2?.commit).toMatch(/^[0-9a-f]{40}$/);
      const before = verdicts(repo.dir);
      expect(before).toEqual(['ADR-0002 fresh', 'ADR-0004 fresh']);
      // a file edited after the stamp: the verdict must carry over as well as "fresh" does
      writeFileSync(path.join(repo.dir, 'src/api/routes.ts'), readFileSync(path.join(repo.dir, 'src/api/routes.ts'), 'utf8') + '\nexport const added = 1;\n');
      repo.commit('edit routes');
      const drifted = verdicts(repo.dir);
      expect(drifted).toEqual(['ADR-0002 fresh', 'ADR-0004 stale']);

      const dry = runCli(['import', '--dry-run', ...(copy ? ['--copy'] : [])], { cwd: repo.dir });
      expect(dry.stdout).toContain('would carry the stamps of ADR-0002, ADR-0004 from .contextia/stamps.jsonl into the records');
      expect(stampsOf(repo.dir)).toBe(sidecar);
      const imp = runCli(['import', ...(copy ? ['--copy'] : [])], { cwd: repo.dir });
      expect(imp.code, imp.stderr).toBe(0);
      expect(stampsOf(repo.dir)).toBe(copy ? sidecar : '');
      repo.write({ '.contextia/config.yaml': '{}\n' });
      if (copy) repo.write({ '.contextia/stamps.jsonl': '' });
      repo.commit('imported');
      const imported = await load(repo.dir);
      expect(imported.byId.get('ADR-0002')!.stamp).toEqual(stamp2);
      expect(verdicts(repo.dir)).toEqual(drifted);
      expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
    }
  });

  it('exports JSON, CSV and MADR; refuses an output outside the repository', async () => {
    const repo = makeRepo();
    cpSync(FIXTURE, repo.dir, { recursive: true });
    repo.commit('fixture');
    const json = JSON.parse(runCli(['export', '--format', 'json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; file: string; body: string; statusText?: string }[] };
    expect(json.artifacts).toHaveLength(17);
    expect(json.artifacts.find((a) => a.id === 'MADR-0005')).toMatchObject({ file: 'docs/decisions/0005-table-metadata.md', statusText: '🟢 Accepted' });
    const csv = runCli(['export', '--format', 'csv'], { cwd: repo.dir }).stdout.split('\r\n');
    expect(csv[0]).toBe('id,type,title,status,status_text,created,owner,summary,supersedes,relations,paths,anchors,mentions,file');
    expect(csv.find((l) => l.startsWith('ADR-0003,'))).toContain(',ADR-0002,"{""amends"":[""ADR-0001""]}",');
    const madr = runCli(['export', '--format', 'madr', '--out', 'exported'], { cwd: repo.dir });
    expect(madr.code, madr.stderr).toBe(0);
    const f = readFileSync(path.join(repo.dir, 'exported/0003-use-cockroachdb-for-storage.md'), 'utf8');
    expect(f.startsWith('---\nstatus: "Accepted"\ndate: "2023-06-10"\n---\n# Use CockroachDB for storage\n')).toBe(true);
    expect(f).toContain('* Supersedes [2. Use Postgres for storage](0002-use-postgres-for-storage.md)');
    const out = runCli(['export', '--format', 'csv', '--out', '../outside.csv'], { cwd: repo.dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('outside the repository');
  });
});
