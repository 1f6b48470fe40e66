// The fast frontmatter reader (src/artifacts/flat-yaml.ts) must give exactly js-yaml's result
// with the read schema whenever it gives one: on every record and fixture of this repository,
// on the synthetic records of the benchmarks, on hand-written awkward cases and on seeded
// random documents built from YAML's awkward characters. Where it cannot, it must step aside.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type JsYaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseFlatYaml } from '../../src/artifacts/flat-yaml.js';
import { loadYamlStrings, splitFrontmatter, topLevelKeyLines } from '../../src/artifacts/parse.js';
import { loadJsYaml } from '../../src/util/js-yaml.js';
import { YAML_LIMITS } from '../../src/util/yaml-bounds.js';
import { seeded } from '../helpers/seeded.js';
// @ts-expect-error a plain .mjs script without types
import { writeSyntheticRepo } from '../../scripts/synthetic-artifacts.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const jsYaml = await loadJsYaml();
const builtin = (jsYaml as unknown as { types: Record<'null' | 'bool', JsYaml.Type> }).types;
const SCHEMA = jsYaml.FAILSAFE_SCHEMA.extend({ implicit: [builtin.null, builtin.bool] });

type Ref = { ok: true; data: unknown } | { ok: false };
function reference(src: string): Ref {
  try {
    return { ok: true, data: jsYaml.load(src, { schema: SCHEMA, json: false, maxDepth: YAML_LIMITS.maxDepth } as JsYaml.LoadOptions) };
  } catch {
    return { ok: false };
  }
}

/** Compare on one text; true when the fast reader took it. */
function same(src: string): boolean {
  const lines: Record<string, number> = {};
  const fast = parseFlatYaml(src, lines);
  if (fast === undefined) return false;
  // the key lines it reports are the ones the plain scan finds
  const scanned = topLevelKeyLines(src);
  if (difference(lines, scanned, 'lines')) throw new Error(`different key lines for ${JSON.stringify(src)}: ${JSON.stringify(lines)} against ${JSON.stringify(scanned)}`);
  const ref = reference(src);
  if (!ref.ok) throw new Error(`the fast reader accepted text js-yaml refuses:\n${JSON.stringify(src)}`);
  const diff = difference(fast, ref.data, '$');
  if (diff) throw new Error(`different results for ${JSON.stringify(src)} at ${diff}: ${JSON.stringify(fast)} against ${JSON.stringify(ref.data)}`);
  return true;
}

