import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, fm: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${id} title\nstatus: accepted\n${fm}---\n\n# ${id}\n\n${body}\n`;

describe('PR bot: also relevant', () => {
  it('lists, per changed file, what retrieval finds beyond the declared records, collapsed and after them', async () => {
    const repo = makeRepo({
      'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender;\n}\n',
      'src/billing/invoice.ts': 'export function total() {\n  return 1;\n}\n',
      '.contextia/system/rationale/DEC-RATE.md': rec('DEC-RATE', 'keywords: [throttle, webhook, token bucket]\n', 'Webhook deliveries are throttled per sender.'),
      '.contextia/system/rationale/DEC-BILL.md': rec('DEC-BILL', 'paths: [src/billing/**]\n', 'Invoice totals keep cents; throttle nothing.'),
    });
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('change', {
      'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender.trim();\n}\n',
      'src/billing/invoice.ts': 'export function total() {\n  return 2;\n}\n',
    });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    const byPath = Object.fromEntries(r.files.map((f) => [f.path, f]));
    expect(byPath['src/billing/invoice.ts']!.governedBy).toEqual(['DEC-BILL']);
    expect(byPath['src/webhooks/limiter.ts']!.governedBy).toEqual([]);
    expect(byPath['src/webhooks/limiter.ts']!.alsoRelevant![0]).toMatchObject({ id: 'DEC-RATE', type: 'decision' });
    expect(byPath['src/webhooks/limiter.ts']!.alsoRelevant![0]!.why).toContain('matches');
    // a declared record is never repeated in the extra list
    expect((byPath['src/billing/invoice.ts']!.alsoRelevant ?? []).map((x) => x.id)).not.toContain('DEC-BILL');
    const md = renderPrComment(r);
    const governing = md.indexOf('#### Governing artifacts');
    const extra = md.indexOf('<details><summary>Also relevant (found by retrieval, not declared)');
    expect(governing).toBeGreaterThan(0);
    expect(extra).toBeGreaterThan(governing);
    expect(md).toContain('- `src/webhooks/limiter.ts`\n  - **DEC\\-RATE** DEC\\-RATE title (accepted) — matches webhook');
    const none = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false, related: 0 });
    expect(none.files.every((f) => f.alsoRelevant === undefined)).toBe(true);
  });
});
