import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { openStore } from '../../src/store/store.js';

const STORE = path.join(ROOT, 'dist/store/store.js');
const JOURNAL = path.join(ROOT, 'dist/store/journal.js');

/** A real process that records episodes through the journal and writes to the store directly, interleaved. */
const WORKER = `
import { openStore, Store } from ${JSON.stringify(STORE)};
import { appendEpisode } from ${JSON.stringify(JOURNAL)};
const [root, tag, n] = process.argv.slice(1);
let busy = 0;
for (let i = 0; i < Number(n); i++) {
  appendEpisode(root, { id: tag + '-j' + i, at: Date.now(), caller: { kind: 'cli' }, query: { kind: 'search', text: tag }, lanes: [], evidence: [{ kind: 'artifact', value: 'DEC-' + i, grounding: 'indexed', rank: 1 }] }, { env: {} });
  try {
    const s = i % 5 === 0 ? openStore(root) : Store.open(root);
    s.insertEpisode({ id: tag + '-d' + i, at: Date.now(), caller: { kind: 'mcp', session: tag }, query: { kind: 'search', text: tag }, lanes: [], evidence: [] });
    s.addFeedback(tag + '-d' + i, [{ verdict: 'useful', ref: 'DEC-' + i }]);
    s.close();
  } catch (e) { busy++; console.error(String(e && e.code), String(e && e.message)); }
}
const s = openStore(root);
s.close();
process.stdout.write(JSON.stringify({ busy }));
`;

function runWorker(root: string, tag: string, n: number): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', WORKER, root, tag, String(n)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('evidence store across processes', () => {
  it('two processes writing and ingesting at once lose nothing, duplicate nothing, and never surface SQLITE_BUSY', async () => {
    const repo = makeRepo();
    const n = 40;
    const [a, b] = await Promise.all([runWorker(repo.dir, 'A', n), runWorker(repo.dir, 'B', n)]);
    for (const r of [a, b]) {
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toEqual({ busy: 0 });
    }
    const s = openStore(repo.dir);
    const st = s.stats();
    expect(st.episodes).toBe(4 * n);
    expect(st.feedback).toBe(2 * n);
    expect(st.evidence).toBe(2 * n);
    expect(s.listEpisodes({ session: 'A', limit: 1000 })).toHaveLength(n);
    s.close();
  }, 180_000);

  it('a process killed with SIGKILL in the middle of writing leaves the database intact and the next run fine', async () => {
    const repo = makeRepo();
    // a writer that inserts in long transactions forever, until killed
    const script = `
import { Store } from ${JSON.stringify(STORE)};
import { writeSync } from 'node:fs';
const s = Store.open(process.argv[1]);
let k = 0;
writeSync(1, 'ready\\n');
for (;;) {
  s.write(() => { for (let i = 0; i < 200; i++) s.recordMarkers([{ artifact: 'DEC-' + k, anchor: 'src/' + i + '.ts', verdict: 'fresh', run: 'r' + k }]); });
  k++;
}`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, repo.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const closed = new Promise((r) => child.on('close', r));
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGKILL');
    await closed;
    expect(err).toBe('');
    expect(child.signalCode).toBe('SIGKILL');
    const file = path.join(repo.dir, '.git/ctx/evidence/evidence.db');
    expect(existsSync(file)).toBe(true);
    const s = openStore(repo.dir);
    expect(s.warnings).toEqual([]);
    const markers = s.latestMarkers();
    // whole transactions only: every run has all of its 200 markers
    const perRun = new Map<string, number>();
    for (const m of markers) perRun.set(m.run, (perRun.get(m.run) ?? 0) + 1);
    expect(perRun.size).toBeGreaterThan(0);
    expect([...perRun.values()].every((c) => c === 200)).toBe(true);
    s.recordMarkers([{ artifact: 'DEC-after', anchor: 'x', verdict: 'stale', run: 'after' }]);
    expect(s.latestMarkers(['DEC-after'])).toHaveLength(1);
    s.close();
    const check = spawnSync(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const D = createRequire(${JSON.stringify(STORE)})('libsql'); const db = new D(process.argv[1]); process.stdout.write(String(db.prepare('PRAGMA integrity_check').get().integrity_check));`, file], { encoding: 'utf8' });
    expect(check.stdout).toBe('ok');
  }, 120_000);

  it('two processes creating the store at the same moment both keep their rows: neither takes the new store for a foreign file nor fails switching it to WAL', async () => {
    // the race is in the first open only, so many fresh repositories, each opened by two processes at once
    // (before the fix about 1 run in 30 moved a just-made store aside as "not a git-ctx evidence store",
    // and about 1 in 200 failed with SQLITE_BUSY switching to WAL)
    const FIRST = `
import { Store } from ${JSON.stringify(STORE)};
const [root, tag] = process.argv.slice(1);
const s = Store.open(root);
s.insertEpisode({ id: tag, at: Date.now(), caller: { kind: 'cli' }, query: { kind: 'search', text: tag }, lanes: [], evidence: [] });
s.close();
`;
    const open = (root: string, tag: string) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', FIRST, root, tag], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('close', (code) => resolve({ code, err }));
      });
    for (let k = 0; k < 25; k++) {
      const repo = makeRepo();
      const runs = await Promise.all([open(repo.dir, 'A'), open(repo.dir, 'B')]);
      for (const r of runs) expect(r, r.err).toMatchObject({ code: 0, err: '' });
      const evidence = path.join(repo.dir, '.git/ctx/evidence');
      expect(readdirSync(evidence).filter((f) => f.includes('.corrupt-'))).toEqual([]);
      const s = openStore(repo.dir);
      expect(s.stats().episodes).toBe(2);
      s.close();
    }
  }, 120_000);
});
