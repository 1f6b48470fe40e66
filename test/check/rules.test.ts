import { cpSync, readdirSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_RULES } from '../../src/check/rules/core.js';
import { runCheck } from '../../src/check/run.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/check-rules');
const NOW = new Date('2026-11-22T00:00:00Z');

async function checkRepo(repo: TestRepo) {
  const snapshot = await openSnapshot({ cwd: repo.dir });
  try {
    return await runCheck({ snapshot, now: NOW });
  } finally {
    snapshot.close();
  }
}

function repoFrom(fixture: string): TestRepo {
  const repo = makeRepo();
  cpSync(fixture, repo.dir, { recursive: true });
  repo.commit('fixture');
  return repo;
}

/** Rules whose inputs cannot live in a text fixture folder are built in code below. */
const BUILT_IN_CODE = new Set(['binary-file', 'invalid-encoding', 'file-too-large', 'symlink-skipped', /* needs an upstream repository: test/sources/git-sources.test.ts */ 'source-empty', /* needs a rename in history: test/check/moved-paths.test.ts */ 'mention-moved']);

describe('every core rule has a triggering and a clean fixture', () => {
  const folders = new Set(readdirSync(FIXTURES));
  for (const rule of CORE_RULES) {
    if (BUILT_IN_CODE.has(rule.id)) continue;
    it(`${rule.id}`, async () => {
      expect(folders.has(rule.id), `missing fixture folder test/fixtures/check-rules/${rule.id}`).toBe(true);
      const bad = await checkRepo(repoFrom(path.join(FIXTURES, rule.id, 'trigger')));
      const hits = bad.findings.filter((f) => f.rule === rule.id);
      expect(hits.length, JSON.stringify(bad.findings, null, 1)).toBeGreaterThan(0);
      for (const h of hits) {
        expect(h.file).toMatch(/^\.contextia\//);
        expect(h.line === undefined || h.line >= 1).toBe(true);
        expect(h.severity).toBe(rule.severity);
      }
      const good = await checkRepo(repoFrom(path.join(FIXTURES, rule.id, 'clean')));
      expect(good.findings.filter((f) => f.rule === rule.id)).toEqual([]);
    });
  }
});

const okDecision = (id: string) => `---\nid: ${id}\ntype: decision\nstatus: accepted\n---\n# ${id}\n`;

describe('malformed inputs never stop the check of other files', () => {
  it('reports each bad file with file and line and still checks the good ones', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': okDecision('DEC-001') ,
      '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\nstatus: accepted\nrelations:\n  depends_on: [DEC-404]\n---\nx\n',
      '.contextia/bad-yaml.md': '---\nid: DEC-003\ntype: decision\ntitle: "unterminated\n---\nbody\n',
      '.contextia/no-id.md': '---\ntype: decision\n---\nbody\n',
      '.contextia/empty.md': '',
      '.contextia/dup.md': okDecision('DEC-001'),
      '.contextia/binary.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02, 0xff]),
      '.contextia/latin1.md': Buffer.concat([Buffer.from('---\nid: DEC-004\ntype: decision\ntitle: caf'), Buffer.from([0xe9]), Buffer.from('\n---\n')]),
      '.contextia/huge.md': '---\nid: DEC-005\ntype: decision\n---\n' + 'x'.repeat(5 * 1024 * 1024),
    });
    symlinkSync('/etc/passwd', path.join(repo.dir, '.contextia/outside.md'));
    repo.commit('mixed');
    const r = await checkRepo(repo);
    const by = (rule: string) => r.findings.filter((f) => f.rule === rule);
    expect(by('frontmatter-malformed').map((f) => [f.file, f.line])).toEqual([['.contextia/bad-yaml.md', 4]]);
    expect(by('missing-field').map((f) => [f.file, f.line])).toEqual([['.contextia/no-id.md', 2]]);
    expect(by('frontmatter-missing').map((f) => f.file)).toEqual(['.contextia/empty.md']);
    expect(by('duplicate-id').map((f) => f.file)).toEqual(['.contextia/system/rationale/DEC-001.md']);
    expect(by('binary-file').map((f) => f.file)).toEqual(['.contextia/binary.md']);
    expect(by('invalid-encoding').map((f) => [f.file, f.line])).toEqual([['.contextia/latin1.md', 4]]);
    expect(by('file-too-large').map((f) => f.file)).toEqual(['.contextia/huge.md']);
    expect(by('symlink-skipped').map((f) => f.file)).toEqual(['.contextia/outside.md']);
    expect(by('symlink-skipped')[0]!.severity).toBe('warning');
    // the good files were still checked: the broken link in DEC-002 is found
    expect(by('broken-link').map((f) => [f.id, f.line])).toEqual([['DEC-002', 6]]); // the line naming DEC-404
    expect(r.ruleErrors).toEqual([]);
  });

  it('never reads through a symlinked directory', async () => {
    const repo = makeRepo({ 'outside/.contextia/DEC-001.md': okDecision('DEC-001'), 'x.txt': 'x' });
    mkdirSync(path.join(repo.dir, '.contextia'));
    symlinkSync(path.join(repo.dir, 'outside/.contextia'), path.join(repo.dir, '.contextia/linked'));
    repo.commit('dir link');
    const r = await checkRepo(repo);
    expect(r.artifacts).toBe(0);
    expect(r.findings.map((f) => f.rule)).toEqual(['symlink-skipped']);
  });
});

