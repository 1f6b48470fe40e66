import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { payloadDir, putPayload } from '../../src/store/payloads.js';
import { runCli } from '../helpers/cli.js';
import { fixtureRepo } from '../mcp/helpers.js';

const env = { GIT_CTX_NO_RECORD: '' };
const payloadFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).flatMap((d) => readdirSync(path.join(dir, d))) : []);

describe('evidence payloads in the content-addressed store', () => {
  it('a long query goes to .git/ctx/payloads by hash; episodes <id> reads it back; cleaning removes only unreferenced ones', () => {
    const repo = fixtureRepo();
    const evidence = path.join(repo.dir, '.git/ctx/evidence');
    const long = Array.from({ length: 400 }, (_, i) => `invoice${i}`).join(' ');
    expect(Buffer.byteLength(long)).toBeGreaterThan(2048);
    expect(runCli(['search', long], { cwd: repo.dir, env }).code).toBe(0);
    expect(runCli(['search', 'round invoice totals'], { cwd: repo.dir, env }).code).toBe(0);

    // the journal row holds a prefix and the hash, not the text
    const journal = readFileSync(path.join(evidence, 'journal.jsonl'), 'utf8');
    expect(journal).not.toContain('invoice399');
    const files = payloadFiles(payloadDir(evidence));
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(payloadDir(evidence), files[0]!.slice(0, 2), files[0]!), 'utf8')).toBe(long);

    const list = JSON.parse(runCli(['episodes', '--json'], { cwd: repo.dir, env }).stdout).episodes as { id: string; query: { text: string } }[];
    const ep = list.find((e) => e.query.text.startsWith('invoice0 '))!;
    expect(ep.query.text.length).toBeLessThan(200);
    const one = JSON.parse(runCli(['episodes', ep.id, '--json'], { cwd: repo.dir, env }).stdout);
    expect(one.query.text).toBe(long);
    expect(one.payloads).toEqual([{ hash: files[0], bytes: Buffer.byteLength(long) }]);
    expect(runCli(['episodes', ep.id], { cwd: repo.dir, env }).stdout).toContain('invoice399');

    // an unreferenced payload goes, the referenced one stays
    const stray = putPayload(payloadDir(evidence), 'x'.repeat(5000));
    const store = Store.open(repo.dir);
    try {
      expect(store.cleanPayloads(0)).toEqual([stray]);
      expect(payloadFiles(payloadDir(evidence))).toEqual(files);
    } finally {
      store.close();
    }
    // the episode pruned by retention takes its payload with it
    const later = Store.open(repo.dir, { retention: { max_episodes: 1, max_age_days: 180 }, clock: () => Date.now() + 3_600_000 });
    try {
      expect(later.prune()).toBeGreaterThan(0);
    } finally {
      later.close();
    }
    expect(payloadFiles(payloadDir(evidence))).toEqual([]);
  });
});
