import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RACY_MS } from '../../src/place/kept.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

/**
 * Kept place answers (DEC-062) against answers computed from scratch: after every kind of
 * change (the place edited, a neighbour's annotation, a file added and removed, a record
 * edited and added, the config, a commit), the warm hook, `for` and `trace` must answer what the
 * whole working tree answers (GIT_CTX_TREE=git: no place index, nothing kept), and an
 * unchanged repository must be answered from the kept entry.
 */

const rec = (id: string, extra = '') => `---\nid: ${id}\ntype: decision\ntitle: ${id} about invoices\nstatus: accepted\nsummary: How invoices are rounded and retried (${id}).\n${extra}---\n\n# ${id}\n\nInvoice rounding and retry rules.\n`;

function seed(): TestRepo {
  const repo = makeRepo({
    '.contextia/system/rationale/DEC-001.md': rec('DEC-001'),
    '.contextia/system/rationale/DEC-002.md': rec('DEC-002', 'paths: [pkg/billing/src/**]\n'),
    '.contextia/system/rationale/DEC-004.md': rec('DEC-004', 'paths: [pkg/other/**]\n'),
    '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n',
    'docs/adr/0001-retry-invoices.md': '# 1. Retry invoices\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nThe retry loop in `pkg/billing/src/retry.ts` resends invoices.\n\n## Decision\n\nRetry three times.\n',
    'package.json': '{"name":"root","private":true}\n',
    'pkg/billing/package.json': '{"name":"billing"}\n',
    'pkg/billing/src/round.ts': '// rounding of invoice amounts\n// @decision DEC-001\nexport function roundInvoice(x: number): number {\n  return Math.round(x);\n}\n',
    'pkg/billing/src/retry.ts': "import { roundInvoice } from './round';\n\nexport function retryInvoice(x: number): number {\n  return roundInvoice(x) + 1;\n}\n",
    'pkg/other/src/plain.ts': 'export const plain = 1; // invoice retry\n',
  });
  repo.commit('seed');
  return repo;
}

const PLACE = 'pkg/billing/src/round.ts';
let session = 0;

/** The hook's answer for a new session (the full text), and whether it was computed. */
function hook(dir: string, env: NodeJS.ProcessEnv = {}) {
  const input = JSON.stringify({ session_id: `kept-${++session}`, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(dir, PLACE) } });
  const r = runCli(['hook', 'agent-read'], { cwd: dir, input, env: { GIT_CTX_TIMINGS: '1', ...env } });
  expect(r.code).toBe(0);
  // the snapshot is opened only when the answer is computed
  return { out: r.stdout, computed: r.stderr.includes('snapshot opened') };
}

/** `for --json` without the lanes' times, and whether it was computed. */
function forPlace(dir: string, env: NodeJS.ProcessEnv = {}) {
  const r = runCli(['for', PLACE, '--json'], { cwd: dir, env: { GIT_CTX_TIMINGS: '1', ...env } });
  expect(r.code).toBe(0);
  const json = JSON.parse(r.stdout) as { slots: Record<string, { ms?: number }> };
  for (const s of Object.values(json.slots)) delete s.ms;
  // the repository is opened (phase "snapshot") only when the answer is computed
  return { out: json, computed: /timing: snapshot/.test(r.stderr) };
}

/** `trace --json`, and whether it was computed. */
function tracePlace(dir: string, env: NodeJS.ProcessEnv = {}) {
  const r = runCli(['trace', PLACE, '--json'], { cwd: dir, env: { GIT_CTX_TIMINGS: '1', ...env } });
  expect(r.code).toBe(0);
  return { out: JSON.parse(r.stdout) as unknown, computed: /timing: snapshot/.test(r.stderr) };
}

/** `search --json` without the lanes' times, and whether it was computed. */
function searchWords(dir: string, env: NodeJS.ProcessEnv = {}, words = ['invoice', 'retry', 'rounding']) {
  const r = runCli(['search', ...words, '--json'], { cwd: dir, env: { GIT_CTX_TIMINGS: '1', ...env } });
  expect(r.code).toBe(0);
  const json = JSON.parse(r.stdout) as { slots: Record<string, { ms?: number }> };
  for (const s of Object.values(json.slots)) delete s.ms;
  return { out: json, computed: /timing: snapshot/.test(r.stderr) };
}

