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

  it('"nothing applies": the short comment still carries the collapsible list when retrieval found records', async () => {
    const repo = makeRepo({
      'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender;\n}\n',
      'src/util/pad.ts': 'export const pad = 1;\n',
      '.contextia/system/rationale/DEC-RATE.md': rec('DEC-RATE', 'keywords: [throttle, webhook, token bucket]\n', 'Webhook deliveries are throttled per sender.'),
    });
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('change', { 'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender.trim();\n}\n' });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.artifacts).toEqual([]);
    const md = renderPrComment(r);
    expect(md).toContain('no decision, spec or norm governs the code this PR changes (1 file checked)');
    expect(md).not.toContain('#### Governing artifacts');
    expect(md).toContain('<details><summary>Also relevant (found by retrieval, not declared): 1 record for 1 changed file</summary>');
    expect(md).toContain('- `src/webhooks/limiter.ts`\n  - **DEC\\-RATE** DEC\\-RATE title (accepted) — matches');
    expect(md.indexOf('</details>')).toBeLessThan(md.indexOf('reproduce locally'));
    // bounded like the full comment: a tiny cap drops the list and says so, never the footer
    const small = renderPrComment(r, { maxChars: 400 });
    expect(small).not.toContain('<details>');
    expect(small).toContain('reproduce locally');
    // a change retrieval knows nothing about stays the one-line note
    repo.commit('pad', { 'src/util/pad.ts': 'export const pad = 2;\n' });
    const plain = renderPrComment(await analyzePullRequest({ cwd: repo.dir, base: 'HEAD~1', head: 'HEAD', cache: false, check: false }));
    expect(plain).toContain('no decision, spec or norm governs');
    expect(plain).not.toContain('<details>');
  });
});
