import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCodeIndex, fingerprintAnchor, findMovedSymbol, parseAnchor, resolveGitDir } from '../../src/code/index.js';
import { defaultConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { makeRepo } from '../helpers/git-repo.js';
import { fixtureFiles } from './helpers.js';
import { buildDirName } from '../../src/cache/prune.js';

const GEN = `/** @spec SPEC-GEN */
export class Gen {
  /** @spec SPEC-RUN */
  run(items: number[]): number {
    return items.reduce((a, b) => a + b, 0);
  }
}
`;

async function withIndex<T>(dir: string, fn: (ix: Awaited<ReturnType<typeof buildCodeIndex>>) => Promise<T>, kind: 'worktree' | 'commit' = 'worktree'): Promise<T> {
  const snapshot = await openSnapshot({ cwd: dir, kind });
  try {
    return await fn(await buildCodeIndex(snapshot, defaultConfig()));
  } finally {
    snapshot.close();
  }
}

describe('fingerprints', () => {
  it('ignore formatting and comments, change with the code', async () => {
    const repo = makeRepo({ 'src/gen.ts': GEN });
    repo.commit('one');
    const fp = () => withIndex(repo.dir, async (ix) => (await fingerprintAnchor('src/gen.ts#Gen.run', ix.snapshot, ix)).fingerprint);
    const before = await fp();
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    // reformat and re-comment
    repo.write({ 'src/gen.ts': GEN.replace('run(items: number[]): number {', 'run( items : number[] ) : number\n  {  // totals\n').replace('return items', '/* sum */ return   items') });
    expect(await fp()).toBe(before);
    // change the code
    repo.write({ 'src/gen.ts': GEN.replace('a + b', 'a - b') });
    expect(await fp()).not.toBe(before);
  });

  it('fingerprints every anchor kind and reports what is missing', async () => {
    const repo = makeRepo({ ...fixtureFiles('code-annotations'), 'src/routes.ts': "import express from 'express';\nconst app = express();\napp.post('/api/v1/orders', (req, res) => res.json([]));\n" });
    repo.commit('fixture');
    await withIndex(repo.dir, async (ix) => {
      const blob = repo.git('rev-parse', 'HEAD:cmd/main.go');
      expect(await fingerprintAnchor('cmd/main.go', ix.snapshot, ix)).toMatchObject({ status: 'ok', fingerprint: blob, kind: 'file' });
      const glob = await fingerprintAnchor('src/billing/*.ts', ix.snapshot, ix);
      expect(glob).toMatchObject({ status: 'ok', kind: 'glob' });
      expect(glob.paths).toHaveLength(5);
      expect(await fingerprintAnchor('src/billing/invoice.ts:9-12', ix.snapshot, ix)).toMatchObject({ status: 'ok', kind: 'lines', location: { line: 9, endLine: 12 } });
      expect(await fingerprintAnchor('src/billing/invoice.ts#InvoiceGenerator.generate', ix.snapshot, ix)).toMatchObject({
        status: 'ok',
        location: { path: 'src/billing/invoice.ts', symbol: 'InvoiceGenerator.generate', line: 61, endLine: 66 },
      });
      expect(await fingerprintAnchor('src/billing/default-fn.ts#default', ix.snapshot, ix)).toMatchObject({ status: 'ok' });
      expect(await fingerprintAnchor('src/billing/invoice.ts#Nope', ix.snapshot, ix)).toMatchObject({ status: 'missing' });
      expect(await fingerprintAnchor('src/gone.ts', ix.snapshot, ix)).toMatchObject({ status: 'missing' });
      expect(await fingerprintAnchor('lib/**/*.rs', ix.snapshot, ix)).toMatchObject({ status: 'missing' });
      expect(await fingerprintAnchor('src/billing/invoice.ts:500-510', ix.snapshot, ix)).toMatchObject({ status: 'missing' });
      // endpoints: an express call and a decorated controller method
      expect(await fingerprintAnchor('POST /api/v1/orders', ix.snapshot, ix)).toMatchObject({ status: 'ok', location: { path: 'src/routes.ts', line: 3 } });
      expect(await fingerprintAnchor('POST /api/v1/invoices', ix.snapshot, ix)).toMatchObject({ status: 'ok', location: { path: 'src/billing/invoice.ts', symbol: 'InvoiceGenerator.generate' } });
      expect(await fingerprintAnchor('DELETE /api/v1/orders', ix.snapshot, ix)).toMatchObject({ status: 'unresolved' });
    });
  });

  it('parses anchor strings', () => {
    expect(parseAnchor('src/a.ts#A.b')).toMatchObject({ kind: 'symbol', path: 'src/a.ts', symbol: 'A.b' });
    expect(parseAnchor('src/a.ts:10-40')).toMatchObject({ kind: 'lines', start: 10, end: 40 });
    expect(parseAnchor('src/**/*.ts')).toMatchObject({ kind: 'glob' });
    expect(parseAnchor('post /api/v1/orders')).toMatchObject({ kind: 'endpoint', method: 'POST', path: '/api/v1/orders' });
    expect(parseAnchor('./src/a.ts')).toMatchObject({ kind: 'file', path: 'src/a.ts' });
  });

  it('finds a moved symbol: renamed, and moved to another file', async () => {
    const repo = makeRepo({ 'src/gen.ts': GEN, 'src/other.ts': 'export const other = 1;\n' });
    repo.commit('one');
    const old = await withIndex(repo.dir, async (ix) => (await fingerprintAnchor('src/gen.ts#Gen.run', ix.snapshot, ix)).fingerprint!);
    // rename the class and move the method's class to a file that has no annotation at all
    repo.rm('src/gen.ts');
    repo.commit('move', { 'src/engine/runner.ts': GEN.replace('class Gen', 'class Runner').replace(/\/\*\*.*\*\/\n/g, '') });
    await withIndex(
      repo.dir,
      async (ix) => {
        expect(await fingerprintAnchor('src/gen.ts#Gen.run', ix.snapshot, ix)).toMatchObject({ status: 'missing' });
        const moved = await findMovedSymbol(old, ix);
        expect(moved.map((m) => `${m.path}#${m.symbol.name}`)).toEqual(['src/engine/runner.ts#Runner.run']);
        expect(await findMovedSymbol(old, ix, { deep: false })).toEqual([]);
      },
      'commit',
    );
  });
});

describe('cache', () => {
  it('a warm run parses nothing; a changed file is parsed again; a corrupt cache is rebuilt', async () => {
    const repo = makeRepo(fixtureFiles('code-annotations'));
    repo.commit('fixture');
    const cold = await withIndex(repo.dir, async (ix) => ({ ...ix.stats, n: ix.annotations.length }));
    expect(cold.extracted).toBeGreaterThan(5);
    const gitDir = (await resolveGitDir(repo.dir))!;
    const file = path.join(gitDir, 'ctx', 'cache', buildDirName(), 'code-index.json');
    expect(path.isAbsolute(file) && existsSync(file)).toBe(true);
    const warm = await withIndex(repo.dir, async (ix) => ({ ...ix.stats, n: ix.annotations.length }));
    expect(warm).toMatchObject({ extracted: 0, read: 0, n: cold.n });
    // staged snapshot and commit snapshot share the cache (keyed by blob)
    expect(await withIndex(repo.dir, async (ix) => ix.stats.extracted, 'commit')).toBe(0);
    repo.write({ 'src/billing/default-class.ts': '/** @spec SPEC-CHANGED */\nexport default class Ledger {}\n' });
    const changed = await withIndex(repo.dir, async (ix) => ({ ...ix.stats, ids: ix.annotationsIn('src/billing/default-class.ts').flatMap((a) => a.ids) }));
    expect(changed).toMatchObject({ extracted: 1, ids: ['SPEC-CHANGED'] });
    writeFileSync(file, '{"tool": "git-ctx/code-index", "version": 1, "entr');
    const rebuilt = await withIndex(repo.dir, async (ix) => ({ ...ix.stats, n: ix.annotations.length }));
    expect(rebuilt.n).toBe(cold.n);
    expect(JSON.parse(readFileSync(file, 'utf8')).tool).toBe('git-ctx/code-index');
  });

  it('finds the cache in the common git dir from a linked worktree', async () => {
    const repo = makeRepo({ 'a.ts': '// @spec SPEC-A\nexport const a = 1;\n' });
    repo.commit('one');
    const wt = path.join(repo.dir, '..', path.basename(repo.dir) + '-wt');
    repo.git('worktree', 'add', '-q', wt);
    try {
      expect(await resolveGitDir(wt)).toBe(path.join(repo.dir, '.git'));
    } finally {
      repo.git('worktree', 'remove', '--force', wt);
    }
  });
});
