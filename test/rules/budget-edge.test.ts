import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import type { TokenCounter } from '../../src/assemble/tokens.js';
import { loadConfig, type Config } from '../../src/config.js';
import { rulesCounter } from '../../src/rules/counter.js';
import { planRuleFiles } from '../../src/rules/export.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

// The rules counter (its count cache, encoder kept between batches, worker thread) must plan
// the bytes tiktoken alone gives. Here
// every budget across a window is planned both ways, so each record's edge (the budget at
// which it just fits, in full or as its summary) is crossed.

const words = ['invoice', 'ledger', 'rounding', 'currency', 'refund', 'tax', 'customer', 'export', 'retry', 'timeout', 'cache', 'schema'];
const record = (i: number) => {
  const type = i % 3 === 0 ? 'norm' : 'decision';
  const id = `${type === 'norm' ? 'NORM' : 'DEC'}-${String(i).padStart(3, '0')}`;
  const w = (k: number) => words[(i * 7 + k) % words.length];
  // some texts outside the JavaScript counter's range (CJK, emoji), some with typographic punctuation and accents
  const extra = i % 5 === 0 ? ' 請求書は毎月 ✓ 🚀' : i % 4 === 0 ? ' \u201cdon\u2019t\u201d \u2014 caf\u00e9 na\u00efve' : '';
  const body = `# ${id}\n\n## Context\n\nWhy ${w(1)} matters.\n\n## Decision\n\n${Array.from({ length: 1 + (i % 4) }, (_, k) => `The ${w(k)} ${w(k + 2)} rule ${i}.${k % 2 ? extra : ''}`).join(' ')}\n\n## Consequences\n\nMore ${w(3)}.\n`;
  const paths = i % 2 ? `paths: [src/${w(4)}/mod${i % 3}.ts]\n` : '';
  return [`.contextia/system/${type === 'norm' ? 'norms' : 'rationale'}/${id}.md`, `---\nid: ${id}\ntype: ${type}\ntitle: ${w(0)} ${w(5)} ${i}${i % 6 === 0 ? ' 🙂' : ''}\nstatus: ${type === 'norm' ? 'active' : 'accepted'}\nsummary: "Summary of ${id}: ${w(6)} and ${w(7)}${extra}."\n${paths}---\n${body}`] as const;
};

let saved: string | undefined;
beforeAll(() => {
  // count every time (no count cache), so each plan goes through the counters under test
  saved = process.env.GIT_CTX_NO_CACHE;
  process.env.GIT_CTX_NO_CACHE = '1';
});
afterAll(() => {
  if (saved === undefined) delete process.env.GIT_CTX_NO_CACHE;
  else process.env.GIT_CTX_NO_CACHE = saved;
});

/** tiktoken alone (its encoder kept for the whole sweep, not rebuilt per batch as tiktokenCounter does). */
async function exactCounter(): Promise<TokenCounter & { free(): void }> {
  const { get_encoding } = await import('@dqbd/tiktoken');
  const enc = get_encoding('o200k_base');
  return { encoding: 'o200k_base', count: async (texts) => texts.map((t) => enc.encode_ordinary(t).length), free: () => enc.free() };
}

describe('rules export token budget: the rules counter and tiktoken give the same files', () => {
  it('at every budget across the edges of sections and whole files', { timeout: 180_000 }, async () => {
    const files: Record<string, string> = { 'AGENTS.md': '# Agents\n\nOur own text.\n' };
    for (let i = 1; i <= 24; i++) {
      const [p, c] = record(i);
      files[p] = c;
    }
    const repo = makeRepo(files);
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const base = await loadConfig(snapshot);
      const set = await loadArtifactSet(snapshot, base);
      const exact = await exactCounter();
      const cheap = rulesCounter(repo.dir, base);
      const plan = (budget: number, counter: TokenCounter) => {
        const config: Config = { ...base, rule_files: { ...base.rule_files, budget } };
        return planRuleFiles({ snapshot, config, set, formats: ['agents', 'cursor', 'copilot'], counter });
      };
      let exactEdges = 0;
      let lowered = 0;
      let prev: { budget: number; bytes: string } | undefined;
      // whole files (one record each) cross their edges between ~60 and ~200 tokens: every
      // budget there, so a file that changes from budget-1 to budget fits with no token to
      // spare; the shared sections fill up to ~1,300, sampled
      for (let budget = 40; budget <= 1400; budget += budget < 200 ? 1 : 13) {
        const [a, b] = [await plan(budget, cheap), await plan(budget, exact)];
        const bytes = (p: typeof a) => p.files.map((f) => `${f.path}\n${f.content}`).join('\n\u0000\n');
        expect(bytes(a), `budget ${budget}`).toBe(bytes(b));
        expect(a.files.map((f) => [f.ids, f.lowered, f.dropped])).toEqual(b.files.map((f) => [f.ids, f.lowered, f.dropped]));
        const now = bytes(a);
        if (prev && prev.budget === budget - 1 && now !== prev.bytes) exactEdges++;
        lowered += a.files.reduce((n, f) => n + f.lowered.length, 0);
        prev = { budget, bytes: now };
      }
      cheap.free();
      exact.free();
      // the window really crossed edges exactly (a record in full instead of its summary) and shortened records on the way
      expect(exactEdges).toBeGreaterThan(10);
      expect(lowered).toBeGreaterThan(0);
    } finally {
      snapshot.close();
    }
  });
});
