import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet, type ArtifactSet } from '../../src/artifacts/load.js';
import { CodeIndex } from '../../src/code/code-index.js';
import { loadConfig } from '../../src/config.js';
import { runPreCommit } from '../../src/hooks/pre-commit.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { governingRecords, RELATED_FLOOR, type GoverningRecord } from '../../src/retrieve/governing.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import type { Snapshot } from '../../src/snapshot/types.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir, type TestRepo } from '../helpers/git-repo.js';

/*
 * The pre-commit hook's "governs this change" line answers from file-level facts (DEC-071):
 * a whole-file trace reads a file's parse only when a record anchors one of its symbols or
 * an endpoint. Its records must be those the full retrieval of each path gives, in the same
 * tier order: declared before related, then score, then the number of the change's paths.
 */

const rec = (id: string, type: string, fm: string, body = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\n${fm}---\n\n# ${id}\n\n${body}\n`;
const SPECS = '.contextia/system/specs';
const DECS = '.contextia/system/rationale';
const NOW = new Date('2026-06-01T00:00:00Z');

/** A repository with every way a record governs a file, committed; then a change staged over it. */
function scenario(): TestRepo {
  const repo = makeRepo({
    // an annotation on a symbol, a symbol anchor (and one naming a symbol that is not there), a file anchor
    'src/billing/invoice.ts': [
      'export interface Line {',
      '  amount: number;',
      '}',
      '',
      '/** @spec SPEC-SYM */',
      'export class InvoiceGenerator {',
      '  generate(lines: Line[]): number {',
      '    let total = 0;',
      '    for (const l of lines) total += l.amount;',
      '    return total;',
      '  }',
      '}',
      '',
    ].join('\n'),
    // a file-level annotation
    'src/billing/tax.ts': '// @spec SPEC-FILE\n\nimport { round } from "../util/format";\n\nexport const RATE = 0.2;\nexport const tax = (n: number) => round(n * RATE);\n',
    'src/util/format.ts': 'export function round(n: number): number {\n  return Math.round(n * 100) / 100;\n}\n',
    'src/util/strings.ts': 'export function slugify(title: string): string {\n  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");\n}\n',
    'src/other/plain.ts': 'export const nothing = 0;\n',
    'src/legacy/old.ts': 'export const legacy = true;\n',
    // packages: a record governing a whole package is package-level (found by the nearest package.json)
    'package.json': '{ "name": "root", "private": true }\n',
    'packages/pay/package.json': '{ "name": "pay" }\n',
    'packages/pay/src/pay.ts': 'export const pay = () => 1;\n',
    [`${SPECS}/SPEC-PKG.md`]: rec('SPEC-PKG', 'spec', 'status: active\npaths: [packages/pay/**]\n', 'Payments as a package.'),
    // a non-TypeScript file annotated in a `#` comment
    'scripts/report.py': '# @spec SPEC-PY\n\ndef report(rows):\n    return len(rows)\n',
    [`${SPECS}/SPEC-SYM.md`]: rec('SPEC-SYM', 'spec', 'status: active\n', 'How invoices are generated.'),
    [`${SPECS}/SPEC-FILE.md`]: rec('SPEC-FILE', 'spec', 'status: active\n', 'How tax is computed.'),
    [`${SPECS}/SPEC-PY.md`]: rec('SPEC-PY', 'spec', 'status: active\n', 'The nightly report.'),
    [`${SPECS}/SPEC-GLOB.md`]: rec('SPEC-GLOB', 'spec', 'status: active\npaths: [src/billing/**]\n', 'Billing as a whole.'),
    [`${SPECS}/SPEC-SRC.md`]: rec('SPEC-SRC', 'spec', 'status: active\npaths: [src/**]\n', 'Every source file.'),
    [`${SPECS}/SPEC-EXACT.md`]: rec('SPEC-EXACT', 'spec', 'status: active\npaths: [src/util/format.ts]\n', 'Rounding of amounts.'),
    [`${DECS}/DEC-ANCHOR.md`]: rec('DEC-ANCHOR', 'decision', 'status: accepted\nanchors: [src/billing/invoice.ts#InvoiceGenerator.generate]\n', 'Totals are summed line by line.'),
    [`${DECS}/DEC-GONE.md`]: rec('DEC-GONE', 'decision', 'status: accepted\nanchors: [src/billing/invoice.ts#NoSuchSymbol]\n', 'A symbol that is not there.'),
    [`${DECS}/DEC-FILEANCHOR.md`]: rec('DEC-FILEANCHOR', 'decision', 'status: accepted\nanchors: [src/billing/invoice.ts]\n', 'Invoices live in one file.'),
    [`${DECS}/DEC-LEGACY.md`]: rec('DEC-LEGACY', 'decision', 'status: accepted\nanchors: [src/legacy/old.ts]\n', 'The legacy flag.'),
    [`${DECS}/DEC-OLD.md`]: rec('DEC-OLD', 'decision', 'status: superseded\npaths: [src/billing/**]\n', 'An older billing decision.'),
    [`${DECS}/TASK-1.md`]: rec('TASK-1', 'task', 'status: todo\npaths: [src/**]\n', 'Work on the sources.'),
    // a record naming a file in its text: the related band
    [`${DECS}/DEC-SLUG.md`]: rec('DEC-SLUG', 'decision', 'status: accepted\nsummary: Slugs of titles are lower case words joined by dashes.\nkeywords: [slugify, slug, title]\n', 'Titles become slugs in `src/util/strings.ts`: lower case, dashes between words.'),
  });
  repo.commit('fixture');
  const append = (p: string, line: string) => repo.write({ [p]: repo.git('show', `HEAD:${p}`) + `\n${line}\n` });
  append('src/billing/invoice.ts', 'export const touched = 1;');
  append('src/billing/tax.ts', 'export const touched = 1;');
  append('src/util/format.ts', 'export const touched = 1;');
  append('src/util/strings.ts', 'export const touched = 1;');
  append('src/other/plain.ts', 'export const touched = 1;');
  append('scripts/report.py', 'TOUCHED = 1');
  append('packages/pay/src/pay.ts', 'export const touched = 1;');
  repo.rm('src/legacy/old.ts');
  repo.git('add', '-A');
  return repo;
}

const CHANGED = ['packages/pay/src/pay.ts', 'scripts/report.py', 'src/billing/invoice.ts', 'src/billing/tax.ts', 'src/legacy/old.ts', 'src/other/plain.ts', 'src/util/format.ts', 'src/util/strings.ts'];

/**
 * The reference: what the full retrieval says of each path, every lane on, the file parsed
 * first (as the trace did before DEC-071), gathered as the hook's line is: declared results,
 * and fused ones above the floor that a record's naming of the path supports.
 */
async function fullRetrieval(snapshot: Snapshot, set: ArtifactSet, paths: string[], max: number): Promise<GoverningRecord[]> {
  const index = await CodeIndex.build(snapshot, set.config, { cache: false });
  const found = new Map<string, GoverningRecord>();
  for (const path of [...paths].sort().slice(0, 10)) {
    if (path.startsWith(`${set.config.dir}/`) || !(await snapshot.read(path).catch(() => undefined))) continue;
    await index.recordOf(path);
    const r = await retrieveForPlace({ snapshot, set, index, target: { path }, neighbours: false, staleness: false, feedback: false, caps: { declared: 5, fused: 3, links: 0 } });
    for (const x of r.results) {
      if (x.inactive || x.type === 'task' || x.type === 'identity') continue;
      const related = x.slot === 'fused' && (x.relevance ?? 0) >= RELATED_FLOOR && x.why.some((w) => w.kind === 'mention');
      const strength = x.slot === 'declared' ? 'declared' : related ? 'related' : undefined;
      if (!strength) continue;
      const had = found.get(x.id);
      if (!had) found.set(x.id, { id: x.id, type: x.type, title: x.title, ...(x.status != null ? { status: x.status } : {}), strength, score: x.score, paths: [path] });
      else {
        if (strength === 'declared') had.strength = 'declared';
        had.score = Math.max(had.score, x.score);
        had.paths.push(path);
      }
    }
  }
  const rank = (g: GoverningRecord) => (g.strength === 'declared' ? 0 : 1);
  return [...found.values()].sort((a, b) => rank(a) - rank(b) || b.score - a.score || b.paths.length - a.paths.length || (a.id < b.id ? -1 : 1)).slice(0, max);
}

async function staged(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'index' });
  const config = await loadConfig(snapshot);
  const set = await loadArtifactSet(snapshot, config);
  return { snapshot, set };
}

