import { describe, expect, it } from 'vitest';
import { diffPullRequest } from '../../src/git/diff.js';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { editDistance, isSpellingFix } from '../../src/retrieve/change-spelling.js';
import { changeQuery } from '../../src/retrieve/change-query.js';
import { terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';
import { paymentsRepo } from '../pr/change-scenario.js';

/* A change that only respells words (issue 31, negatives): read from real diffs, asked at a small weight. */

async function changed(base: string, head: string, path = 'src/retry.ts') {
  const repo = makeRepo({ [path]: base });
  const b = repo.commit('base');
  const h = repo.commit('head', { [path]: head });
  return (await diffPullRequest(repo.dir, b, h)).files[0]!;
}

const RETRY = (attempt: string, message: string) =>
  `import { charge } from './gateway';\n\n// The idempotency key of a repeated payment request is generated once per ${attempt}, so the gateway\n// never charges an order twice.\nexport function retryPayment(orderId: string, amount: number) {\n  if (amount > 0) throw new Error('${message}');\n  return charge(orderId, amount);\n}\n`;

describe('spelling fixes', () => {
  it('edit distance counts a transposition once and stops past its bound', () => {
    expect(editDistance('recieve', 'receive')).toBe(1);
    expect(editDistance('sesssion', 'session')).toBe(1);
    expect(editDistance('definately', 'definitely')).toBe(1);
    expect(editDistance('definatly', 'definitely')).toBe(2);
    expect(editDistance('push', 'pull')).toBe(2);
    expect(editDistance('idempotency', 'settlement')).toBe(3);
  });

  it('a word respelled in a comment or a string is one; a changed value, operator, inflection or identifier is not', async () => {
    const ok = RETRY('attempt', 'retry a charge');
    expect(isSpellingFix(await changed(RETRY('atempt', 'retry a charge'), ok))).toBe(true);
    expect(isSpellingFix(await changed(RETRY('attempt', 'retry a chagre'), ok))).toBe(true);
    // a value, an operator, another word of the same letters' length, an ending added, a renamed identifier
    expect(isSpellingFix(await changed(ok.replace('amount > 0', 'amount > 1'), ok))).toBe(false);
    expect(isSpellingFix(await changed(ok.replace('amount > 0', 'amount >= 0'), ok))).toBe(false);
    expect(isSpellingFix(await changed(RETRY('attempt', 'retry a charge').replace('once per', 'twice per'), ok))).toBe(false);
    expect(isSpellingFix(await changed(RETRY('attempts', 'retry a charge'), ok))).toBe(false);
    expect(isSpellingFix(await changed(ok.replace('retryPayment', 'retyrPayment'), ok))).toBe(false);
    // a line added beside the fix is more than a respelling
    expect(isSpellingFix(await changed(RETRY('atempt', 'retry a charge'), ok.replace('// never', '// Retries wait a minute.\n// never')))).toBe(false);
    // prose outside code: a respelled word in a guide
    expect(isSpellingFix(await changed('# Contributing\n\nRun the tets before you push.\n', '# Contributing\n\nRun the tests before you push.\n', 'CONTRIBUTING.md'))).toBe(true);
    expect(isSpellingFix(await changed('# Contributing\n\nRun the tests before you push.\n', '# Contributing\n\nRun the tests after you push.\n', 'CONTRIBUTING.md'))).toBe(false);
  });

  it('the query of a spelling fix: a small weight, no path or symbols, and "Fix typo" asks nothing', async () => {
    const f = await changed(RETRY('atempt', 'retry a charge'), RETRY('attempt', 'retry a charge'));
    const q = changeQuery({ files: [f], title: 'Fix typo', body: 'Thanks for catching it\n\nCo-authored-by: A Person <a@example.com>' });
    expect(q.spelling).toEqual(['src/retry.ts']);
    let sum = 0;
    for (const w of q.terms.values()) sum += w;
    expect(sum).toBeLessThanOrEqual(3 + 1.5 * 4);
    expect(q.terms.has(terms('retry')[0]!)).toBe(false);
    for (const w of ['fix', 'typo', 'authored', 'person']) expect(q.terms.has(terms(w)[0]!), w).toBe(false);
    // the attempt word is still the change, above the words around it
    expect(q.terms.get(terms('attempt')[0]!)!).toBeGreaterThan(q.terms.get(terms('idempotency')[0]!)!);
    // the same words as a real change of the comment ask with all their weight
    const real = changeQuery({ files: [await changed(RETRY('attempt', 'retry a charge'), RETRY('attempt', 'retry a charge').replace('once per attempt', 'once per order and attempt'))], title: 'Fix typo' });
    expect(real.spelling).toEqual([]);
    expect(real.terms.has(terms('fix')[0]!)).toBe(true);
  });

  it('a real pull request that fixes a typo in a comment of code a record is about lists no record; the change that implements it does', async () => {
    const repo = paymentsRepo();
    repo.git('checkout', '-q', 'main');
    repo.commit('Retry payments', { 'src/retry.ts': RETRY('atempt', 'retry a chagre') });
    repo.git('checkout', '-q', '-b', 'typo');
    repo.commit('Fix typo\n\nThanks for catching it.\n\nCo-authored-by: A Person <a@example.com>', { 'src/retry.ts': RETRY('attempt', 'retry a charge') });
    const typo = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'typo', cache: false, check: false });
    expect(typo.files.map((f) => f.path)).toEqual(['src/retry.ts']);
    expect(typo.ranked).toEqual([]);

    // the same file changed for real: the idempotency record is found
    repo.git('checkout', '-q', 'main');
    repo.git('checkout', '-q', '-b', 'real');
    repo.commit('Generate the idempotency key once per attempt', {
      'src/retry.ts': RETRY('atempt', 'retry a chagre').replace('return charge(orderId, amount);', 'const key = idempotencyKey(orderId, attempt);\n  return charge(orderId, amount, key);'),
    });
    const real = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'real', cache: false, check: false });
    expect(real.ranked.map((x) => x.id)).toContain('DEC-IDEM');
  });
});
