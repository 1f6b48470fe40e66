import { describe, expect, it } from 'vitest';
import { connect, fixtureRepo } from './helpers.js';

describe('tool catalogue', () => {
  it('lists every tool with an input schema, read-only tools annotated as such', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add_decision', 'assemble_task', 'check', 'check_change', 'context_for_change', 'context_for_code', 'feedback', 'get_context', 'impact', 'propose_decision', 'read_artifact', 'search_decisions', 'stale', 'trace']);
    for (const t of tools) {
      // feedback appends to the evidence store; it changes nothing the repository holds
      if (t.name === 'feedback') expect(t.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      // add_decision and propose_decision write (a new file, and for an ADR folder the provenance sidecar; they never change or delete a record)
      else if (t.name === 'add_decision' || t.name === 'propose_decision') expect(t.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      else expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.description).toBeTruthy();
      expect(t.inputSchema.type).toBe('object');
    }
    const gc = tools.find((t) => t.name === 'get_context')!;
    expect(Object.keys(gc.inputSchema.properties ?? {}).sort()).toEqual(['areas', 'baseline_only', 'budget', 'ids', 'reset', 'scope', 'session_id', 'status']);
    expect(c.client.getInstructions()).toContain('Two phases');
  });

  it('answers an unknown tool with an error, not a crash', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('search');
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Tool search not found');
  });
});

describe('read_artifact', () => {
  it('reads at meta, summary and full depth with computed reverse edges', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const full = await c.call('read_artifact', { id: 'NORM-ERROR-001' });
    expect(full.isError).toBeFalsy();
    expect(full.text).toContain('# NORM-ERROR-001 [norm · active · global] Errors carry codes');
    expect(full.text).toContain('required_by (computed): DEC-BILLING-001, SPEC-BILLING-001');
    expect(full.text).toContain('Codes are strings.');
    const summary = await c.call('read_artifact', { id: 'NORM-ERROR-001', depth: 'summary' });
    expect(summary.text).toContain('Every error has a stable code.');
    expect(summary.text).not.toContain('Codes are strings.');
    const meta = await c.call('read_artifact', { id: 'NORM-ERROR-001', depth: 'meta' });
    expect(meta.text).toContain('requires:');
    expect(meta.text).not.toContain('Every error has a stable code.');
    expect(meta.data).toMatchObject({ id: 'NORM-ERROR-001', depth: 'meta', file: '.contextia/system/norms/NORM-ERROR-001.md' });
  });

  it('fails on an unknown id with suggestions, and rejects a bad depth or id format', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('read_artifact', { id: 'NORM-ERROR-01' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('unknown artifact id: NORM-ERROR-01');
    expect(r.text).toContain('did you mean NORM-ERROR-001');
    expect(r.data.code).toBe('UNKNOWN_ID');
    const d = await c.call('read_artifact', { id: 'NORM-ERROR-001', depth: 'everything' });
    expect(d.isError).toBe(true);
    expect(d.text).toMatch(/Input validation error/);
    const f = await c.call('read_artifact', { id: 'has space' });
    expect(f.isError).toBe(true);
    expect(f.text).toMatch(/invalid artifact id format/);
  });
});

describe('check', () => {
  it('reports findings as data; a clean repository says so', async () => {
    const repo = fixtureRepo({
      '.contextia/system/rationale/DEC-BROKEN-001.md': '---\nid: DEC-BROKEN-001\ntype: decision\ntitle: Broken\nstatus: accepted\nlinks:\n  specs: [SPEC-MISSING-001]\n---\n\nBody.\n',
    });
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('check');
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('SPEC-MISSING-001');
    expect(r.data.errors).toBeGreaterThan(0);
    const findings = r.data.findings as { rule: string; id?: string }[];
    expect(findings.some((f) => f.rule === 'broken-link' && f.id === 'DEC-BROKEN-001')).toBe(true);
    const only = await c.call('check', { rules: ['duplicate-id'] });
    expect(only.data.errors).toBe(0);
  });
});

describe('trace', () => {
  it('names what governs a symbol, a line and a file, nearest first', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const sym = await c.call('trace', { place: 'src/billing/invoice.ts#InvoiceGenerator.generate' });
    expect(sym.isError).toBeFalsy();
    const ids = (sym.data.entries as { id: string; level: string }[]).map((e) => `${e.level}:${e.id}`);
    expect(ids[0]).toBe('symbol:DEC-BILLING-001');
    expect(ids).toContain('symbol:SPEC-BILLING-001');
    expect(sym.text).toContain('# What governs src/billing/invoice.ts#InvoiceGenerator.generate');
    const line = await c.call('trace', { place: 'src/billing/invoice.ts:5' });
    expect((line.data.entries as { id: string; level: string }[])[0]).toMatchObject({ id: 'DEC-BILLING-001', level: 'symbol' });
    const file = await c.call('trace', { place: 'src/billing/invoice.ts' });
    expect((file.data.entries as { id: string }[]).map((e) => e.id)).toContain('SPEC-BILLING-001');
    const none = await c.call('trace', { place: 'src/billing/missing.ts' });
    expect(none.isError).toBe(true);
    expect(none.text).toContain('no such file or directory');
    const outside = await c.call('trace', { place: '../../etc/passwd' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('outside the repository');
  });

  it('takes place, as context_for_code does; target, its former name, still answers with a note (DEC-093)', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const tools = (await c.client.listTools()).tools;
    for (const name of ['trace', 'context_for_code']) expect(Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {})).toContain('place');
    const old = await c.call('trace', { target: 'src/billing/invoice.ts' });
    expect(old.isError).toBeFalsy();
    expect(old.text.split('\n')[0]).toBe('note: trace names its argument place now, as context_for_code does; target is accepted for now.');
    expect((old.data.entries as { id: string }[]).map((e) => e.id)).toContain('SPEC-BILLING-001');
    const now = await c.call('trace', { place: 'src/billing/invoice.ts' });
    expect(now.text).not.toContain('note:');
    expect(now.data.entries).toEqual(old.data.entries);
    const neither = await c.call('trace', {});
    expect(neither.isError).toBe(true);
    expect(neither.text).toContain('trace needs place');
    const both = await c.call('trace', { place: 'src/billing/invoice.ts', target: 'src/other.ts' });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('give place only');
  });
});

