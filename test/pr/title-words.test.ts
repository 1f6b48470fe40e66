import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { changeDescription, unwrapMerge } from '../../src/pr/ranked.js';
import { makeRepo } from '../helpers/git-repo.js';

/*
 * DEC-097: what the author titled the change weighs on which records it shows. A merge
 * commit's first line is git's, not the author's: the pull request's title below it, and its
 * branch's name, stand for the change. A record whose own title the change's title says (a
 * short "Webhooks" beside "Delete webhooks") is not left under the floor by records sharing more
 * of the diff's common words.
 */

const rec = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n\n# ${title}\n\n${body}\n`;

describe('PR description: a merge commit says the pull request it merges', () => {
  it("GitHub's and git's merge lines give way to the title under them and the branch's own name", () => {
    expect(unwrapMerge('Merge pull request #623 from YaSuenag/pr/jsonstringconverter\n\nSet JsonStringConverter in WattTimeClient\n\nMore words.')).toBe('Set JsonStringConverter in WattTimeClient (pr jsonstringconverter)\n\nMore words.');
    expect(unwrapMerge("Merge branch 'feature/retry-payments' into 'main'\n\nRetry failed card payments")).toBe('Retry failed card payments (feature retry payments)');
    expect(unwrapMerge("Merge branch 'hotfix-42'")).toBe('(hotfix 42)');
    // a commit that only starts like one is left as written
    expect(unwrapMerge('Merge the two payment handlers\n\nOne handler for cards and wallets.')).toBe('Merge the two payment handlers\n\nOne handler for cards and wallets.');
  });

  it('read from a real merge commit in the range', async () => {
    const repo = makeRepo({ 'src/pay.ts': 'export const pay = 1;\n' });
    repo.commit('payments');
    repo.git('checkout', '-q', '-b', 'retry-payments');
    repo.commit('retry once', { 'src/pay.ts': 'export const pay = 2;\n' });
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--no-ff', 'retry-payments', '-m', 'Merge pull request #12 from alice/retry-payments\n\nRetry failed card payments');
    const d = await changeDescription(repo.dir, { from: 'HEAD^1', to: 'HEAD' }, {});
    expect(d.source).toBe('commits');
    expect(d.title).toBe('Retry failed card payments (retry payments)');
    expect(`${d.title}\n${d.body}`).not.toMatch(/pull request|alice/);
  });
});

describe("PR ranking: a record whose title the change's title says", () => {
  it('a one-word record the title names is shown among the first, before a record sharing more of the diff\'s common words', async () => {
    const handler = (name: string) =>
      `import { charge } from '../gateway';\n\n/** Handle the ${name} event of a payment order: charge the order amount through the gateway and record the payment status. */\nexport async function handle${name}(orderId: string, amount: number, status: string) {\n  const payment = await charge(orderId, amount);\n  return { payment, status, orderId };\n}\n`;
    const repo = makeRepo({
      '.contextia/config.yaml': 'version: 1\n',
      '.contextia/system/rationale/DEC-HOOKS.md': rec('DEC-HOOKS', 'Webhooks', 'The provider calls us back through webhooks; each webhook is verified by its signature before we act on it.'),
      '.contextia/system/rationale/DEC-STATUS.md': rec('DEC-STATUS', 'Payment order status recorded by the handlers', 'Every handler records the payment status of an order after it charges the order amount through the gateway, so a payment order never loses its status.'),
      '.contextia/system/rationale/DEC-GATEWAY.md': rec('DEC-GATEWAY', 'One gateway client for every payment handler', 'Handlers charge an order amount through the one gateway client; no handler talks to the payment provider itself.'),
      '.contextia/system/rationale/DEC-REPORTS.md': rec('DEC-REPORTS', 'Monthly settlement reports', 'Settlement reports are rendered as CSV once a month for finance.'),
      'src/gateway.ts': 'export async function charge(orderId: string, amount: number) {\n  return { orderId, amount };\n}\n',
      'src/webhooks/refunded.ts': handler('Refunded'),
      'src/webhooks/captured.ts': handler('Captured'),
      'src/webhooks/failed.ts': handler('Failed'),
      'src/cards.ts': 'export const cards = [];\n',
    });
    repo.commit('payments service');
    repo.git('checkout', '-q', '-b', 'delete');
    repo.rm('src/webhooks');
    repo.commit('Delete webhooks');
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'delete', cache: false, check: false });
    const ids = r.ranked.map((x) => x.id);
    // without the title's say the record "Webhooks" stays under the floor, behind two records sharing handler, order, payment, gateway
    expect(ids.indexOf('DEC-HOOKS')).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf('DEC-HOOKS')).toBeLessThan(2);
    expect(ids.indexOf('DEC-HOOKS')).toBeLessThan(ids.indexOf('DEC-GATEWAY') === -1 ? Infinity : ids.indexOf('DEC-GATEWAY'));
    expect(ids).not.toContain('DEC-REPORTS');
  });
});