/** Where two loaded values differ (prototypes, own keys in order, primitives), or undefined. */
function difference(a: unknown, b: unknown, at: string): string | undefined {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b) ? undefined : at;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${at} (prototype)`;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return `${at} (keys)`;
  for (const k of ka) {
    const d = difference((a as Record<string | symbol, unknown>)[k], (b as Record<string | symbol, unknown>)[k], `${at}.${String(k)}`);
    if (d) return d;
  }
  return undefined;
}

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '.git' || name === 'dist') continue;
    const p = path.join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) markdownFiles(p, out);
    else if (name.endsWith('.md') || name.endsWith('.mdc')) out.push(p);
  }
  return out;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('flat frontmatter reader', () => {
  it('gives js-yaml’s result on every record and fixture of the repository', () => {
    const files = execFileSync('git', ['ls-files', '-z', '--', '*.md', '*.mdc'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean)
      .map((f) => path.join(ROOT, f));
    expect(files.length).toBeGreaterThan(100);
    let taken = 0;
    let withYaml = 0;
    for (const f of files) {
      const split = splitFrontmatter(readFileSync(f, 'utf8'));
      if (!split.hasFrontmatter) continue;
      withYaml++;
      if (same(split.yaml)) taken++;
    }
    // most records are flat: the shortcut must keep paying
    expect(taken / withYaml).toBeGreaterThan(0.6);
  });

  it('takes every synthetic benchmark record, with the same result', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'flat-yaml-'));
    try {
      writeSyntheticRepo(dir, 200);
      const files = markdownFiles(path.join(dir, '.contextia'));
      expect(files.length).toBe(200);
      for (const f of files) expect(same(splitFrontmatter(readFileSync(f, 'utf8')).yaml)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the common shapes', () => {
    const src = [
      'id: DEC-1',
      'type: decision',
      'title: Don\u2019t round [yet], a:b-c {x}',
      'status: accepted',
      "summary: 'it''s \"quoted\"'",
      'owner: "Ann # not a comment"',
      'draft: True',
      'empty:',
      'tilde: ~',
      'keywords: [billing, "two words", \'x\', null, FALSE]',
      'none: []',
      'links:',
      '  specs: [SPEC-1, SPEC-2]',
      '  decisions: DEC-0',
      'paths:',
      '  - src/**/*.ts',
      '  - "!src/gen/**"',
      'anchors:',
      '- a',
      '- b',
      '',
      '# a comment',
      'created: 2026-11-22',
      '',
    ].join('\n');
    expect(same(src)).toBe(true);
    expect(parseFlatYaml(src)).toMatchObject({ draft: true, empty: null, tilde: null, keywords: ['billing', 'two words', 'x', null, false], created: '2026-11-22', anchors: ['a', 'b'] });
  });

  it('steps aside for what it does not fully read', () => {
    const aside = [
      '',
      '# only a comment\n',
      'id: a\nid: b\n', // duplicate key: js-yaml's error
      'True: x\n', // js-yaml makes the key "true"
      'Null: x\n',
      '__proto__: x\n',
      'a: b: c\n',
      'a: x # comment\n',
      'a: "esc\\"aped"\n',
      'a: "unclosed\n',
      'a: |\n  block\n',
      'a: >\n  folded\n',
      'a: &x y\nb: *x\n',
      'a: !tag y\n',
      'a: {b: c}\n',
      'a: [b, [c]]\n',
      'a: [b, c\n',
      'a: [b,]\n',
      'a: [b: c]\n',
      'a: ["b, c"]\n',
      'a: multi\n  line\n',
      'a: multi\n\n  line\n',
      'a:\n  b:\n    c: d\n',
      'a:\n  b: c\n   d: e\n',
      'a:\n  - b\n  c: d\n',
      'a:\n  - b\n  - - c\n',
      'a:\n  - b: c\n',
      'a:\n\n  b: c\n',
      'a:\tb\n',
      'a: b\r\n',
      'a: \u2028b\n',
      'a: \uFEFFb\n',
      'a: b\u0085c\n',
      'a: \uD83D\uDE00\n',
      '--- \na: b\n',
      '%YAML 1.2\n---\na: b\n',
      '? a\n: b\n',
      'a b: c\n',
      '"a": b\n',
      'a:b\n',
      'a: -b\n',
      'a: @b\n',
      'a: `b\n',
      'a:\n- b\nc: d\n  e: f\n',
      '  a: b\n',
      'a: b\n  # indented comment\n',
    ];
    for (const src of aside) {
      expect({ src, fast: parseFlatYaml(src) }).toEqual({ src, fast: undefined });
      // and loadYamlStrings still answers as js-yaml does
      const ref = reference(src);
      const got = loadYamlStrings(src);
      expect(got.ok).toBe(ref.ok);
      if (ref.ok && got.ok) expect(got.data).toStrictEqual(ref.data);
    }
  });

  it('agrees with js-yaml on seeded random documents made of awkward pieces', () => {
    const rand = seeded(20261123);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const keys = ['id', 'type', 'title', 'status', 'paths', 'links', 'specs', 'a', 'b_c', 'x-y', 'True', 'null', 'NULL', 'yes', '__proto__', 'constructor', 'toString', '1a', 'k'];
    const atoms = ['word', 'two words', 'DEC-001', 'src/**/*.ts', '!src/x', '~', 'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'yes', 'no', 'on', '0', '1.5', '0x1F', '2026-11-22', '-', '- x', '-x', '?', '? x', ':', ': x', 'a:b', 'a: b', '#', ' #c', 'C#', '"', "'", '""', "''", '"q"', "'q'", "'it''s'", '"a\\nb"', '\\', '[', ']', '[]', '[a]', '[a, b]', '{', '}', '{}', ',', '&a', '*a', '!t', '|', '>', '%', '@', '`', ' ', '  ', '\t', '\r', '\u00A0', '\u2028', '\u2019', 'é', '\u2014', '\uFEFF', '\u0085', '\uD83D\uDE00', '<<', '=', '...', '---'];
    const benign = ['word', 'Two', 'DEC-001', 'src/**/*.ts', 'a.b', 'x_y', '\u00e9t\u00e9', '\u2014', 'n\u00B0'];
    const scalar = () => {
      let s = '';
      const n = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < n; i++) s += (i && rand() < 0.5 ? ' ' : '') + pick(rand() < 0.6 ? benign : atoms);
      return s;
    };
    const inline = () => {
      const r = rand();
      if (r < 0.2) return `[${Array.from({ length: Math.floor(rand() * 4) }, scalar).join(pick([', ', ',', ' , ']))}]`;
      if (r < 0.3) return `"${scalar()}"`;
      if (r < 0.4) return `'${scalar()}'`;
      return scalar();
    };
    const indent = () => pick(['', ' ', '  ', '  ', '    ']);
    let taken = 0;
    const N = 50_000;
    for (let d = 0; d < N; d++) {
      const lines: string[] = [];
      const nkeys = 1 + Math.floor(rand() * 5);
      for (let k = 0; k < nkeys; k++) {
        const r = rand();
        const key = pick(keys);
        const sep = pick([': ', ': ', ': ', ':', ' : ', ':  ']);
        if (r < 0.6) lines.push(`${key}${sep}${inline()}`);
        else if (r < 0.8) {
          lines.push(`${key}:${pick(['', ' ', ' # c'])}`);
          const ind = indent();
          for (let i = Math.floor(rand() * 3); i >= 0; i--) lines.push(`${rand() < 0.9 ? ind : indent()}- ${inline()}`);
        } else {
          lines.push(`${key}:`);
          const ind = indent();
          for (let i = Math.floor(rand() * 3); i >= 0; i--) lines.push(`${rand() < 0.9 ? ind : indent()}${pick(keys)}${sep}${inline()}`);
        }
        if (rand() < 0.1) lines.push(pick(['', '# comment', '  # indented', ' ', '  continued', '---']));
      }
      if (same(lines.join('\n') + pick(['\n', '', '\n\n']))) taken++;
    }
    // enough of the random documents are flat to exercise the reader, not only its refusals
    expect(taken).toBeGreaterThan(N / 20);
  });
});
