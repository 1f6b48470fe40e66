import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { IMPACT_FILES, rec } from './fixture.js';
import { CACHE_REL } from '../helpers/cache.js';

type Out = { artifacts: { node: { id: string } }[]; code: { node: { id: string } }[]; edges: unknown };

/** The file backend: no SQLite, so the edge file is the only store (what the code origins memo is checked against). */
const FILE_BACKEND = { GIT_CTX_SQLITE_MODULE: 'git-ctx-test-no-sqlite' };

/** Every form of the question, each answered with the caches (twice: built, then read) and without them. */
const QUESTIONS: string[][] = [
  ['DEC-MONEY', '--depth', '4'],
  ['DEC-ROUND', '--reverse'],
  ['src/util/money.ts'],
  ['src/util/money.ts#round', '--depth', '3'],
  ['src/billing/invoice.ts#total', '--depth', '1'],
];

function ask(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const out = runCli(['impact', ...args, '--json'], { cwd: dir, env: { GIT_CTX_TIMINGS: '1', ...FILE_BACKEND, ...env } });
  expect(out.code, out.stderr).toBe(0);
  const j = JSON.parse(out.stdout) as Out;
  return {
    ids: [...j.artifacts.map((a) => a.node.id), ...j.code.map((c) => c.node.id)],
    body: { ...j, edges: undefined },
    projection: out.stderr.includes('importers and callers from the projection'),
    memo: out.stderr.includes('code origins from the memo'),
    indexed: out.stderr.includes('impact: code index'),
  };
}

/** Every question answers the same with the caches (a miss, then a hit) as with none (the graph and the code index themselves). */
function sameEverywhere(dir: string): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const q of QUESTIONS) {
    const fresh = ask(dir, q, { GIT_CTX_NO_CACHE: '1' });
    const first = ask(dir, q);
    const second = ask(dir, q);
    expect(first.body, q.join(' ')).toEqual(fresh.body);
    expect(second.body, q.join(' ')).toEqual(fresh.body);
    ids.set(q.join(' '), fresh.ids);
  }
  return ids;
}

describe("impact's callers projection and code origins memo (DEC-036)", () => {
  it('answers every form as the graph and the code index do, and follows callers and annotations added, edited or removed', () => {
    const r = makeRepo(IMPACT_FILES);
    r.commit('fixture');
    let ids = sameEverywhere(r.dir);
    expect(ids.get('src/util/money.ts#round --depth 3')).toEqual(expect.arrayContaining(['DEC-MONEY', 'src/billing/invoice.ts#total', 'src/api/handler.ts#handle']));
    // warm: the projection and the memo answer, the code index is not built
    const warm = ask(r.dir, ['DEC-MONEY']);
    expect(warm.projection).toBe(true);
    expect(warm.memo).toBe(true);
    expect(warm.indexed).toBe(false);

    // a caller added (untracked): another listing, so both miss and are rebuilt
    r.write({ 'src/report/summary.ts': "import { round } from '../util/money';\n\nexport function summary() {\n  return round(1.5);\n}\n" });
    const added = ask(r.dir, ['src/util/money.ts#round']);
    expect(added.projection).toBe(false);
    expect(added.ids).toContain('src/report/summary.ts#summary');
    sameEverywhere(r.dir);

    // a caller edited: the call moves to another function of the same file
    r.write({ 'src/report/summary.ts': "import { round } from '../util/money';\n\nexport function summary() {\n  return 2;\n}\n\nexport function later() {\n  return round(2.5);\n}\n" });
    ids = sameEverywhere(r.dir);
    expect(ids.get('src/util/money.ts#round --depth 3')).toContain('src/report/summary.ts#later');
    expect(ids.get('src/util/money.ts#round --depth 3')).not.toContain('src/report/summary.ts#summary');

    // a caller removed: the handler no longer calls the invoice code
    r.write({ 'src/api/handler.ts': 'export function handle() {\n  return 3;\n}\n' });
    ids = sameEverywhere(r.dir);
    expect(ids.get('src/billing/invoice.ts#total --depth 1')).not.toContain('src/api/handler.ts#handle');

    // an annotation added in code: the record now governs that function
    r.write({ 'src/report/summary.ts': "import { round } from '../util/money';\n\n// @decision DEC-MONEY\nexport function later() {\n  return round(2.5);\n}\n" });
    const annotated = ask(r.dir, ['DEC-MONEY']);
    expect(annotated.memo).toBe(false);
    expect(annotated.ids).toContain('src/report/summary.ts#later');
    sameEverywhere(r.dir);

    // a record edited: its anchor moves to another symbol
    r.write({ '.contextia/system/rationale/DEC-MONEY.md': rec('DEC-MONEY', 'decision', 'status: accepted\nanchors: ["src/billing/invoice.ts#total"]\n', 'Money is rounded in one place.') });
    ids = sameEverywhere(r.dir);
    expect(ids.get('DEC-MONEY --depth 4')).toContain('src/billing/invoice.ts#total');

    // the annotation removed again, everything committed
    r.write({ 'src/report/summary.ts': "import { round } from '../util/money';\n\nexport function later() {\n  return round(2.5);\n}\n" });
    r.commit('edits');
    ids = sameEverywhere(r.dir);
    expect(ids.get('DEC-MONEY --depth 4')).not.toContain('src/report/summary.ts#later');
  }, 240_000);

  it('builds the code index when the stored edges do not match the remembered origins', () => {
    const r = makeRepo(IMPACT_FILES);
    r.commit('fixture');
    const before = ask(r.dir, ['DEC-ROUND', '--reverse']);
    expect(ask(r.dir, ['DEC-ROUND', '--reverse']).memo).toBe(true);
    // the edge file gone: the memo's origins are not in the store, so the code index recomputes them
    const edges = path.join(r.dir, `${CACHE_REL}/impact-edges.json`);
    expect(existsSync(edges)).toBe(true);
    rmSync(edges);
    const rebuilt = ask(r.dir, ['DEC-ROUND', '--reverse']);
    expect(rebuilt.memo).toBe(false);
    expect(rebuilt.indexed).toBe(true);
    expect(rebuilt.body).toEqual(before.body);
    const again = ask(r.dir, ['DEC-ROUND', '--reverse']);
    expect(again.memo).toBe(true);
    expect(again.body).toEqual(before.body);
  }, 60_000);
});