/** The ids, strengths, scores and paths: what decides the order. */
const shape = (gs: GoverningRecord[]) => gs.map((g) => `${g.id} ${g.strength} ${g.score} ${g.paths.join(',')}`);

describe('governing records from file-level facts (DEC-071)', () => {
  it('are those of the full retrieval of each path, in the same tier order', async () => {
    const repo = scenario();
    const { snapshot, set } = await staged(repo.dir);
    try {
      const got = await governingRecords({ snapshot, set, paths: CHANGED, max: 50 });
      expect(got).toEqual(await fullRetrieval(snapshot, set, CHANGED, 50));
      // pinned: symbol-level (annotation on a symbol, anchor on a symbol that exists) before
      // file-level (a file annotation, a file anchor, an exact path) before directories (globs,
      // nearest first) before packages; the deleted path, the superseded record, the task, the
      // symbol that is not there and the unannotated file add nothing; the record naming a file
      // is related.
      // Five declared records per path: on invoice.ts the fifth place goes to the task (kinds
      // in config order: task before spec), so SPEC-SRC is not counted there
      expect(shape(got)).toEqual([
        'DEC-ANCHOR declared 1000 src/billing/invoice.ts',
        'SPEC-SYM declared 1000 src/billing/invoice.ts',
        'DEC-FILEANCHOR declared 800 src/billing/invoice.ts',
        'SPEC-EXACT declared 800 src/util/format.ts',
        'SPEC-FILE declared 800 src/billing/tax.ts',
        'SPEC-PY declared 800 scripts/report.py',
        'SPEC-GLOB declared 600 src/billing/invoice.ts,src/billing/tax.ts',
        'SPEC-SRC declared 599 src/billing/tax.ts,src/other/plain.ts,src/util/format.ts,src/util/strings.ts',
        'SPEC-PKG declared 499 packages/pay/src/pay.ts',
        expect.stringMatching(/^DEC-SLUG related [\d.]+ src\/util\/strings\.ts$/),
      ]);
      // the hook's own line: the first three, from its partial staged index
      const hook = await runPreCommit({ cwd: repo.dir, now: NOW, cache: false });
      expect(hook.changedPaths).toEqual(CHANGED);
      expect(hook.governing).toEqual(got.slice(0, 3));
    } finally {
      snapshot.close();
    }
  });

  it('look at the first ten paths of a larger change, as the full retrieval does', async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 12; i++) files[`src/many/f${String(i).padStart(2, '0')}.ts`] = `export const f${i} = ${i};\n`;
    const repo = makeRepo({
      ...files,
      [`${SPECS}/SPEC-MANY.md`]: rec('SPEC-MANY', 'spec', 'status: active\npaths: [src/many/**]\n', 'Many files.'),
      // governs only the eleventh and twelfth: past the ten paths looked at
      [`${SPECS}/SPEC-LATE.md`]: rec('SPEC-LATE', 'spec', 'status: active\npaths: [src/many/f11.ts, src/many/f12.ts]\n', 'The late files.'),
      [`${SPECS}/SPEC-FIRST.md`]: rec('SPEC-FIRST', 'spec', 'status: active\nanchors: [src/many/f01.ts]\n', 'The first file.'),
    });
    repo.commit('fixture');
    for (const p of Object.keys(files)) repo.write({ [p]: `${files[p]}export const touched = 1;\n` });
    repo.git('add', '-A');
    const { snapshot, set } = await staged(repo.dir);
    try {
      const paths = Object.keys(files);
      const got = await governingRecords({ snapshot, set, paths, max: 50 });
      expect(got).toEqual(await fullRetrieval(snapshot, set, paths, 50));
      expect(shape(got)).toEqual(['SPEC-FIRST declared 800 src/many/f01.ts', `SPEC-MANY declared 600 ${paths.slice(0, 10).join(',')}`]);
    } finally {
      snapshot.close();
    }
  });

  it('still read the parse where a record anchors an endpoint or a symbol of the file', async () => {
    const repo = makeRepo({
      'src/api/routes.ts': "import express from 'express';\nconst app = express();\n\nexport function mount() {\n  app.post('/invoices', () => undefined);\n}\n",
      [`${DECS}/DEC-POST.md`]: rec('DEC-POST', 'decision', 'status: accepted\nanchors: ["POST /invoices"]\n', 'Creating invoices.'),
      [`${DECS}/DEC-MOUNT.md`]: rec('DEC-MOUNT', 'decision', 'status: accepted\nanchors: [src/api/routes.ts#mount]\n', 'Mounting the routes.'),
      [`${DECS}/DEC-GET.md`]: rec('DEC-GET', 'decision', 'status: accepted\nanchors: ["GET /invoices"]\n', 'Listing invoices.'),
    });
    repo.commit('fixture');
    repo.write({ 'src/api/routes.ts': `${repo.git('show', 'HEAD:src/api/routes.ts')}\nexport const touched = 1;\n` });
    repo.git('add', '-A');
    const { snapshot, set } = await staged(repo.dir);
    try {
      const got = await governingRecords({ snapshot, set, paths: ['src/api/routes.ts'], max: 50 });
      expect(got).toEqual(await fullRetrieval(snapshot, set, ['src/api/routes.ts'], 50));
      expect(shape(got)).toEqual(['DEC-MOUNT declared 1000 src/api/routes.ts', 'DEC-POST declared 800 src/api/routes.ts']);
    } finally {
      snapshot.close();
    }
  });
});