/** Search words naming a file of the place's neighbourhood (edited below). */
const NAMED = ['retry', 'loop', 'pkg/billing/src/retry.ts'];
const scratch = { GIT_CTX_TREE: 'git' };
const settle = () => new Promise((res) => setTimeout(res, RACY_MS + 150));

/** After a change: the first answer is computed and equals the from-scratch one; the next is the kept one, equal again. */
async function expectKeptAfterChange(dir: string) {
  await settle();
  const want = { hook: hook(dir, scratch).out, for: forPlace(dir, scratch).out, trace: tracePlace(dir, scratch).out, search: searchWords(dir, scratch).out };
  const first = { hook: hook(dir), for: forPlace(dir), trace: tracePlace(dir), search: searchWords(dir), named: searchWords(dir, {}, NAMED) };
  expect(first.hook.computed).toBe(true);
  expect(first.for.computed).toBe(true);
  expect(first.search.out).toEqual(want.search);
  // like trace, a search reads no place: a change it never read leaves its kept answer
  // standing. Words naming a file read it fresh through the place index, which (as before
  // answers were kept) sees no code graph as the whole tree does: kept equals computed.
  // trace walks no graph: a change it never read (a neighbour's annotation) leaves its kept answer standing
  expect(first.hook.out).toBe(want.hook);
  expect(first.for.out).toEqual(want.for);
  expect(first.trace.out).toEqual(want.trace);
  const again = { hook: hook(dir), for: forPlace(dir), trace: tracePlace(dir), search: searchWords(dir), named: searchWords(dir, {}, NAMED) };
  expect(again.search.computed).toBe(false);
  expect(again.search.out).toEqual(want.search);
  expect(again.named.computed).toBe(false);
  expect(again.named.out).toEqual(first.named.out);
  expect(again.hook.computed).toBe(false);
  expect(again.for.computed).toBe(false);
  expect(again.trace.computed).toBe(false);
  expect(again.hook.out).toBe(want.hook);
  expect(again.for.out).toEqual(want.for);
  expect(again.trace.out).toEqual(want.trace);
  return want;
}

