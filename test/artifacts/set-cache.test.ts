import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import type { Artifact } from '../../src/artifacts/types.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { withEnv } from '../helpers/env.js';
import { CACHE_REL } from '../helpers/cache.js';

// The finished artifact set stored in the parse cache (src/artifacts/cache/parse-cache.ts): a load it
// answers must give exactly what a load without any cache gives, and every change of what
// the set is computed from must be seen.

/** A cache container's header and where each section starts (the layout of src/cache/container.ts). */
function containerOf(buf: Buffer): { head: { key: string; sections: number[] }; at: number[] } {
  const align8 = (n: number) => (n + 7) & ~7;
  const headerBytes = buf.readUInt32LE(8);
  const head = JSON.parse(buf.toString('utf8', 16, 16 + headerBytes)) as { key: string; sections: number[] };
  let o = align8(16 + headerBytes);
  const at = head.sections.map((n) => {
    const a = o;
    o = align8(o + n);
    return a;
  });
  return { head, at };
}
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/adr-sources');

/** A plain copy with every field, whatever the object's class (cached ones decode lazily). */
const plain = (a: Artifact) => ('toJSON' in a && typeof a.toJSON === 'function' ? (a.toJSON() as Artifact) : { ...a });

async function load(dir: string) {
  const snap = await openSnapshot({ cwd: dir });
  try {
    const set = await loadArtifactSet(snap, await loadConfig(snap));
    return { artifacts: set.artifacts.map(plain), problems: set.problems, ids: [...set.byId.keys()], duplicates: [...set.duplicates] };
  } finally {
    snap.close();
  }
}

/** The same load with every cache off (nothing read, nothing written). */
async function uncached(dir: string) {
  return withEnv({ GIT_CTX_NO_CACHE: '1' }, () => load(dir));
}

/** ADR folders (duplicate numbers, statuses mapped, relations in the text, mentions of code) and contextia records. */
function repoWithRecords(): TestRepo {
  const repo = makeRepo();
  cpSync(FIXTURE, repo.dir, { recursive: true });
  repo.write({
    '.contextia/decisions/DEC-001.md': '---\nid: DEC-001\ntype: decision\nstatus: accepted\ntitle: Pool size\nlinks:\n  specs: [SPEC-404]\n---\n# Pool size\n\nThe pool in `src/db/pool.ts` holds ten connections.\n',
    '.contextia/decisions/DEC-002.md': '---\nid: DEC-002\ntype: decision\nstatus: settled\ntitle: Routes\n---\n# Routes\n\nSee src/api/routes.ts.\n',
    '.contextia/decisions/DEC-BAD.md': '---\nid: [unclosed\n---\nbody\n',
  });
  repo.commit('records');
  return repo;
}

/** Cold, then warm twice (the second answered by the finished set): all equal to a load without cache. */
async function expectSameAsUncached(dir: string): Promise<Awaited<ReturnType<typeof load>>> {
  const want = await uncached(dir);
  for (const round of ['first', 'second']) {
    const got = await load(dir);
    // toEqual: a cached record always has every key (undefined ones too), a parsed ADR record not
    expect(got.artifacts, round).toEqual(want.artifacts);
    expect(got.problems, round).toStrictEqual(want.problems);
    expect(got.ids, round).toEqual(want.ids);
    expect(got.duplicates, round).toEqual(want.duplicates);
  }
  return want;
}

