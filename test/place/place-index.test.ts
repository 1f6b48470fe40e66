import { existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { buildCodeIndex } from '../../src/code/code-index.js';
import { loadConfig } from '../../src/config.js';
import { openPlace, placeCodeIndex, PlaceSnapshot } from '../../src/place/index.js';
import { trackedListing } from '../../src/tree/listing.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { traceWithFallback } from '../../src/retrieve/trace.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const rec = (id: string, type: string, extra = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} about invoices\nstatus: ${type === 'decision' ? 'accepted' : 'active'}\nsummary: How invoices are rounded and retried.\n${extra}---\n\n# ${id}\n\nInvoice rounding and retry rules.\n`;

function seed(): TestRepo {
  const repo = makeRepo({
    '.contextia/system/rationale/DEC-001.md': rec('DEC-001', 'decision'),
    '.contextia/system/rationale/DEC-002.md': rec('DEC-002', 'decision', 'paths: [pkg/billing/src/**]\n'),
    '.contextia/system/specs/SPEC-001.md': rec('SPEC-001', 'spec', 'paths: [pkg/billing/src/round.ts]\n'),
    '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n',
    'docs/adr/0001-retry-invoices.md': '# 1. Retry invoices\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nThe retry loop in `pkg/billing/src/retry.ts` and `pkg/billing/src/gone.ts` resends invoices.\n\n## Decision\n\nRetry three times.\n',
    'package.json': '{"name":"root","private":true}\n',
    'pkg/billing/package.json': '{"name":"billing"}\n',
    'pkg/billing/src/round.ts': '// rounding of invoice amounts\n// @decision DEC-001\nexport function roundInvoice(x: number): number {\n  return Math.round(x);\n}\n',
    'pkg/billing/src/retry.ts': "import { roundInvoice } from './round';\n\nexport function retryInvoice(x: number): number {\n  return roundInvoice(x) + 1;\n}\n",
    'pkg/billing/src/gone.ts': "import { roundInvoice } from './round';\nexport const gone = roundInvoice(2);\n",
    'pkg/other/src/plain.ts': 'export const plain = 1; // invoice retry\n',
  });
  repo.commit('seed');
  return repo;
}

/** trace and for answered through the place index and from the whole working tree. */
async function both(dir: string, place: string) {
  const run = async (indexed: boolean) => {
    const inner = await openSnapshot({ cwd: dir, kind: 'worktree' });
    const snapshot = indexed ? openPlace(inner, place) : inner;
    try {
      if (indexed) expect(snapshot).toBeInstanceOf(PlaceSnapshot);
      const config = await loadConfig(snapshot);
      const set = await loadArtifactSet(snapshot, config);
      const index = indexed ? await placeCodeIndex(snapshot, set) : await buildCodeIndex(snapshot, config);
      const trace = await traceWithFallback({ snapshot, set, index, target: { path: place } });
      const forResult = await retrieveForPlace({ snapshot, set, target: { path: place } });
      for (const s of Object.values(forResult.slots)) delete (s as { ms?: number }).ms;
      const mentions = Object.fromEntries(set.artifacts.map((a) => [a.id, (a.mentions ?? []).map((m) => m.target)]));
      return { trace, for: forResult, mentions };
    } finally {
      snapshot.close();
    }
  };
  const scratch = await run(false);
  const indexed = await run(true);
  return { scratch, indexed };
}

async function expectSame(dir: string, place: string) {
  const { scratch, indexed } = await both(dir, place);
  expect(indexed).toEqual(scratch);
  return indexed;
}

describe('place index', () => {
  it('answers trace and for like the whole working tree, through edits, additions, deletions, renames and artifact changes', async () => {
    const repo = seed();
    const first = await expectSame(repo.dir, 'pkg/billing/src/round.ts');
    expect(first.trace.entries.map((e) => e.id)).toEqual(['DEC-001', 'SPEC-001', 'DEC-002']);
    expect(first.trace.package).toBe('pkg/billing');
    expect(first.mentions['ADR-0001']).toEqual(['pkg/billing/src/retry.ts', 'pkg/billing/src/gone.ts']);
    // a second run reads the listing and the mentions from the place index
    await expectSame(repo.dir, 'pkg/billing/src/round.ts');

    // an unstaged edit of the place itself: a new annotation is seen at once
    repo.write({ 'pkg/billing/src/round.ts': '// @spec SPEC-001\n// @decision DEC-002\nexport function roundInvoice(x: number): number {\n  return Math.round(x);\n}\n' });
    const edited = await expectSame(repo.dir, 'pkg/billing/src/round.ts');
    expect(edited.trace.entries.find((e) => e.id === 'DEC-001')).toBeUndefined();
    expect(edited.trace.entries.find((e) => e.id === 'DEC-002')?.match.via).toBe('annotation');

    // an unstaged annotation in an importer: the walk reads the neighbour from disk
    repo.write({ 'pkg/billing/src/retry.ts': "import { roundInvoice } from './round';\n\n// @decision DEC-001\nexport function retryInvoice(x: number): number {\n  return roundInvoice(x) + 1;\n}\n" });
    const importer = await expectSame(repo.dir, 'pkg/billing/src/round.ts');
    expect(importer.for.results.find((r) => r.id === 'DEC-001')?.why.some((w) => w.text.includes('imported by pkg/billing/src/retry.ts'))).toBe(true);

    // a new, untracked file is a place too
    repo.write({ 'pkg/billing/src/fresh.ts': '// @decision DEC-001\nexport const fresh = 1;\n' });
    const fresh = await expectSame(repo.dir, 'pkg/billing/src/fresh.ts');
    expect(fresh.trace.entries.map((e) => e.id)).toContain('DEC-001');

    // a staged deletion: the listing follows the git index, the mention is gone
    repo.git('rm', '-q', 'pkg/billing/src/gone.ts');
    const deleted = await expectSame(repo.dir, 'pkg/billing/src/round.ts');
    expect(deleted.mentions['ADR-0001']).toEqual(['pkg/billing/src/retry.ts']);

    // a rename (git mv) and a commit
    repo.git('mv', 'pkg/billing/src/retry.ts', 'pkg/billing/src/resend.ts');
    repo.commit('rename');
    const renamed = await expectSame(repo.dir, 'pkg/billing/src/resend.ts');
    expect(renamed.trace.entries.map((e) => e.id)).toEqual(['DEC-001', 'DEC-002']);
    expect(renamed.mentions['ADR-0001']).toEqual([]);

    // artifacts change: narrower paths, a new (untracked) record, a deleted one
    repo.write({
      '.contextia/system/rationale/DEC-002.md': rec('DEC-002', 'decision', 'paths: [pkg/other/**]\n'),
      '.contextia/system/rationale/DEC-003.md': rec('DEC-003', 'decision', 'paths: [pkg/billing/**]\n'),
    });
    unlinkSync(path.join(repo.dir, '.contextia/system/specs/SPEC-001.md'));
    const artifacts = await expectSame(repo.dir, 'pkg/billing/src/resend.ts');
    expect(artifacts.trace.entries.map((e) => e.id)).toEqual(['DEC-001', 'DEC-003']);

    // the place deleted from disk: both say so the same way
    unlinkSync(path.join(repo.dir, 'pkg/other/src/plain.ts'));
    await expect(both(repo.dir, 'pkg/other/src/plain.ts')).rejects.toThrow(/no such file or directory/);
  }, 120_000);

  it('questions about different unchanged files share one listing identity; a changed, untracked or deleted focus file is part of it', async () => {
    const repo = seed();
    const identity = async (place: string) => {
      const inner = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
      const snapshot = openPlace(inner, place) as PlaceSnapshot;
      try {
        // package.json files looked for above the place (most absent) are focus files too
        snapshot.addFocus([`${path.posix.dirname(place)}/package.json`]);
        return await snapshot.listIdentity();
      } finally {
        snapshot.close();
      }
    };
    const round = await identity('pkg/billing/src/round.ts');
    expect(round).toBeDefined();
    expect(await identity('pkg/billing/src/retry.ts')).toBe(round);
    expect(await identity('pkg/other/src/plain.ts')).toBe(round);
    // the memos keyed by it serve the other file with the answers the whole tree gives
    await expectSame(repo.dir, 'pkg/billing/src/round.ts');
    await expectSame(repo.dir, 'pkg/billing/src/retry.ts');
    await expectSame(repo.dir, 'pkg/other/src/plain.ts');

    // an unstaged edit: that file's question has an identity of its own, the others keep theirs
    repo.write({ 'pkg/billing/src/retry.ts': "import { roundInvoice } from './round';\nexport const retried = roundInvoice(3);\n" });
    const edited = await identity('pkg/billing/src/retry.ts');
    expect(edited).not.toBe(round);
    expect(edited).toContain('pkg/billing/src/retry.ts=');
    expect(await identity('pkg/billing/src/round.ts')).toBe(round);
    await expectSame(repo.dir, 'pkg/billing/src/retry.ts');
    await expectSame(repo.dir, 'pkg/billing/src/round.ts');
    // an untracked file, and a tracked file deleted from disk
    repo.write({ 'pkg/billing/src/fresh.ts': "import { roundInvoice } from './round';\nexport const fresh = roundInvoice(1);\n" });
    expect(await identity('pkg/billing/src/fresh.ts')).toContain('pkg/billing/src/fresh.ts=');
    await expectSame(repo.dir, 'pkg/billing/src/fresh.ts');
    unlinkSync(path.join(repo.dir, 'pkg/billing/src/gone.ts'));
    expect(await identity('pkg/billing/src/gone.ts')).toContain('pkg/billing/src/gone.ts=-');
    // staging changes the index stamp: a new identity for every file
    repo.git('add', '-A');
    const staged = await identity('pkg/billing/src/round.ts');
    expect(staged).not.toBe(round);
    expect(await identity('pkg/billing/src/retry.ts')).toBe(staged);
    await expectSame(repo.dir, 'pkg/billing/src/round.ts');
  }, 120_000);

  it('the code graph of a place follows the git index: a staged new importer is seen by the next warm question', async () => {
    const repo = seed();
    const indexedFor = async () => {
      const snapshot = openPlace(await openSnapshot({ cwd: repo.dir, kind: 'worktree' }), 'pkg/billing/src/round.ts');
      try {
        const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
        return await retrieveForPlace({ snapshot, set, target: { path: 'pkg/billing/src/round.ts' } });
      } finally {
        snapshot.close();
      }
    };
    const importedBy = (r: Awaited<ReturnType<typeof indexedFor>>, id: string) => r.results.find((x) => x.id === id)?.why.some((w) => w.text.includes('imported by pkg/billing/src/late.ts')) ?? false;
    repo.write({ '.contextia/system/rationale/DEC-009.md': rec('DEC-009', 'decision') });
    expect(importedBy(await indexedFor(), 'DEC-009')).toBe(false);
    // the first question on a tree answered the file from the files that can import it (DEC-089); the second builds the whole graph
    expect(existsSync(path.join(repo.dir, `${CACHE_REL}/code-graph-memo.json`))).toBe(false);
    expect(importedBy(await indexedFor(), 'DEC-009')).toBe(false);
    // the graph's key is now remembered by the index's stamp: a warm question lists nothing
    expect(existsSync(path.join(repo.dir, `${CACHE_REL}/code-graph-memo.json`))).toBe(true);
    expect(importedBy(await indexedFor(), 'DEC-009')).toBe(false);
    repo.write({ 'pkg/billing/src/late.ts': "import { roundInvoice } from './round';\n// @decision DEC-009\nexport const late = roundInvoice(3);\n" });
    repo.git('add', 'pkg/billing/src/late.ts');
    expect(importedBy(await indexedFor(), 'DEC-009')).toBe(true);
    repo.git('rm', '-q', '--cached', 'pkg/billing/src/late.ts');
    expect(importedBy(await indexedFor(), 'DEC-009')).toBe(false);
  }, 120_000);

  it('keeps the tracked listing under .git/ctx keyed by the index stamp and refreshes it when the index changes', async () => {
    const repo = seed();
    const a = await trackedListing(repo.dir);
    expect(a.fromCache).toBe(false);
    expect(existsSync(path.join(repo.dir, `${CACHE_REL}/place-listing.txt`))).toBe(true);
    const b = await trackedListing(repo.dir);
    expect(b.fromCache).toBe(true);
    expect(b.entries()).toEqual(a.entries());
    expect(b.paths()).toContain('pkg/billing/src/round.ts');
    repo.write({ 'pkg/new.ts': 'export const n = 1;\n' });
    repo.git('add', 'pkg/new.ts');
    const c = await trackedListing(repo.dir);
    expect(c.fromCache).toBe(false);
    expect(c.paths()).toContain('pkg/new.ts');
    const staged = repo.git('ls-files', '-s', 'pkg/new.ts').split(/\s+/)[1];
    expect(c.entries().find((e) => e.path === 'pkg/new.ts')?.blob).toBe(staged);
  }, 60_000);

  it('is off with GIT_CTX_TREE=git and for commit or staged snapshots', async () => {
    const repo = seed();
    const wt = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    const idx = await openSnapshot({ cwd: repo.dir, kind: 'index' });
    try {
      expect(openPlace(idx, 'pkg/billing/src/round.ts')).toBe(idx);
      process.env.GIT_CTX_TREE = 'git';
      expect(openPlace(wt, 'pkg/billing/src/round.ts')).toBe(wt);
    } finally {
      delete process.env.GIT_CTX_TREE;
      wt.close();
      idx.close();
    }
  });
});