describe('stale', () => {
  it('judges artifacts against their anchors, and fails on unknown ids or a bad revision', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('stale', { all: true });
    expect(r.isError).toBeFalsy();
    const arts = r.data.artifacts as { id: string; status: string }[];
    // the verdict itself is the staleness engine's business (tested there); the tool carries it
    expect(['fresh', 'moved', 'stale', 'unanchored', 'unstamped']).toContain(arts.find((a) => a.id === 'SPEC-BILLING-001')?.status);
    expect(Object.keys(r.data.counts as object).sort()).toEqual(['fresh', 'moved', 'stale', 'unanchored', 'unstamped']);
    expect(r.text).toContain('SPEC-BILLING-001');
    const one = await c.call('stale', { ids: ['SPEC-BILLING-001'] });
    expect((one.data.artifacts as { id: string }[]).map((a) => a.id)).toEqual(['SPEC-BILLING-001']);
    const u = await c.call('stale', { ids: ['SPEC-NOPE-001'] });
    expect(u.isError).toBe(true);
    expect(u.text).toContain('unknown artifact id: SPEC-NOPE-001');
    const opt = await c.call('stale', { since: '--output=/tmp/x' });
    expect(opt.isError).toBe(true);
    expect(opt.text).toMatch(/Input validation error/);
    const rev = await c.call('stale', { since: 'no-such-branch' });
    expect(rev.isError).toBe(true);
  });
});

describe('assemble_task', () => {
  it('assembles the bundle of a task in each format', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('assemble_task', { id: 'TASK-042' });
    expect(r.isError).toBeFalsy();
    const entries = (r.data.entries as { id: string }[]).map((e) => e.id);
    expect(entries).toContain('ACME');
    expect(entries).toContain('TASK-042');
    expect(entries).toContain('SPEC-BILLING-001');
    expect(entries).toContain('DEC-BILLING-001');
    expect(r.text).toContain('Add credit notes');
    expect(r.data.commit).toBe(repo.git('rev-parse', 'HEAD'));
    const json = await c.call('assemble_task', { id: 'TASK-042', format: 'json' });
    expect(JSON.parse(json.text).header.root).toBe('TASK-042');
    const md = await c.call('assemble_task', { id: 'TASK-042', format: 'markdown', depth: 'meta' });
    expect(md.text).not.toContain('Issue credit notes against invoices.');
    // the same commit gives the same bundle
    expect((await c.call('assemble_task', { id: 'TASK-042', format: 'json' })).text).toBe(json.text);
  });

  it('fails on an unknown id and on a budget too small for the task itself', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const u = await c.call('assemble_task', { id: 'TASK-999' });
    expect(u.isError).toBe(true);
    expect(u.text).toContain('unknown artifact id: TASK-999');
    const b = await c.call('assemble_task', { id: 'TASK-042', budget: 100 });
    expect(b.isError).toBe(true);
    expect(b.data.code).toBe('BUDGET');
  });
});

describe('resources', () => {
  it('serves ctx://identity, ctx://index and ctx://artifact/{+id}, listing every artifact', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const { resources } = await c.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('ctx://identity');
    expect(uris).toContain('ctx://index');
    expect(uris).toContain('ctx://artifact/DEC-BILLING-001');
    expect(uris).toContain('ctx://artifact/project/design/context-selection');
    expect(uris.filter((u) => u.startsWith('ctx://artifact/'))).toHaveLength(8);
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['ctx://artifact/{+id}']);

    const identity = await c.client.readResource({ uri: 'ctx://identity' });
    expect((identity.contents[0] as { text: string }).text).toContain('TypeScript service that issues invoices.');
    const index = await c.client.readResource({ uri: 'ctx://index' });
    expect((index.contents[0] as { text: string }).text).toContain('# Context index — 8 of 8 artifacts');
    const art = await c.client.readResource({ uri: 'ctx://artifact/project/design/context-selection' });
    expect((art.contents[0] as { text: string }).text).toContain('Two phases.');
    await expect(c.client.readResource({ uri: 'ctx://artifact/NOPE-1' })).rejects.toThrow(/unknown artifact id: NOPE-1/);
  });

  it('says when there is no identity artifact', async () => {
    const repo = fixtureRepo();
    repo.rm('.contextia/identity.md');
    repo.commit('no identity');
    const c = await connect({ cwd: repo.dir });
    await expect(c.client.readResource({ uri: 'ctx://identity' })).rejects.toThrow(/no identity artifact/);
  });
});

describe('outside a repository', () => {
  it('answers every call with an error result', async () => {
    const { tempDir } = await import('./helpers.js');
    const c = await connect({ cwd: tempDir() });
    const r = await c.call('get_context');
    expect(r.isError).toBe(true);
    expect(r.text).toContain('not inside a git repository');
  });
});