describe('broken-link', () => {
  it('points at the line that names the broken target, not at the first relation', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': okDecision('DEC-001'),
      '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\nstatus: accepted\nrelations:\n  relates_to:\n    - DEC-001\n    - DEC-404\nlinks:\n  spec: SPEC-NOPE\n---\nx\n',
      'docs/adr/0001-one.md': '# 1. One\n\n## Status\n\nAccepted\n\nAmended by [2. Two](0002-two.md)\n\nSuperseded by [9. Nothing](0009-nothing.md)\n',
      'docs/adr/0002-two.md': '# 2. Two\n\n## Status\n\nAccepted\n\nAmends [1. One](0001-one.md)\n',
      '.contextia/config.yaml': 'sources:\n  - docs/adr\n',
    });
    const r = await checkRepo(repo);
    const broken = r.findings.filter((f) => f.rule === 'broken-link').map((f) => [f.file, f.line, f.message.split(',')[0]]);
    expect(broken).toEqual(
      expect.arrayContaining([
        ['.contextia/system/rationale/DEC-002.md', 8, 'relations.relates_to names DEC-404'],
        ['.contextia/system/rationale/DEC-002.md', 10, 'links.spec names SPEC-NOPE'],
      ]),
    );
    const adr = r.findings.find((f) => f.rule === 'broken-link' && f.file === 'docs/adr/0001-one.md');
    expect(adr?.line).toBe(9);
  });
});

describe('config', () => {
  it('overrides severities, turns rules off and extends status vocabularies', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'severities:\n  broken-link: warning\n  orphan-spec: off\ntypes:\n  decision:\n    statuses: [draft, approved]\n',
      '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\nstatus: approved\nlinks: [DEC-404]\n---\nx\n',
      '.contextia/system/specs/SPEC-001.md': '---\nid: SPEC-001\ntype: spec\nstatus: active\n---\nx\n',
    });
    repo.commit('cfg');
    const r = await checkRepo(repo);
    expect(r.findings.map((f) => [f.rule, f.severity])).toEqual([['broken-link', 'warning']]);
  });

  it('reports a malformed config.yaml with its line', async () => {
    const repo = makeRepo({ '.contextia/config.yaml': 'severities:\n  broken-link: [oops\n' });
    repo.commit('bad cfg');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    const { loadConfig } = await import('../../src/config.js');
    await expect(loadConfig(snapshot)).rejects.toMatchObject({ code: 'CONFIG', file: '.contextia/config.yaml' });
    snapshot.close();
  });
});

describe('baseline', () => {
  it('accepts known findings and still reports new ones', async () => {
    const { baselineJson } = await import('../../src/check/run.js');
    const repo = makeRepo({ '.contextia/a.md': '---\nid: DEC-001\ntype: decision\nstatus: accepted\nlinks: [DEC-404]\n---\n' });
    repo.commit('one');
    const first = await checkRepo(repo);
    expect(first.findings).toHaveLength(1);
    const file = path.join(repo.dir, 'baseline.json');
    writeFileSync(file, baselineJson(first.findings));
    repo.write({ '.contextia/b.md': '---\nid: DEC-002\ntype: decision\nstatus: accepted\nlinks: [DEC-405]\n---\n' });
    const { readBaseline } = await import('../../src/check/run.js');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    const r = await runCheck({ snapshot, baseline: await readBaseline(file), now: NOW });
    snapshot.close();
    expect(r.baselined).toBe(1);
    expect(r.findings.map((f) => f.id)).toEqual(['DEC-002']);
  });
});
