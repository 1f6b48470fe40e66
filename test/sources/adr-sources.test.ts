import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config.js';
import type { ArtifactSet } from '../../src/artifacts/load.js';
import { buildGraph, reverseEdges } from '../../src/artifacts/graph.js';
import { runCheck } from '../../src/check/run.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { mapStatus, normalizeStatus } from '../../src/artifacts/sources/status.js';
import { parseAdr } from '../../src/artifacts/sources/adr.js';
import { mentionedIn } from '../../src/artifacts/sources/mentions.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { connect } from '../mcp/helpers.js';
import { loadSet as load } from '../helpers/artifact-set.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/adr-sources');

function fixtureRepo(): TestRepo {
  const repo = makeRepo();
  cpSync(FIXTURE, repo.dir, { recursive: true });
  repo.commit('fixture');
  return repo;
}

const pick = (set: ArtifactSet, id: string) => {
  const a = set.byId.get(id);
  expect(a, `${id} loaded`).toBeDefined();
  return a!;
};

describe('decision-record folders read in place', () => {
  it('reads every format with ids, titles, statuses, dates and deciders from the real file', async () => {
    const repo = fixtureRepo();
    // first load parses, second comes from the parse cache: both must read the same
    for (const round of ['parsed', 'cached']) {
      const set = await load(repo.dir);
      const rows = set.artifacts.map((a) => [a.id, a.file, a.title, a.status ?? null, a.statusText ?? null, a.created ?? null, a.owner ?? null, a.format ?? 'contextia']);
      expect(rows, round).toEqual([
        ['ADR-0001', 'docs/adr/0001-record-architecture-decisions.md', 'Record architecture decisions', 'accepted', 'Accepted', '2023-03-01', null, 'adr'],
        ['ADR-0002', 'docs/adr/0002-use-postgres-for-storage.md', 'Use Postgres for storage', 'superseded', 'Superseded by 3. Use CockroachDB for storage', '2023-03-04', null, 'adr'],
        ['ADR-0003', 'docs/adr/0003-use-cockroachdb-for-storage.md', 'Use CockroachDB for storage', 'accepted', 'Accepted', '2023-06-10', null, 'adr'],
        ['ADR-0004', 'docs/adr/0004-crlf-record.md', 'Use CRLF line endings in this record', 'proposed', 'Proposed', '2023-07-01', null, 'adr'],
        ['ADR-0005', 'docs/adr/historic/0005-use-rest.md', 'Use REST for the public API', 'deprecated', 'Obsolete', '2022-01-01', null, 'adr'],
        ['ADR-0005-use-soap', 'docs/adr/historic/0005-use-soap.md', 'Use SOAP for partner integrations', 'rejected', 'Rejected', null, null, 'adr'],
        ['API-0001', 'packages/api/docs/adr/0001-api-framework.md', 'API framework', 'accepted', '✅ Done', null, null, 'adr'],
        ['MADR-0001', 'docs/decisions/0001-use-madr.md', 'Use Markdown Any Decision Records', 'accepted', null, '2024-02-01', 'alice, bob', 'adr'],
        ['MADR-0002', 'docs/decisions/0002-madr2-bullets.md', 'Use plain bullets for metadata', 'accepted', 'Approved', '2024-02-10', 'carol, dave', 'adr'],
        ['MADR-0003', 'docs/decisions/0003-log4brains-style.md', 'Keep log4brains metadata', 'proposed', 'draft', '2024-03-01', 'erin', 'adr'],
        ['MADR-0004', 'docs/decisions/0004-hand-written-bold.md', 'Bold metadata written by hand', 'accepted', 'Partially Implemented', '2024-04-01', 'frank', 'adr'],
        ['MADR-0005', 'docs/decisions/0005-table-metadata.md', 'Table at the top', 'accepted', '🟢 Accepted', '2024-05-01', 'grace', 'adr'],
        // no level-1 heading: the title comes from the file name, never from "## Purpose"
        ['MADR-0006', 'docs/decisions/0006-plain-status-line.md', 'Plain status line', 'accepted', 'Settled', null, null, 'adr'],
        ['MADR-0007', 'docs/decisions/0007-no-status.md', 'A record that states no status', null, null, null, null, 'adr'],
        ['MADR-choose-a-logger', 'docs/decisions/choose-a-logger.md', 'Choose a logger', 'proposed', 'In Review', null, null, 'adr'],
        ['RST-0001', 'doc/rst/0001-use-sphinx.rst', 'Use Sphinx for the docs', 'accepted', 'Accepted', '2024-06-01', 'heidi', 'adr'],
        ['RST-0002', 'doc/rst/0002-rst-second.rst', 'Second rst record', 'proposed', 'Under Discussion', null, null, 'adr'],
      ]);
      // the README of a records folder is not a record; the body is the whole file, untouched
      expect(set.artifacts.some((a) => a.file.endsWith('README.md'))).toBe(false);
      const crlf = pick(set, 'ADR-0004');
      expect(Buffer.from(crlf.body).equals(readFileSync(path.join(repo.dir, crlf.file)))).toBe(true);
      expect(crlf.body).toContain('\r\n');
      // lines point at the real file: the status line of each style
      expect(pick(set, 'ADR-0001').keyLines.status).toBe(7);
      expect(pick(set, 'MADR-0001').keyLines.status).toBe(2);
      expect(pick(set, 'MADR-0004').keyLines.status).toBe(3);
      expect(pick(set, 'MADR-0005').keyLines.status).toBe(5);
      expect(pick(set, 'RST-0001').keyLines.status).toBe(11);
      expect(pick(set, 'ADR-0001').summary).toBe('We will use Architecture Decision Records, as described by Michael Nygard.');
      expect(set.problems.map((p) => [p.rule, p.file, p.line])).toEqual([['duplicate-number', 'docs/adr/historic/0005-use-soap.md', 1]]);
    }
    // nothing was rewritten by reading
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('turns superseded by / supersedes / amends / related links into typed relations', async () => {
    const set = await load(fixtureRepo().dir);
    expect(pick(set, 'ADR-0003').relations).toEqual({ supersedes: ['ADR-0002'], amends: ['ADR-0001'] });
    // "Superseded by" in ADR-0002 is an edge held by its successor; the reverse edge is computed
    const g = buildGraph(set);
    expect(reverseEdges(g, 'ADR-0002')).toEqual({ superseded_by: ['ADR-0003'] });
    expect(reverseEdges(g, 'ADR-0001')).toEqual({ amended_by: ['ADR-0003'] });
    // a Links section item and "Refined by" (incoming amends)
    expect(pick(set, 'MADR-0002').relations).toEqual({ relates_to: ['MADR-0001'] });
    expect(pick(set, 'MADR-0003').relations).toEqual({ amends: ['MADR-0002'] });
    // "MADR 2" and "MADR-0001" written in prose find the numbered records
    expect(pick(set, 'MADR-0004').relations).toEqual({ relates_to: ['MADR-0002', 'MADR-0001'] });
    expect(pick(set, 'RST-0001').relations).toEqual({ relates_to: ['RST-0002'] });
  });

  it('keeps only mentions of code that exists: files, directories, globs, file#Symbol, relative links', async () => {
    const set = await load(fixtureRepo().dir);
    expect(pick(set, 'ADR-0002').mentions).toEqual([
      { target: 'src/db/pool.ts', line: 13 },
      { target: 'src/db/pool.ts#createPool', line: 17 },
    ]);
    // src/db/missing.ts does not exist: dropped, no error
    expect(pick(set, 'ADR-0003').mentions).toEqual([
      { target: 'src/api/routes.ts', line: 15 },
      { target: 'src/db', line: 15 },
      { target: 'src/**/*.ts', line: 24 },
    ]);
    expect(pick(set, 'API-0001').mentions).toEqual([{ target: 'packages/api/src/server.ts', line: 9 }]);
    expect(pick(set, 'RST-0001').mentions).toEqual([{ target: 'src/db/pool.ts', line: 16 }]);
    // a link to another record is a relation, not a mention
    expect(pick(set, 'MADR-0002').mentions).toBeUndefined();
    expect(mentionedIn(set.byId.values(), 'src/db/pool.ts').map((m) => [m.id, m.target])).toEqual([
      ['ADR-0002', 'src/db/pool.ts'],
      ['ADR-0003', 'src/db'],
      ['RST-0001', 'src/db/pool.ts'],
    ]);
  });

  it('check passes on the records (duplicate number is a warning) and findings carry the real file and line', async () => {
    const repo = fixtureRepo();
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const r = await runCheck({ snapshot });
      expect(r.findings.map((f) => [f.rule, f.severity, f.file, f.line])).toEqual([['duplicate-number', 'warning', 'docs/adr/historic/0005-use-soap.md', 1]]);
    } finally {
      snapshot.close();
    }
    // an unmappable status: one warning with file, line and the key to add; a broken reference: an error at its line
    repo.commit('more', {
      'docs/adr/0006-odd.md': '# 6. Odd\n\n## Status\n\nPondering deeply\n\nSuperseded by [9. Nothing](0009-nothing.md)\n',
    });
    const cli = runCli(['check', '--json'], { cwd: repo.dir });
    const out = JSON.parse(cli.stdout) as { findings: { rule: string; severity: string; file: string; line: number; message: string }[] };
    const odd = out.findings.filter((f) => f.file === 'docs/adr/0006-odd.md');
    expect(odd.map((f) => [f.rule, f.severity, f.line])).toEqual([['broken-link', 'error', 7]]);
    repo.commit('odd status', { 'docs/adr/0006-odd.md': '# 6. Odd\n\n## Status\n\nPondering deeply\n' });
    const cli2 = runCli(['check', '--json'], { cwd: repo.dir });
    expect(cli2.code).toBe(0);
    const out2 = JSON.parse(cli2.stdout) as typeof out;
    const w = out2.findings.filter((f) => f.rule === 'status-unmapped');
    expect(w.map((f) => [f.severity, f.file, f.line])).toEqual([['warning', 'docs/adr/0006-odd.md', 5]]);
    expect(w[0]!.message).toContain('status_map: { "pondering deeply": <proposed|accepted|deprecated|superseded|rejected> }');
    expect(out2.findings.some((f) => f.rule === 'unknown-status')).toBe(false);
  });

  it('trace, show and bundles return records by their real file', async () => {
    const repo = fixtureRepo();
    const trace = runCli(['trace', 'src/db/pool.ts'], { cwd: repo.dir });
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain('mentioned in ADR-0002 at docs/adr/0002-use-postgres-for-storage.md:13 as src/db/pool.ts');
    expect(trace.stdout).toContain('mentioned in RST-0001 at doc/rst/0001-use-sphinx.rst:16 as src/db/pool.ts');
    const json = JSON.parse(runCli(['trace', 'src/db/pool.ts', '--json'], { cwd: repo.dir }).stdout) as { mentioned: { id: string; file: string }[] };
    expect(json.mentioned.map((m) => m.file)).toContain('docs/adr/0003-use-cockroachdb-for-storage.md');
    const bundle = runCli(['context', 'ADR-0003', '--format', 'json'], { cwd: repo.dir });
    expect(bundle.code, bundle.stderr).toBe(0);
    const b = JSON.parse(bundle.stdout) as { header: { dirty: boolean }; entries: { id: string; file: string }[] };
    expect(b.header.dirty).toBe(false);
    expect(b.entries.map((a) => [a.id, a.file])).toEqual(expect.arrayContaining([['ADR-0003', 'docs/adr/0003-use-cockroachdb-for-storage.md']]));
  });
});

describe('the PR bot', () => {
  it('lists records that mention a changed file apart from what governs it, by their real file', async () => {
    const repo = fixtureRepo();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('pool size', { 'src/db/pool.ts': 'export function createPool(size: number): number[] {\n  return new Array(size * 2).fill(0);\n}\n' });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.artifacts.map((a) => [a.id, a.inclusion, a.file])).toEqual([
      ['ADR-0002', 'mentioned', 'docs/adr/0002-use-postgres-for-storage.md'],
      ['ADR-0003', 'mentioned', 'docs/adr/0003-use-cockroachdb-for-storage.md'],
      ['RST-0001', 'mentioned', 'doc/rst/0001-use-sphinx.rst'],
    ]);
    expect(r.artifacts[1]!.matches).toEqual([{ via: 'mention', file: 'src/db/pool.ts', pattern: 'src/db', line: 15, side: 'head' }]);
    const md = renderPrComment(r, {});
    expect(md).toContain('required, related or mentioning');
    // a mentioning record retrieval also finds is said once, in the ranked list, with its mention (DEC-080)
    expect(md).toContain('. **ADR\\-0003** Use CockroachDB for storage (accepted) — its text mentions src/db \\(line 15\\)');
    expect(md.match(/ADR-0003`? Use CockroachDB/g) ?? []).toHaveLength(0);
    expect(md).toContain('| `ADR-0002` Use Postgres for storage');
    expect(md).toContain('mentions `src/db/pool.ts`');
  });
});

describe('MCP', () => {
  it('reads ADR records by their real file, with computed reverse edges, and trace names mentioning records', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const read = await c.call('read_artifact', { id: 'ADR-0002', depth: 'meta' });
    expect(read.isError).toBeFalsy();
    expect(read.data).toMatchObject({ id: 'ADR-0002', status: 'superseded', file: 'docs/adr/0002-use-postgres-for-storage.md', reverse: { superseded_by: ['ADR-0003'] } });
    const tr = await c.call('trace', { place: 'src/db/pool.ts' });
    expect(tr.data.mentioned).toEqual([
      { id: 'ADR-0002', file: 'docs/adr/0002-use-postgres-for-storage.md', line: 13, target: 'src/db/pool.ts' },
      { id: 'ADR-0003', file: 'docs/adr/0003-use-cockroachdb-for-storage.md', line: 15, target: 'src/db' },
      { id: 'RST-0001', file: 'doc/rst/0001-use-sphinx.rst', line: 16, target: 'src/db/pool.ts' },
    ]);
    expect(tr.text).toContain('mentioned in ADR-0002');
    const chk = await c.call('check', {});
    expect(chk.text).toContain('docs/adr/historic/0005-use-soap.md');
  });
});

describe('status vocabulary', () => {
  const cfg = mergeConfig({ status_map: { Adopted: 'accepted', 'on hold': 'proposed' } });
  it.each([
    ['Accepted', 'accepted'],
    ['ACCEPTED', 'accepted'],
    ['decided', 'accepted'],
    ['Partially Implemented', 'accepted'],
    ['done', 'accepted'],
    ['Draft', 'proposed'],
    ['under discussion', 'proposed'],
    ['In Review', 'proposed'],
    ['open', 'proposed'],
    ['Obsolete', 'deprecated'],
    ['retired', 'deprecated'],
    ['Superseded by ADR-0041 (moved to events)', 'superseded'],
    ['🟢 Accepted', 'accepted'],
    ['**Accepted** on 2020-01-02', 'accepted'],
    ['On hold', 'proposed'],
    ['adopted', 'accepted'],
    ['\u{1f914} Incomplete', 'proposed'],
    ['Reverted by [discussion #1197](https://github.com/home-assistant/architecture/discussions/1197).', 'deprecated'],
    ['Partly superseded', 'accepted'],
    ['Partially superseded by ADR-0033', 'accepted'],
  ])('%s → %s', (text, status) => {
    const m = mapStatus(cfg, 'decision', text);
    expect(m).toMatchObject({ status, unmapped: false });
  });
  it('keeps an unmappable status as written, with the key to add', () => {
    expect(mapStatus(cfg, 'decision', 'Pondering')).toEqual({ status: 'Pondering', unmapped: true, key: 'pondering' });
    expect(normalizeStatus('Superseded by [ADR-3](0003-x.md)')).toBe('superseded by');
    // a status that starts with "on" keeps its words: the key check names is the one that maps it
    expect(mapStatus(mergeConfig({}), 'decision', 'on hold')).toEqual({ status: 'on hold', unmapped: true, key: 'on hold' });
    expect(normalizeStatus('Accepted on 2020-01-02')).toBe('accepted');
  });
  it("contextia's own vocabulary loads with the defaults: a spec with status current is valid", async () => {
    const repo = makeRepo({ '.contextia/system/specs/SPEC-1.md': '---\nid: SPEC-1\ntype: spec\nstatus: current\n---\n# S\n', '.contextia/system/rationale/DEC-1.md': '---\nid: DEC-1\ntype: decision\nstatus: Accepted\n---\n# D\n' });
    repo.commit('x');
    const set = await load(repo.dir);
    expect(set.byId.get('SPEC-1')!.status).toBe('current');
    expect(set.byId.get('DEC-1')!.status).toBe('accepted');
    expect(set.byId.get('DEC-1')!.statusText).toBe('Accepted');
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });
});

describe('parseAdr edge cases', () => {
  const opts = { prefix: 'ADR-', type: 'decision' };
  it('a record without any heading loads with a title from its file name', () => {
    const r = parseAdr('docs/adr/0009-keep-it-simple.md', Buffer.from('Status: accepted\n\nJust text.\n'), opts);
    expect(r.artifact).toMatchObject({ id: 'ADR-0009', title: 'Keep it simple', status: 'accepted' });
  });
  it('ADR-0048: and "ADR 7 -" prefixes are stripped from titles; ids keep the number as written', () => {
    expect(parseAdr('x/ADR-0048-events.md', Buffer.from('# ADR-0048: Use events\n'), opts).artifact).toMatchObject({ id: 'ADR-0048', title: 'Use events' });
    expect(parseAdr('x/7-y.md', Buffer.from('# ADR 7 - Use queues\n'), opts).artifact).toMatchObject({ id: 'ADR-7', title: 'Use queues' });
    // a title that starts with a word holding a number keeps it
    expect(parseAdr('x/000-review-format.md', Buffer.from('# 3rd-Party Technical Review Format\n'), opts).artifact).toMatchObject({ title: '3rd-Party Technical Review Format' });
    expect(parseAdr('x/0004-two-factor.md', Buffer.from('# 2FA for admins\n'), opts).artifact).toMatchObject({ title: '2FA for admins' });
    expect(parseAdr('x/0005-x.md', Buffer.from('# 5) Retry webhooks\n'), opts).artifact).toMatchObject({ title: 'Retry webhooks' });
    // a no-break space after the hashes, and a status written in its heading
    expect(parseAdr('x/0006-x.md', Buffer.from('# Drop AMP\n\n##\u00a0Status\n\nApproved\n'), opts).artifact).toMatchObject({ title: 'Drop AMP', status: 'Approved' });
    expect(parseAdr('x/0007-x.md', Buffer.from('# Rendering type\n\n## Status: Proposed\n\n## Context\n\nText.\n'), opts).artifact).toMatchObject({ title: 'Rendering type', status: 'Proposed' });
  });
  it('empty files and files with only frontmatter still load (no status)', () => {
    expect(parseAdr('x/0001-empty.md', Buffer.from(''), opts).artifact).toMatchObject({ id: 'ADR-0001', title: 'Empty', status: undefined });
  });
});

describe('sources config', () => {
  it('validates entries with the file named', () => {
    expect(() => mergeConfig({ sources: [{ dir: '../elsewhere' }] })).toThrow(/sources\[0\]\.dir must stay inside the repository/);
    expect(() => mergeConfig({ sources: [{ dir: 'docs/adr', format: 'nygard' }] })).toThrow(/format must be adr or contextia/);
    expect(mergeConfig({ sources: ['docs/adr/'] }).sources).toEqual([{ dir: 'docs/adr', format: 'adr', prefix: 'ADR-', type: 'decision' }]);
  });
});
