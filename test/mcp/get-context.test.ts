import { describe, expect, it } from 'vitest';
import { TokenMeter } from '../../src/mcp/index.js';
import { connect, fixtureRepo, indexIds, sectionIds, tempDir } from './helpers.js';

describe('get_context phase 1 (index)', () => {
  it('lists frontmatter only, ordered global → domain → project, then type order, then id', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('get_context');
    expect(r.isError).toBeFalsy();
    expect(indexIds(r.text)).toEqual(['NORM-ERROR-001', 'NORM-LOG-001', 'ACME', 'TASK-042', 'SPEC-BILLING-001', 'DEC-BILLING-001', 'DEC-OLD-001', 'project/design/context-selection']);
    expect(r.data.ids).toEqual(indexIds(r.text));
    // frontmatter only: titles and summaries, never body text
    expect(r.text).toContain("DEC-BILLING-001 [decision · accepted · project] Banker's rounding — Round invoice totals half to even");
    expect(r.text).not.toContain('We round half to even');
    expect(r.text).toContain('Baseline (load at session start): NORM-ERROR-001, ACME');
    expect(r.text).toContain(`commit ${repo.git('rev-parse', 'HEAD').slice(0, 12)}`);
    expect(r.data.dirty).toBe(false);
    // deterministic: the same content gives the same bytes
    expect((await c.call('get_context')).text).toBe(r.text);
  });

  it('filters by areas (types, singular or plural), scope, status and baseline_only', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    expect(indexIds((await c.call('get_context', { areas: ['decisions', 'norm'] })).text)).toEqual(['NORM-ERROR-001', 'NORM-LOG-001', 'DEC-BILLING-001', 'DEC-OLD-001']);
    expect(indexIds((await c.call('get_context', { areas: 'decision', status: 'accepted' })).text)).toEqual(['DEC-BILLING-001']);
    expect(indexIds((await c.call('get_context', { scope: ['global', 'domain'] })).text)).toEqual(['NORM-ERROR-001', 'NORM-LOG-001']);
    expect(indexIds((await c.call('get_context', { scope: 'project', areas: ['spec'] })).text)).toEqual(['SPEC-BILLING-001']);
    const base = await c.call('get_context', { baseline_only: true });
    expect(indexIds(base.text)).toEqual(['NORM-ERROR-001', 'ACME']);
    expect(base.text).toContain('baseline only');
    const none = await c.call('get_context', { status: 'rejected' });
    expect(none.text).toContain('No artifacts match.');
  });

  it('rejects an unknown area with the configured types', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('get_context', { areas: ['decision', 'wishes'] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('unknown area(s): wishes');
    expect(r.text).toContain('decision, norm');
  });

  it('merges the global baseline and global artifacts when the global store is in use', async () => {
    const repo = fixtureRepo();
    const globalDir = tempDir({
      'NORM-GLOBAL-001.md': '---\nid: NORM-GLOBAL-001\ntype: norm\ntitle: Be kind\nstatus: active\n---\n\nAlways.\n',
      'baseline.md': '---\nids: [NORM-GLOBAL-001, NORM-GONE-001]\n---\n',
    });
    const c = await connect({ cwd: repo.dir, global: true, globalDir });
    const r = await c.call('get_context', { baseline_only: true });
    expect(indexIds(r.text)).toEqual(['NORM-ERROR-001', 'NORM-GLOBAL-001', 'ACME']);
    expect(r.text).toContain('Baseline (load at session start): NORM-GLOBAL-001, NORM-ERROR-001, ACME');
    expect(r.text).toMatch(/Warning: baseline lists id\(s\) that are not loaded: NORM-GONE-001/);
    const full = await c.call('get_context', { ids: ['NORM-GLOBAL-001'] });
    expect(sectionIds(full.text)).toEqual(['NORM-GLOBAL-001']);
    expect(full.text).toContain('file: ~global/NORM-GLOBAL-001.md');
  });

  it('cuts a large index explicitly, saying how much was left out', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) {
      const id = `DEC-BULK-${String(i).padStart(3, '0')}`;
      files[`.contextia/system/rationale/${id}.md`] = `---\nid: ${id}\ntype: decision\ntitle: Bulk decision number ${i} about something long enough\nstatus: accepted\nsummary: A summary line that takes a few tokens for decision ${i}\n---\n\nBody.\n`;
    }
    const repo = fixtureRepo(files);
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('get_context', { budget: 1000 });
    const shown = indexIds(r.text);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(308);
    expect(r.data.omitted).toBe(308 - shown.length);
    expect(r.text).toMatch(new RegExp(`Cut: ${308 - shown.length} more entries left out to stay within the 1000-token budget`));
    expect(await new TokenMeter('o200k_base').countOne(r.text)).toBeLessThanOrEqual(1000);
  });
});