describe('the pre-commit hook names what governs a change without the TypeScript compiler (DEC-071)', () => {
  it('loads no compiler for staged TypeScript files declared by globs, exact paths, file anchors and annotations', () => {
    const repo = scenario();
    // the symbol anchors are the one file-level question a parse answers (is the symbol still there?)
    repo.rm(`${DECS}/DEC-ANCHOR.md`, `${DECS}/DEC-GONE.md`);
    repo.git('add', '-A');
    const out = path.join(tempDir('git-ctx-modules-'), 'modules.txt');
    const preload = path.join(path.dirname(out), 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, [...process.moduleLoadList, ...Object.keys(require.cache)].join('\\n')));\n`);
    // the first run classifies the staged annotated files (their parse is kept by blob, as
    // every code index keeps it); the next one is what a commit after `git add` waits for
    const first = runCli(['hook', 'pre-commit'], { cwd: repo.dir });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const r = runCli(['hook', 'pre-commit'], { cwd: repo.dir, env: { NODE_OPTIONS: `--require ${preload}` } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('governs this change: SPEC-SYM "SPEC-SYM title", DEC-FILEANCHOR "DEC-FILEANCHOR title", SPEC-EXACT "SPEC-EXACT title"\n');
    const loaded = readFileSync(out, 'utf8').split('\n');
    expect(loaded.filter((m) => /[/\\]typescript\.js$|[/\\]ts-morph[/\\]/.test(m))).toEqual([]);
  });
});
