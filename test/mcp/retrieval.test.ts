import { describe, expect, it } from 'vitest';
import { connect, fixtureRepo } from './helpers.js';

const STAMPED = '---\nid: DEC-STAMPED\ntype: decision\ntitle: Stamped rounding note\nstatus: accepted\nsummary: Invoice totals keep cents.\nanchors: [src/billing/invoice.ts]\nstamp:\n  commit: 0123456789abcdef0123456789abcdef01234567\n  fingerprints:\n    src/billing/invoice.ts: sha256-deadbeef\n---\n\n# Stamped\n\nInvoice totals keep cents.\n';

describe('retrieval tools through a real MCP client', () => {
  it('context_for_code: declared first, summaries, evidence, no stamps or fingerprints', async () => {
    const repo = fixtureRepo({ '.contextia/system/rationale/DEC-STAMPED.md': STAMPED });
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('context_for_code', { place: 'src/billing/invoice.ts#InvoiceGenerator.generate' });
    expect(r.isError).toBeFalsy();
    const results = r.data.results as { id: string; slot: string; why: string[]; summary: string | null }[];
    expect(results[0]).toMatchObject({ id: 'DEC-BILLING-001', slot: 'declared' });
    expect(results[0]!.why[0]).toContain('@decision on InvoiceGenerator.generate');
    expect(results.map((x) => x.id)).toContain('SPEC-BILLING-001');
    expect(r.text).toContain('## DEC-BILLING-001 — Banker\'s rounding (decision, accepted; declared)');
    expect(r.text).toContain('Round invoice totals half to even');
    expect(r.text).not.toMatch(/fingerprint|stamp|sha256|0123456789abcdef/);
    expect((r.data.slots as Record<string, { status: string }>).semantic!.status).toBe('ok');
    const bad = await c.call('context_for_code', { place: 'src/nope.ts' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('no such file or directory');
  });

  it('search_decisions: ranked by keywords, inactive hidden unless all', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('search_decisions', { query: 'how do we round invoice totals' });
    const ids = (r.data.results as { id: string }[]).map((x) => x.id);
    expect(ids[0]).toBe('DEC-BILLING-001');
    expect(ids).not.toContain('DEC-OLD-001');
    const all = await c.call('search_decisions', { query: 'round half up', all: true });
    expect((all.data.results as { id: string; inactive?: boolean }[]).find((x) => x.id === 'DEC-OLD-001')).toMatchObject({ inactive: true });
    const only = await c.call('search_decisions', { query: 'invoice', types: ['spec'] });
    expect((only.data.results as { id: string }[]).map((x) => x.id)).toEqual(['SPEC-BILLING-001']);
  });

  it('read_artifact and get_context show no stamp to the agent', async () => {
    const repo = fixtureRepo({ '.contextia/system/rationale/DEC-STAMPED.md': STAMPED });
    const c = await connect({ cwd: repo.dir });
    const read = await c.call('read_artifact', { id: 'DEC-STAMPED' });
    expect(read.text).toContain('Invoice totals keep cents.');
    expect(read.text).not.toMatch(/stamp|fingerprint|deadbeef/);
    const gc = await c.call('get_context', { ids: ['DEC-STAMPED'] });
    expect(gc.text).toContain('DEC-STAMPED');
    expect(gc.text).not.toMatch(/stamp|fingerprint|deadbeef/);
  });
});