describe('finished artifact set cache', () => {
  it('a load answered by the stored set gives exactly what a load without cache gives', async () => {
    const repo = repoWithRecords();
    const want = await expectSameAsUncached(repo.dir);
    // the fixture exercises what finishing does
    const byId = new Map(want.artifacts.map((a) => [a.id, a]));
    expect(byId.get('ADR-0005-use-soap')).toBeDefined(); // duplicate number told apart
    expect(byId.get('ADR-0002')!.statusText).toContain('Superseded by 3');
    expect(byId.get('DEC-002')!.status).toBe('accepted'); // status_map
    expect(byId.get('DEC-001')!.mentions?.map((m) => m.target)).toEqual(['src/db/pool.ts']);
    expect(want.problems.map((p) => p.file)).toContain('.contextia/decisions/DEC-BAD.md');
    // every field of a record from the set reads like a field, and takes assignments like one
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snap, await loadConfig(snap));
      const dec = set.byId.get('DEC-001')!;
      const cold = byId.get('DEC-001')!;
      for (const k of Object.keys(cold) as (keyof Artifact)[]) expect(dec[k], k).toStrictEqual(cold[k]);
      dec.body = 'replaced';
      expect(dec.body).toBe('replaced');
    } finally {
      snap.close();
    }
    expect((await load(repo.dir)).artifacts.find((a) => a.id === 'DEC-001')!.body).toContain('ten connections');
  });

  it('is read by the CLI: a warm run reads the finished set, not the parse entries', () => {
    const repo = repoWithRecords();
    const first = runCli(['list', '--json'], { cwd: repo.dir });
    expect(first.code).toBe(0);
    const warm = runCli(['list', '--json'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    expect(warm.stdout).toBe(first.stdout);
    expect(warm.stderr).toContain('finished set read');
    expect(warm.stderr).not.toContain('artifact parser loaded');
  });

  it('a records folder that lists nothing is part of the key with what the disk says of it (missing, empty, a link)', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n',
      '.contextia/decisions/DEC-001.md': '---\nid: DEC-001\ntype: decision\nstatus: accepted\ntitle: Pool size\n---\n# Pool size\n',
    });
    repo.commit('records');
    const warmRun = () => runCli(['list', '--json'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    // docs/adr missing: the stored set is used
    expect((await expectSameAsUncached(repo.dir)).ids).toEqual(['DEC-001']);
    runCli(['list', '--json'], { cwd: repo.dir });
    expect(warmRun().stderr).toContain('finished set read');
    // an empty directory reads as missing (git lists no directories): the same problems
    mkdirSync(path.join(repo.dir, 'docs/adr'), { recursive: true });
    expect((await expectSameAsUncached(repo.dir)).problems).toEqual([]);
    // a link where the folder should be: a problem, so another key; then back
    rmSync(path.join(repo.dir, 'docs/adr'), { recursive: true });
    mkdirSync(path.join(repo.dir, 'elsewhere'));
    symlinkSync('../elsewhere', path.join(repo.dir, 'docs/adr'));
    const linked = await expectSameAsUncached(repo.dir);
    expect(linked.problems.map((p) => p.rule)).toContain('symlink-skipped');
    rmSync(path.join(repo.dir, 'docs/adr'));
    expect((await expectSameAsUncached(repo.dir)).problems).toEqual([]);
    // records in it: read, then removed again
    repo.commit('adr', { 'docs/adr/0001-use-postgres.md': '# 1. Use Postgres\n\nStatus: Accepted\n\nWe use Postgres.\n' });
    expect((await expectSameAsUncached(repo.dir)).ids).toContain('ADR-0001');
    rmSync(path.join(repo.dir, 'docs/adr'), { recursive: true });
    expect((await expectSameAsUncached(repo.dir)).ids).toEqual(['DEC-001']);
  });

  it('sees a record edited (committed or only on disk), added, removed, renamed', async () => {
    const repo = repoWithRecords();
    await expectSameAsUncached(repo.dir);
    const dec = '.contextia/decisions/DEC-001.md';
    // edited on disk only (no blob id from the index), then committed
    repo.write({ [dec]: readFileSync(path.join(repo.dir, dec), 'utf8').replace('ten', 'twenty') });
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'DEC-001')!.body).toContain('twenty');
    repo.commit('edit');
    await expectSameAsUncached(repo.dir);
    // frontmatter only (a light field): status
    repo.commit('status', { [dec]: readFileSync(path.join(repo.dir, dec), 'utf8').replace('status: accepted', 'status: superseded') });
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'DEC-001')!.status).toBe('superseded');
    // added (untracked, then committed)
    repo.write({ '.contextia/decisions/DEC-003.md': '---\nid: DEC-003\ntype: decision\ntitle: Third\n---\nBody.\n' });
    expect((await expectSameAsUncached(repo.dir)).ids).toContain('DEC-003');
    repo.commit('add');
    await expectSameAsUncached(repo.dir);
    // renamed: same content, another path
    renameSync(path.join(repo.dir, '.contextia/decisions/DEC-003.md'), path.join(repo.dir, '.contextia/decisions/DEC-003-third.md'));
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'DEC-003')!.file).toBe('.contextia/decisions/DEC-003-third.md');
    // removed
    repo.rm('.contextia/decisions/DEC-003-third.md');
    expect((await expectSameAsUncached(repo.dir)).ids).not.toContain('DEC-003');
    // an ADR record edited: relations written in its text change another record's fields
    const adr = 'docs/adr/0003-use-cockroachdb-for-storage.md';
    repo.write({ [adr]: readFileSync(path.join(repo.dir, adr), 'utf8') + '\nRelated to ADR-0001.\n' });
    await expectSameAsUncached(repo.dir);
  });

  it('sees the config change: status vocabulary, types, sources', async () => {
    const repo = repoWithRecords();
    await expectSameAsUncached(repo.dir);
    const config = path.join(repo.dir, '.contextia/config.yaml');
    const original = readFileSync(config, 'utf8');
    writeFileSync(config, original.replace('settled: accepted', 'settled: proposed'));
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'DEC-002')!.status).toBe('proposed');
    // an ADR source's prefix: other ids from the same files
    writeFileSync(config, original.replace('prefix: MADR-', 'prefix: MD-'));
    expect((await expectSameAsUncached(repo.dir)).ids).toContain('MD-0001');
    // a source dropped
    writeFileSync(config, original.replace(/ {2}- dir: doc\/rst\n {4}format: adr\n {4}prefix: RST-\n/, ''));
    expect((await expectSameAsUncached(repo.dir)).ids.some((id) => id.startsWith('RST-'))).toBe(false);
    writeFileSync(config, original);
    await expectSameAsUncached(repo.dir);
  });

  it('mentions follow the code, not the stored set: a mentioned file deleted or added', async () => {
    const repo = repoWithRecords();
    await expectSameAsUncached(repo.dir);
    repo.rm('src/db/pool.ts');
    repo.commit('drop pool');
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'DEC-001')!.mentions).toBeUndefined();
    repo.commit('pool again', { 'src/db/pool.ts': 'export const pool = 1;\n' });
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'DEC-001')!.mentions?.map((m) => m.target)).toEqual(['src/db/pool.ts']);
  });

  it('sidecar stamps of records read in place follow the sidecar', async () => {
    const repo = repoWithRecords();
    await expectSameAsUncached(repo.dir);
    const line = (commit: string) => `${JSON.stringify({ id: 'ADR-0001', commit, fingerprints: { 'src/db/pool.ts': 'abc' } })}\n`;
    repo.write({ '.contextia/stamps.jsonl': line('1111111') });
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'ADR-0001')!.stamp?.commit).toBe('1111111');
    repo.commit('stamp', { '.contextia/stamps.jsonl': line('2222222') });
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'ADR-0001')!.stamp?.commit).toBe('2222222');
    repo.rm('.contextia/stamps.jsonl');
    expect((await expectSameAsUncached(repo.dir)).artifacts.find((a) => a.id === 'ADR-0001')!.stamp).toBeUndefined();
  });

  it('a damaged, cut-off or foreign file is a miss, and is rewritten', async () => {
    const repo = repoWithRecords();
    const want = await expectSameAsUncached(repo.dir);
    const cache = path.join(repo.dir, `${CACHE_REL}/artifacts.bin`);
    const whole = readFileSync(cache);
    // another key in the header (the records listed differently): a miss, rebuilt
    for (const at of [24, 60, 87]) {
      const bad = Buffer.from(whole);
      bad[at] = bad[at] === 0x30 ? 0x31 : 0x30;
      writeFileSync(cache, bad);
      expect((await load(repo.dir)).artifacts).toEqual(want.artifacts);
      expect(readFileSync(cache).equals(whole)).toBe(true);
    }
    for (const damaged of [whole.subarray(0, whole.length - 40), whole.subarray(0, 88), Buffer.alloc(0)]) {
      writeFileSync(cache, damaged);
      expect((await load(repo.dir)).artifacts).toEqual(want.artifacts);
      expect(readFileSync(cache).equals(whole)).toBe(true);
    }
  });
  it('the binary set section (DEC-040): a column pointing outside its table or a length that does not add up is a miss, and is rewritten', async () => {
    const repo = repoWithRecords();
    const want = await expectSameAsUncached(repo.dir);
    const cache = path.join(repo.dir, `${CACHE_REL}/artifacts.bin`);
    const whole = readFileSync(cache);
    // the set is the container's first section (src/cache/container.ts, artifact-set.ts)
    const { head: box, at } = containerOf(whole);
    const setAt = at[0]!;
    const setLen = box.sections[0]!;
    const headLen = whole.readUInt32LE(setAt);
    const head = JSON.parse(whole.toString('utf8', setAt + 4, setAt + 4 + headLen)) as { n: number; s: string[]; d: string[] };
    expect(head.n).toBe(want.artifacts.length);
    const colsAt = setAt + 4 + headLen + ((4 - ((4 + headLen) % 4)) % 4);
    // per record: type, status, scope, domain, folder, heavy offset, heavy length (i32 LE)
    const damages: [number, number][] = [
      [colsAt, head.s.length], // a type past the string table
      [colsAt + 4, -2], // a status before it
      [colsAt + 16, head.d.length], // a folder past the folders
      [colsAt + 7 * 4 + 20, 0x7fffff00], // a heavy range past the file
      [colsAt + 7 * 4 + 24, -1], // a negative length
    ];
    for (const [at, v] of damages) {
      const bad = Buffer.from(whole);
      bad.writeInt32LE(v, at);
      writeFileSync(cache, bad);
      expect((await load(repo.dir)).artifacts, `${at}`).toEqual(want.artifacts);
      expect(readFileSync(cache).equals(whole)).toBe(true);
    }
    // a head whose byte counts do not add up to the section
    const bad = Buffer.from(whole);
    const text = bad.toString('latin1', setAt + 4, setAt + 4 + headLen);
    const m = /"ib":(\d)/.exec(text)!;
    bad.write(String((Number(m[1]) + 1) % 10), setAt + 4 + m.index + 5, 'latin1');
    writeFileSync(cache, bad);
    expect((await load(repo.dir)).artifacts).toEqual(want.artifacts);
    expect(readFileSync(cache).equals(whole)).toBe(true);
    expect(setLen).toBeGreaterThan(0);
  });

  it('a set whose ids or files cannot be stored exactly (a NUL in an id) is not stored; loads stay equal to uncached ones', async () => {
    const repo = repoWithRecords();
    repo.commit('nul id', { '.contextia/decisions/DEC-NUL.md': '---\nid: "DEC-N\\0UL"\ntype: decision\nstatus: accepted\ntitle: Nul\n---\n# Nul\n' });
    const want = await expectSameAsUncached(repo.dir);
    expect(want.ids).toContain('DEC-N\0UL');
    const whole = readFileSync(path.join(repo.dir, `${CACHE_REL}/artifacts.bin`));
    const { head } = containerOf(whole);
    expect(head.key).toBe(''); // no set key: no set
    expect(head.sections[0]).toBe(0);
  });

  it('records without links, relations or requires share frozen empties: reading them is as before, changing one in place throws', async () => {
    const repo = repoWithRecords();
    repo.commit('plain', { '.contextia/decisions/DEC-003.md': '---\nid: DEC-003\ntype: decision\nstatus: accepted\ntitle: Plain\n---\n# Plain\n' });
    await expectSameAsUncached(repo.dir);
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snap, await loadConfig(snap));
      const a = set.byId.get('DEC-003')!;
      expect(a.links).toEqual([]);
      expect(a.requires).toEqual([]);
      expect(a.relations).toEqual({});
      expect(() => a.links.push({ kind: 'specs', id: 'SPEC-1' } as never)).toThrow();
      // replacing them (as finishing does) works
      a.links = [{ kind: 'specs', id: 'SPEC-1' } as never];
      expect(a.links).toHaveLength(1);
      expect(set.byId.get('DEC-001')!.links.length).toBeGreaterThan(0);
    } finally {
      snap.close();
    }
  });
});
