import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { CODE, RECORDS } from './change-scenario.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, title: string, fm: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n${fm}---\n\n# ${title}\n\n${body}\n`;

describe('a record the pull request adds or edits', () => {
  it('is listed once, under "Records this PR changes", which says what else it is to the change', async () => {
    const repo = makeRepo({ ...RECORDS, ...CODE });
    repo.commit('payments service');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({
      'src/handlers/card.ts': CODE['src/handlers/card.ts']!.replace('  return charge', "  const key = idempotencyKey(orderId, 1);\n  return charge"),
      // added: declares the changed code, and restates DEC-IDEM
      '.contextia/system/rationale/DEC-KEY.md': rec('DEC-KEY', 'Generate idempotency key per attempt', 'paths: [src/handlers/**]\n', 'Every payment request sent to the gateway carries an idempotency key generated from the order id and the attempt, so that a retried request is never charged twice.\n\n## Decision\n\nGenerate the idempotency key once per attempt with `idempotencyKey(orderId, attempt)`.'),
      // edited: it declares the changed code
      '.contextia/system/rationale/DEC-ERR.md': rec('DEC-ERR', 'Errors of payment handlers', 'paths: [src/handlers/**]\n', 'Handlers return typed errors; a gateway failure becomes a retryable error carrying the idempotency key.'),
    });
    repo.commit('Send an idempotency key from the card handler');
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.recordChanges.map((c) => [c.id, c.change]).sort()).toEqual([
      ['DEC-ERR', 'edited'],
      ['DEC-KEY', 'added'],
    ]);
    // the analysis still knows both declare the changed code (JSON, SARIF, fail-on read it)
    expect(r.artifacts.filter((a) => a.inclusion === 'direct').map((a) => a.id).sort()).toEqual(['DEC-ERR', 'DEC-KEY']);
    const md = renderPrComment(r);
    const section = (head: string) => (md.split(`#### ${head}\n`)[1] ?? '').split('\n#### ')[0]!;
    const changes = section('Records this PR changes');
    expect(changes).toContain('- Adds decision **DEC\\-KEY** Generate idempotency key per attempt (accepted) · `.contextia/system/rationale/DEC-KEY.md`\n  - it declares the changed code: `src/handlers/card.ts` (paths `src/handlers/**`)');
    expect(changes).toContain('- Edits decision **DEC\\-ERR** Errors of payment handlers (accepted) · `.contextia/system/rationale/DEC-ERR.md`\n  - it governs this change too: `src/handlers/card.ts` (paths `src/handlers/**`)');
    // nowhere else: no table row, no found item, no other section names them
    const rest = md.replace(changes, '');
    expect(rest).not.toMatch(/DEC\\?-KEY|DEC\\?-ERR/);
    expect(md).not.toContain('#### Governing artifacts');
    expect(md).toContain('Only records this PR adds or edits declare the code it changes (3 changed files; under Records this PR changes); **2 records** match its lines, paths or description.');
    // the record titled for what the change's title says comes first (DEC-097), then the card handler's
    const found = section("Decisions this change concerns, strongest first");
    expect(found).toMatch(/^\n1\. \*\*DEC\\-IDEM\*\*/);
    expect(found).toMatch(/\n2\. \*\*DEC\\-PREAUTH\*\*/);
  });
});
