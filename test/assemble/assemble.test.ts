import { describe, expect, it } from 'vitest';
import { assembleBundle, renderBundle } from '../../src/assemble/index.js';
import { CtxError } from '../../src/errors.js';
import { makeRepo } from '../helpers/git-repo.js';
import { TASK_042_CHAIN, art, charCounter, exampleRepo } from './helpers.js';

describe('assembleBundle on the Acme example', () => {
  it('TASK-042 yields exactly its chain, each once, identity and task first', async () => {
    const { repo, commit } = exampleRepo();
    const b = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', tokenCounter: charCounter });
    const ids = b.entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(['IDENTITY', 'TASK-042', ...TASK_042_CHAIN].sort());
    // identity → task → specs → norms (global before domain) → decisions, ties by id
    expect(ids).toEqual([
      'IDENTITY',
      'TASK-042',
      'SPEC-BILLING-001',
      'SPEC-CURRENCY-001',
      'NORM-ERROR-001',
      'NORM-ASYNC-001',
      'DEC-BILLING-001',
      'DEC-BILLING-003',
      'DEC-CURRENCY-001',
    ]);
    expect(b.header.commit).toBe(commit);
    expect(b.header.dirty).toBe(false);
    expect(b.warnings).toEqual([]);
    expect(b.header.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('records why each entry is there: the shortest chain, ties by id', async () => {
    const { repo } = exampleRepo();
    const b = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', tokenCounter: charCounter });
    const by = new Map(b.entries.map((e) => [e.id, e]));
    // NORM-ERROR-001 is reachable through both specs; SPEC-BILLING-001 sorts first
    expect(by.get('NORM-ERROR-001')!.chain).toEqual(['TASK-042', 'SPEC-BILLING-001', 'NORM-ERROR-001']);
    expect(by.get('NORM-ERROR-001')!.why).toBe('TASK-042 → SPEC-BILLING-001 (links.specs) → NORM-ERROR-001 (links.norms)');
    expect(by.get('DEC-CURRENCY-001')!.chain).toEqual(['TASK-042', 'SPEC-CURRENCY-001', 'DEC-CURRENCY-001']);
    expect(by.get('SPEC-BILLING-001')!.direct).toBe(true);
    expect(by.get('DEC-BILLING-001')!.direct).toBe(false);
    expect(by.get('IDENTITY')!.role).toBe('identity');
    expect(by.get('TASK-042')!.role).toBe('root');
    for (const e of b.entries) {
      expect(e.depth).toBe('full');
      expect(e.tokens).toBeGreaterThan(0);
    }
    expect(b.paths).toEqual(['src/billing/currency/**', 'src/billing/currency/rates.ts', 'src/billing/invoice/**', 'src/billing/invoice/totals.ts']);
    expect(b.anchors).toEqual(['src/billing/invoice/generator.ts#InvoiceGenerator.generate']);
  });

  it('counts tokens with tiktoken (o200k_base) and sums them in the totals', async () => {
    const { repo } = exampleRepo();
    const b = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', tokenCache: false });
    const { get_encoding } = await import('@dqbd/tiktoken');
    const enc = get_encoding('o200k_base');
    try {
      const { contextSection } = await import('../../src/assemble/render.js');
      for (const e of b.entries) expect(e.tokens).toBe(enc.encode_ordinary(contextSection(e)).length);
    } finally {
      enc.free();
    }
    expect(b.totals.tokens).toBe(b.entries.reduce((s, e) => s + e.tokens, 0));
  });

  it('meta and summary depth: frontmatter only, then the first section', async () => {
    const { repo } = exampleRepo();
    const meta = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', depth: 'meta', tokenCounter: charCounter });
    expect(meta.entries.every((e) => e.body === '' && e.depth === 'meta')).toBe(true);
    const summary = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', depth: 'summary', tokenCounter: charCounter });
    const spec = summary.entries.find((e) => e.id === 'SPEC-BILLING-001')!;
    expect(spec.body).toContain('InvoiceGenerator.generate');
    expect(spec.body).not.toContain('## Rules');
    // the "# Invoice generation" heading repeats the title and is dropped
    expect(spec.body.startsWith('#')).toBe(false);
  });

  it('unknown id: UNKNOWN_ID with close matches', async () => {
    const { repo } = exampleRepo();
    const err = await assembleBundle({ cwd: repo.dir, id: 'TASK-04', tokenCounter: charCounter }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CtxError);
    expect((err as CtxError).code).toBe('UNKNOWN_ID');
    expect((err as CtxError).hint).toContain('TASK-042');
  });

  it('works for any artifact, not only tasks; identity is still first', async () => {
    const { repo } = exampleRepo();
    const b = await assembleBundle({ cwd: repo.dir, id: 'SPEC-CURRENCY-001', tokenCounter: charCounter });
    expect(b.entries.map((e) => e.id)).toEqual(['IDENTITY', 'SPEC-CURRENCY-001', 'NORM-ERROR-001', 'DEC-CURRENCY-001']);
  });

  it('marks the bundle dirty, naming the files, when the working tree differs from HEAD', async () => {
    const { repo, commit } = exampleRepo();
    const f = '.contextia/system/norms/NORM-ASYNC-001.md';
    repo.write({ [f]: art({ id: 'NORM-ASYNC-001', type: 'norm', title: 'Changed', status: 'active' }, 'edited\n') });
    const b = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', tokenCounter: charCounter });
    expect(b.header.commit).toBe(commit);
    expect(b.header.dirty).toBe(true);
    expect(b.header.dirtyFiles).toEqual([f]);
    // an edit to something not in the bundle does not make it dirty
    repo.git('checkout', '--', f);
    repo.write({ '.contextia/system/norms/NORM-OTHER-001.md': art({ id: 'NORM-OTHER-001', type: 'norm', title: 'Unrelated' }) });
    const c = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', tokenCounter: charCounter });
    expect(c.header.dirty).toBe(false);
  });
});

describe('traversal', () => {
  const files = {
    '.contextia/identity.md': art({ id: 'IDENTITY', type: 'identity', title: 'P' }),
    '.contextia/work/tasks/TASK-1.md': art({ id: 'TASK-1', type: 'task', title: 'T', status: 'active', links: '{ specs: [SPEC-A, SPEC-MISSING] }' }),
    '.contextia/system/specs/SPEC-A.md': art({ id: 'SPEC-A', type: 'spec', title: 'A', status: 'active', requires: '[SPEC-B]' }),
    // a cycle: B requires A, and links back to the task
    '.contextia/system/specs/SPEC-B.md': art({ id: 'SPEC-B', type: 'spec', title: 'B', status: 'active', requires: '[SPEC-A]', links: '{ tasks: [TASK-1], decisions: [DEC-OLD] }' }),
    '.contextia/system/rationale/DEC-OLD.md': art({ id: 'DEC-OLD', type: 'decision', title: 'Old', status: 'superseded', scope: 'project' }),
    '.contextia/system/rationale/DEC-G.md': art({ id: 'DEC-G', type: 'decision', title: 'G', status: 'accepted', scope: 'global' }),
    '.contextia/system/rationale/DEC-UNLINKED.md': art({ id: 'DEC-UNLINKED', type: 'decision', title: 'U', status: 'accepted' }),
  };

  it('is cycle-safe, follows requires, warns about missing and inactive targets, never crashes', async () => {
    const repo = makeRepo(files);
    repo.commit('init');
    const b = await assembleBundle({ cwd: repo.dir, id: 'TASK-1', tokenCounter: charCounter });
    expect(b.entries.map((e) => e.id)).toEqual(['IDENTITY', 'TASK-1', 'SPEC-A', 'SPEC-B', 'DEC-OLD']);
    expect(b.entries.find((e) => e.id === 'SPEC-B')!.why).toBe('TASK-1 → SPEC-A (links.specs) → SPEC-B (requires)');
    expect(b.warnings.map((w) => [w.code, w.id])).toEqual([
      ['inactive', 'DEC-OLD'],
      ['missing-link', 'SPEC-MISSING'],
    ]);
    expect(renderBundle(b, 'context')).toContain('warning: TASK-1 links SPEC-MISSING (links.specs), but no artifact has that id; left out');
  });

  it('--max-depth limits the hops', async () => {
    const repo = makeRepo(files);
    repo.commit('init');
    const one = await assembleBundle({ cwd: repo.dir, id: 'TASK-1', maxDepth: 1, tokenCounter: charCounter });
    expect(one.entries.map((e) => e.id)).toEqual(['IDENTITY', 'TASK-1', 'SPEC-A']);
    const zero = await assembleBundle({ cwd: repo.dir, id: 'TASK-1', maxDepth: 0, tokenCounter: charCounter });
    expect(zero.entries.map((e) => e.id)).toEqual(['IDENTITY', 'TASK-1']);
  });

  it('kind order comes from config.order; scope orders global → domain → project within a kind', async () => {
    const repo = makeRepo({
      ...files,
      '.contextia/config.yaml': 'order: [identity, task, decision, spec]\n',
      '.contextia/work/tasks/TASK-1.md': art({ id: 'TASK-1', type: 'task', title: 'T', links: '{ specs: [SPEC-A], decisions: [DEC-OLD, DEC-G] }' }),
    });
    repo.commit('init');
    const b = await assembleBundle({ cwd: repo.dir, id: 'TASK-1', tokenCounter: charCounter });
    expect(b.entries.map((e) => e.id)).toEqual(['IDENTITY', 'TASK-1', 'DEC-G', 'DEC-OLD', 'SPEC-A', 'SPEC-B']);
  });
});
