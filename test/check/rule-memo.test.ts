import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactSetKey } from '../../src/check/rule-memo.js';
import { runCheck } from '../../src/check/run.js';
import type { Rule } from '../../src/check/types.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const dec = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n# ${title}\n\n${body}\n`;
const SAME = 'Every payment retry backs off exponentially with jitter, capped at five attempts, and the ledger records each attempt with its idempotency key so reconciliation can replay them.';

async function check(repo: TestRepo, extraRules: Rule[] = [], rules?: string[]) {
  const snapshot = await openSnapshot({ cwd: repo.dir });
  try {
    return (await runCheck({ snapshot, extraRules, rules, now: new Date('2026-11-22T00:00:00Z') })).findings;
  } finally {
    snapshot.close();
  }
}

describe('rule findings remembered by what they depend on', () => {
  it('a memoized rule runs once per state of the records and again after any record changes', async () => {
    const repo = makeRepo({ '.contextia/system/rationale/DEC-001.md': dec('DEC-001', 'One', 'First.') });
    repo.commit('c');
    let runs = 0;
    const rule: Rule = {
      id: 'test-count-records',
      severity: 'info',
      description: 'counts records',
      memoKey: (ctx) => artifactSetKey(ctx),
      run: (ctx) => {
        runs++;
        return [{ rule: 'test-count-records', message: `${ctx.set.artifacts.length} records` }];
      },
    };
    const first = await check(repo, [rule], ['test-count-records']);
    expect(await check(repo, [rule], ['test-count-records'])).toEqual(first);
    expect(runs).toBe(1);
    repo.write({ '.contextia/system/rationale/DEC-002.md': dec('DEC-002', 'Two', 'Second.') });
    const second = await check(repo, [rule], ['test-count-records']);
    expect(runs).toBe(2);
    expect(second[0]?.message).toBe('2 records');
    repo.write({ '.contextia/system/rationale/DEC-002.md': dec('DEC-002', 'Two', 'Second, edited.') });
    await check(repo, [rule], ['test-count-records']);
    expect(runs).toBe(3);
  });

  it('decision-near-duplicate gives the from-scratch findings through edits, and is remembered only for the offline embedder', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': dec('DEC-001', 'Payment retries back off', SAME),
      '.contextia/system/rationale/DEC-002.md': dec('DEC-002', 'Payment retries back off exponentially', SAME),
    });
    repo.commit('c');
    const memo = path.join(repo.dir, `${CACHE_REL}/check-rule-decision-near-duplicate.json`);
    const scratch = async () => {
      rmSync(path.join(repo.dir, '.git/ctx'), { recursive: true, force: true });
      return check(repo, [], ['decision-near-duplicate']);
    };
    const cold = await scratch();
    expect(cold.map((f) => f.rule)).toContain('decision-near-duplicate');
    expect(existsSync(memo)).toBe(true);
    expect(await check(repo, [], ['decision-near-duplicate'])).toEqual(cold);
    repo.write({ '.contextia/system/rationale/DEC-002.md': dec('DEC-002', 'Queue consumers', 'Queue consumers acknowledge a message only after the handler committed its transaction.') });
    const warm = await check(repo, [], ['decision-near-duplicate']);
    expect(warm).toEqual(await scratch());
    expect(warm).toEqual([]);
    // a provider over the network is never remembered
    rmSync(memo, { force: true });
    process.env.GIT_CTX_EMBED_PROVIDER = 'none';
    try {
      await check(repo, [], ['decision-near-duplicate']).catch(() => undefined);
      expect(existsSync(memo)).toBe(false);
    } finally {
      delete process.env.GIT_CTX_EMBED_PROVIDER;
    }
  });
});