describe('get_context phase 2 (content)', () => {
  it('expands requires transitively, once each, cycle-safe, ordered global → domain → project', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    // DEC-BILLING-001 ⇄ SPEC-BILLING-001 is a requires cycle; NORM-ERROR-001 is required twice
    const r = await c.call('get_context', { ids: ['DEC-BILLING-001'] });
    expect(r.isError).toBeFalsy();
    expect(sectionIds(r.text)).toEqual(['NORM-ERROR-001', 'NORM-LOG-001', 'SPEC-BILLING-001', 'DEC-BILLING-001']);
    expect(r.text).toContain('We round half to even');
    expect(r.text).toContain('## Consequences');
    expect(r.text).toContain('Log JSON lines.');
    const sent = r.data.sent as { id: string; requested: boolean; requiredBy: string[]; depth: string }[];
    expect(sent.map((s) => [s.id, s.requested, s.requiredBy])).toEqual([
      ['NORM-ERROR-001', false, ['DEC-BILLING-001', 'SPEC-BILLING-001']],
      ['NORM-LOG-001', false, ['NORM-ERROR-001']],
      ['SPEC-BILLING-001', false, ['DEC-BILLING-001']],
      ['DEC-BILLING-001', true, ['SPEC-BILLING-001']],
    ]);
    expect(sent.every((s) => s.depth === 'full')).toBe(true);
    expect(r.text).toContain('file: .contextia/system/norms/NORM-ERROR-001.md · required by DEC-BILLING-001, SPEC-BILLING-001');
    // asking twice for the same id, or for ids that require each other, changes nothing
    const again = await c.call('get_context', { ids: ['SPEC-BILLING-001', 'DEC-BILLING-001', 'DEC-BILLING-001'] });
    expect(sectionIds(again.text)).toEqual(sectionIds(r.text));
  });

  it('serves path-like ids', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('get_context', { ids: ['project/design/context-selection'] });
    expect(sectionIds(r.text)).toEqual(['project/design/context-selection']);
  });

  it('fails on unknown ids, listing every one, and sends nothing', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('get_context', { ids: ['DEC-BILLING-001', 'DEC-BILLING-01', 'NOPE-1'] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('unknown artifact id(s): DEC-BILLING-01 (did you mean DEC-BILLING-001?), NOPE-1');
    expect(r.data.unknown).toEqual(['DEC-BILLING-01', 'NOPE-1']);
    expect(sectionIds(r.text)).toEqual([]);
  });

  it('rejects an invalid id format before doing anything', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('get_context', { ids: ['DEC-1', '../etc/passwd'] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Input validation error/);
    expect(r.text).toMatch(/invalid artifact id format/);
    // a wrong type is rejected the same way
    const t = await c.call('get_context', { budget: 'lots' });
    expect(t.isError).toBe(true);
    expect(t.text).toMatch(/Input validation error/);
  });

  it('returns a partial result with warnings when a file does not parse or a required id is missing', async () => {
    const repo = fixtureRepo({
      '.contextia/system/norms/NORM-BROKEN-001.md': '---\nid: NORM-BROKEN-001\ntype: [unclosed\n---\n\nBody\n',
      '.contextia/system/rationale/DEC-PARTIAL-001.md': '---\nid: DEC-PARTIAL-001\ntype: decision\ntitle: Partial\nstatus: accepted\nrequires: [NORM-BROKEN-001, NORM-LOG-001]\n---\n\nText.\n',
    });
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('get_context', { ids: ['DEC-PARTIAL-001'] });
    expect(r.isError).toBeFalsy();
    expect(sectionIds(r.text)).toEqual(['NORM-LOG-001', 'DEC-PARTIAL-001']);
    expect(r.text).toMatch(/Warning: unreadable artifact file \.contextia\/system\/norms\/NORM-BROKEN-001\.md:\d+ \(frontmatter-malformed\)/);
    expect(r.text).toContain('Warning: DEC-PARTIAL-001 requires NORM-BROKEN-001, which is not loaded');
    expect((r.data.warnings as string[]).length).toBe(2);
    // and the unknown-id error points at the file that may hold it
    const u = await c.call('get_context', { ids: ['NORM-BROKEN-001'] });
    expect(u.isError).toBe(true);
    expect(u.text).toContain('1 artifact file(s) failed to parse and may declare them: .contextia/system/norms/NORM-BROKEN-001.md');
    // the index warns too
    expect((await c.call('get_context')).text).toContain('Warning: unreadable artifact file .contextia/system/norms/NORM-BROKEN-001.md');
  });

  it('cuts over the budget explicitly: requested first, lowered before dropped, never silently', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `Line ${i} of a long rationale that keeps going.`).join('\n');
    const repo = fixtureRepo({
      '.contextia/system/rationale/DEC-BIG-001.md': `---\nid: DEC-BIG-001\ntype: decision\ntitle: Big\nstatus: accepted\nrequires: [NORM-BIG-001]\n---\n\n# Big\n\nShort first section.\n\n## Rest\n\n${long}\n`,
      '.contextia/system/norms/NORM-BIG-001.md': `---\nid: NORM-BIG-001\ntype: norm\ntitle: Big norm\nstatus: active\n---\n\n${long}\n`,
    });
    const c = await connect({ cwd: repo.dir });
    const meter = new TokenMeter('o200k_base');
    const r = await c.call('get_context', { ids: ['DEC-BIG-001'], budget: 600 });
    expect(r.isError).toBeFalsy();
    expect(await meter.countOne(r.text)).toBeLessThanOrEqual(600);
    // the requested decision is kept (at summary depth); the large required norm is cut and named
    expect(sectionIds(r.text)).toEqual(['DEC-BIG-001']);
    expect(r.text).toContain('Short first section.');
    expect(r.text).not.toContain('Line 150');
    expect(r.text).toContain('Shortened to summary depth to stay within the 600-token budget: DEC-BIG-001');
    expect(r.text).toContain('Cut: left out to stay within the 600-token budget: NORM-BIG-001');
    expect(r.data.omitted).toEqual(['NORM-BIG-001']);
    // the default budget fits both
    const all = await c.call('get_context', { ids: ['DEC-BIG-001'] });
    expect(sectionIds(all.text)).toEqual(['NORM-BIG-001', 'DEC-BIG-001']);
    expect(all.text).not.toContain('Cut:');
  });
});