describe('kept place answers', () => {
  it('equal the from-scratch answers after every kind of change, and are kept while nothing changes', async () => {
    const repo = seed();
    const d = repo.dir;
    const start = await expectKeptAfterChange(d);
    expect(start.hook).toContain('DEC-001');
    expect(start.hook).toContain('DEC-002');

    // the place edited (not staged): a new annotation
    repo.write({ [PLACE]: '// @decision DEC-004\nexport function roundInvoice(x: number): number {\n  return Math.round(x);\n}\n' });
    const edited = await expectKeptAfterChange(d);
    expect(edited.hook).toContain('DEC-004');

    // a neighbour's annotation (an importer, not staged): the walk reads it from disk
    repo.write({ 'pkg/billing/src/retry.ts': "import { roundInvoice } from './round';\n\n// @decision DEC-001\nexport function retryInvoice(x: number): number {\n  return roundInvoice(x) + 1;\n}\n" });
    await expectKeptAfterChange(d);

    // a file added and staged (a new importer with an annotation), then removed
    repo.write({ 'pkg/billing/src/late.ts': "import { roundInvoice } from './round';\n// @decision DEC-002\nexport const late = roundInvoice(3);\n" });
    repo.git('add', 'pkg/billing/src/late.ts');
    await expectKeptAfterChange(d);
    repo.git('rm', '-q', '-f', 'pkg/billing/src/late.ts');
    await expectKeptAfterChange(d);

    // a record edited (not staged): its paths no longer cover the place
    repo.write({ '.contextia/system/rationale/DEC-002.md': rec('DEC-002', 'paths: [pkg/other/**]\n') });
    await expectKeptAfterChange(d);

    // a record added (untracked) that governs the place
    repo.write({ '.contextia/system/rationale/DEC-003.md': rec('DEC-003', 'paths: [pkg/billing/**]\n') });
    const added = await expectKeptAfterChange(d);
    expect(added.hook).toContain('DEC-003');

    // an ADR removed from disk
    unlinkSync(path.join(d, 'docs/adr/0001-retry-invoices.md'));
    await expectKeptAfterChange(d);

    // the config changed: the ADR folder is no longer a source
    repo.write({ '.contextia/config.yaml': 'retrieval:\n  fused: 1\n' });
    await expectKeptAfterChange(d);

    // a commit moves HEAD (and the index)
    repo.git('add', '-A');
    repo.commit('everything');
    const committed = await expectKeptAfterChange(d);

    // another environment is another question: computed, then kept in place of the other
    // (one entry per command and place)
    const other = { GIT_CTX_EMBED_PROVIDER: 'off' };
    expect(hook(d, other).computed).toBe(true);
    expect(hook(d, other).computed).toBe(false);
    const back = hook(d);
    expect(back.computed).toBe(true);
    expect(back.out).toBe(committed.hook);
  }, 180_000);

  it('keeps an answer per credential without writing the credential: a new API key asks afresh, no cache file holds one', async () => {
    const repo = seed();
    await settle();
    const secret = 'sk-kept-answer-secret-0123456789';
    const withKey = (key: string) => ({ GIT_CTX_EMBED_API_KEY: key, GIT_CTX_EMBED_PROVIDER: 'off' });
    expect(forPlace(repo.dir, withKey(secret)).computed).toBe(true);
    expect(searchWords(repo.dir, withKey(secret)).computed).toBe(true);
    expect(forPlace(repo.dir, withKey(secret)).computed).toBe(false);
    expect(searchWords(repo.dir, withKey(secret)).computed).toBe(false);
    expect(forPlace(repo.dir, withKey(`${secret}-rotated`)).computed).toBe(true);
    const cache = path.join(repo.dir, CACHE_REL);
    const files = readdirSync(cache).filter((f) => f.startsWith('place-answer-') || f.startsWith('search-set'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(path.join(cache, f), 'utf8').includes('sk-kept-answer-secret'), f).toBe(false);
  }, 60_000);

  it('keeps no answer a lane failed to give (an embedding endpoint down, a lane timed out): shown, and computed again next time', async () => {
    const repo = seed();
    // a port nothing listens on: the semantic lane fails at once, the others answer
    const port = await new Promise<number>((res) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as AddressInfo).port;
        srv.close(() => res(p));
      });
    });
    repo.commit('an embedding endpoint', { '.contextia/config.yaml': `sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\nsemantic:\n  provider: openai\n  url: http://127.0.0.1:${port}\n  retries: 0\n` });
    await settle();
    const cache = path.join(repo.dir, CACHE_REL);
    const kept = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('place-answer-search')) : []);
    const env = { GIT_CTX_EMBED_API_KEY: 'sk-test' };
    for (let i = 0; i < 2; i++) {
      const r = searchWords(repo.dir, env);
      expect((r.out.slots.semantic as { status?: string }).status).toBe('failed');
      expect(kept()).toEqual([]);
    }
    // the lane answering again: the answer is whole, and kept
    expect((searchWords(repo.dir, { GIT_CTX_EMBED_PROVIDER: 'off' }).out.slots.semantic as { status?: string }).status).not.toBe('failed');
    expect(kept().length).toBe(1);
  }, 60_000);

  it('keeps no answer that read a file changed in the last moment (a racy stat)', async () => {
    const repo = seed();
    await settle();
    repo.write({ [PLACE]: '// @decision DEC-002\nexport const r = 1;\n' });
    // asked at once: the place's stat cannot tell a later change in the same tick apart
    expect(hook(repo.dir).computed).toBe(true);
    expect(existsSync(path.join(repo.dir, CACHE_REL, `place-answer-agent-read-${PLACE.replace(/\//g, '_')}.json`))).toBe(false);
    await expectKeptAfterChange(repo.dir);
    expect(existsSync(path.join(repo.dir, CACHE_REL, `place-answer-agent-read-${PLACE.replace(/\//g, '_')}.json`))).toBe(true);
  }, 60_000);
});
