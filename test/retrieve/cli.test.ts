import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, type: string, fm: string, body = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\n${fm}---\n\n# ${id}\n\n${body}\n`;

function repo(extra: Record<string, string> = {}) {
  const r = makeRepo({
    'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender;\n}\n',
    'src/billing/invoice.ts': '// @spec SPEC-BILLING\nexport function total() {\n  return 1;\n}\n',
    '.contextia/system/rationale/DEC-RATE.md': rec('DEC-RATE', 'decision', 'status: accepted\nsummary: Token bucket per sender.\nkeywords: [rate limit, throttle, webhook]\n', 'Webhook deliveries are throttled.'),
    '.contextia/system/rationale/DEC-RETRY.md': rec('DEC-RETRY', 'decision', 'status: accepted\nkeywords: [webhook retry]\n', 'Failed webhook deliveries are retried.'),
    '.contextia/system/specs/SPEC-BILLING.md': rec('SPEC-BILLING', 'spec', 'status: active\n', 'Invoices.'),
    ...extra,
  });
  r.commit('fixture');
  return r;
}

describe('git ctx for / search', () => {
  it('prints the documented JSON shape', () => {
    const r = repo();
    const out = runCli(['for', 'src/webhooks/limiter.ts:2', '--json'], { cwd: r.dir });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const j = JSON.parse(out.stdout);
    expect(j.query).toMatchObject({ kind: 'place', place: 'src/webhooks/limiter.ts:2', path: 'src/webhooks/limiter.ts', line: 2, symbol: 'throttle' });
    expect(j.results[0]).toMatchObject({ id: 'DEC-RATE', type: 'decision', title: 'DEC-RATE title', status: 'accepted', file: '.contextia/system/rationale/DEC-RATE.md', slot: 'fused' });
    expect(Array.isArray(j.results[0].why)).toBe(true);
    expect(typeof j.results[0].score).toBe('number');
    expect(Object.keys(j.slots).sort()).toEqual(['declared', 'keywords', 'links', 'mentions', 'metadata', 'nearness', 'semantic']);
    expect(j.slots.declared).toMatchObject({ status: 'ok', count: 0, cap: 10 });
    expect(j.slots.semantic.status).toBe('ok');
  });

  it('reads caps from config.yaml and --cap, and renders human and context formats', () => {
    const r = repo({ '.contextia/config.yaml': 'retrieval:\n  fused: 1\n' });
    const one = JSON.parse(runCli(['search', 'webhook', 'deliveries', '--json'], { cwd: r.dir }).stdout);
    expect(one.results).toHaveLength(1);
    expect(one.slots.keywords.cap).toBe(1);
    const two = JSON.parse(runCli(['search', 'webhook', 'deliveries', '--json', '--cap', 'fused=2'], { cwd: r.dir }).stdout);
    expect(two.results.map((x: { id: string }) => x.id).sort()).toEqual(['DEC-RATE', 'DEC-RETRY']);
    const human = runCli(['for', 'src/billing/invoice.ts'], { cwd: r.dir });
    expect(human.stdout).toContain('declared (anchors, annotations, paths; nearest first)');
    expect(human.stdout).toMatch(/SPEC-BILLING\s+spec active/);
    const ctx = runCli(['for', 'src/billing/invoice.ts', '--format', 'context'], { cwd: r.dir });
    expect(ctx.stdout).toContain('## SPEC-BILLING — SPEC-BILLING title (spec, active; declared)');
    expect(ctx.stdout).not.toMatch(/fingerprint|stamp|score/i);
  });

  it('exits 2 on usage errors with a clear message', () => {
    const r = repo();
    const missing = runCli(['for', 'src/nope.ts'], { cwd: r.dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or directory in the snapshot: src/nope.ts');
    const sym = runCli(['for', 'src/billing/invoice.ts#nope'], { cwd: r.dir });
    expect(sym.code).toBe(2);
    expect(sym.stderr).toContain('no symbol nope in src/billing/invoice.ts');
    // a Python file's symbols are known (the code graph's parser); a missing one is named beside those there are
    const py = repo({ 'app/pay.py': 'class Payment:\n    def charge(self, amount):\n        return round(amount)\n', 'app/Pay.kt': 'class Pay {\n  fun charge() = 1\n}\n' });
    expect(runCli(['trace', 'app/pay.py#Payment.charge'], { cwd: py.dir }).code).toBe(0);
    const pySym = runCli(['trace', 'app/pay.py#Payment.refund'], { cwd: py.dir });
    expect(pySym.code).toBe(2);
    expect(pySym.stderr).toContain('no symbol Payment.refund in app/pay.py');
    expect(pySym.stderr).toContain('symbols: Payment, Payment.charge');
    // a language without a parser here: found by its declaring lines (DEC-086); a name no line
    // declares says what to ask instead
    expect(runCli(['trace', 'app/Pay.kt#Pay.charge'], { cwd: py.dir }).code).toBe(0);
    const kt = runCli(['trace', 'app/Pay.kt#Pay.refund'], { cwd: py.dir });
    expect(kt.code).toBe(2);
    expect(kt.stderr).toContain('no symbol Pay.refund in app/Pay.kt');
    expect(kt.stderr).toContain('no line of the file declares it (class, fun, def, function, …): ask for a line (app/Pay.kt:LINE)');
    const cap = runCli(['search', 'x', '--cap', 'bogus=1'], { cwd: r.dir });
    expect(cap.code).toBe(2);
    expect(cap.stderr).toContain('--cap takes slot=n');
    expect(runCli(['search', 'x', '--since', 'yesterday'], { cwd: r.dir }).code).toBe(2);
    const help = runCli(['for', '--help'], { cwd: r.dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
  });

  it('trace falls back to weaker evidence, marked, when nothing is declared', () => {
    const r = repo();
    const human = runCli(['trace', 'src/webhooks/limiter.ts'], { cwd: r.dir });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('nothing declared governs this place; weaker evidence (not declared):');
    expect(human.stdout).toMatch(/nearest by keywords\s+DEC-RATE/);
    const json = JSON.parse(runCli(['trace', 'src/webhooks/limiter.ts', '--json'], { cwd: r.dir }).stdout);
    expect(json.entries).toEqual([]);
    expect(json.fallback[0]).toMatchObject({ id: 'DEC-RATE', evidence: 'nearest by keywords' });
    // a declared hit: no fallback at all
    const declared = JSON.parse(runCli(['trace', 'src/billing/invoice.ts', '--json'], { cwd: r.dir }).stdout);
    expect(declared.entries[0].id).toBe('SPEC-BILLING');
    expect(declared.fallback).toBeUndefined();
  });
});
