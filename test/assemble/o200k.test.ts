import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastCountable, fastEncoderFrom, fastO200k, type FastEncoder } from '../../src/assemble/o200k.js';
import { ROOT } from '../helpers/cli.js';
import { seeded } from '../helpers/seeded.js';

// The JavaScript o200k counter must give tiktoken's own tokens for every text it accepts:
// here it is compared with @dqbd/tiktoken (WASM) on every code point of its range in
// several contexts, on the repository's own markdown and sources, and on seeded random text.

type Enc = { encode_ordinary(t: string): Uint32Array; free(): void };
let tk: Enc;
let fast: FastEncoder;

beforeAll(async () => {
  const { get_encoding } = await import('@dqbd/tiktoken');
  tk = get_encoding('o200k_base') as unknown as Enc;
  fast = fastO200k()!;
});
afterAll(() => tk?.free());

const same = (text: string) => {
  const want = [...tk.encode_ordinary(text)];
  const got = fast.encode(text);
  if (got.length !== want.length || got.some((v, i) => v !== want[i])) return { text, want, got };
  if (fast.count(text) !== want.length) return { text, want: want.length, got: fast.count(text) };
  return undefined;
};

const RANGE: number[] = [];
for (let c = 0; c <= 0x7ff; c++) RANGE.push(c);
for (let c = 0x2000; c <= 0x206f; c++) RANGE.push(c);

describe('o200k token counts in JavaScript', () => {
  it('loads the rank table of the installed tiktoken', () => {
    expect(fast).toBeDefined();
  });

  it('accepts exactly the verified range', () => {
    expect(fastCountable('plain ASCII, Ünïcödé, Ελληνικά, кириллица, עברית, عربي \u2019\u201c\u201d\u2014\u2026')).toBe(true);
    for (const t of ['日本語', '✓', '\u{1F600}', '\uFEFF', '\u3000', '\uD800', 'a\u2070']) expect(fastCountable(t)).toBe(false);
  });

  it('every code point of the range, in contexts that exercise each branch of the split pattern', { timeout: 120_000 }, () => {
    const contexts = (c: string) => [c, `a${c}`, `A${c}b`, `${c}a`, `${c}A`, ` ${c}`, `  ${c} x`, `1${c}2`, `${c}${c}${c}`, `x ${c}\n`, `\n${c}\r\n`, `word's${c}`, `x'${c}`, `${c}'S`, `${c}'ll`, `//${c}/\n`, `a ${c}${c} b`, `Ab${c}cD`, `\t${c}  \n`];
    const bad = [];
    for (const cp of RANGE) {
      const c = String.fromCodePoint(cp);
      for (const t of contexts(c)) {
        const d = same(t);
        if (d) bad.push({ cp: cp.toString(16), ...d });
      }
      if (bad.length > 5) break;
    }
    expect(bad).toEqual([]);
  });

  it('seeded random strings over the range, weighted towards characters that change the split', { timeout: 120_000 }, () => {
    const rand = seeded(20261122);
    const common = [...' \n\r\t\u00a0\u2009\u200b\u2028\u0085\'sStTlLdD\u017f0123456789aAzZ/._-#*`()[]{}<>:;,!?"\u2019\u201c\u201d\u2014\u2026\u00e9\u00c9\u0301\u03a9\u03c9\u0416\u0436\u05d0\u0627\u0660\u06f0\u0966'];
    const bad = [];
    for (let n = 0; n < 3000 && bad.length < 5; n++) {
      const len = 1 + Math.floor(rand() * 40);
      let s = '';
      for (let i = 0; i < len; i++) s += rand() < 0.7 ? common[Math.floor(rand() * common.length)] : String.fromCodePoint(RANGE[Math.floor(rand() * RANGE.length)]!);
      const d = same(s);
      if (d) bad.push(d);
    }
    expect(bad).toEqual([]);
  });

  it("the repository's own markdown and TypeScript (the parts in range)", { timeout: 120_000 }, () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const n of readdirSync(dir)) {
        if (n === 'node_modules' || n === '.git' || n === 'dist' || n === 'action') continue;
        const p = path.join(dir, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(md|ts)$/.test(n)) files.push(p);
      }
    };
    walk(path.join(ROOT, '.contextia'));
    walk(path.join(ROOT, 'src'));
    files.push(path.join(ROOT, 'README.md'));
    let checked = 0;
    const bad = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      // whole files where they are in range, else their in-range lines
      const parts = fastCountable(text) ? [text] : text.split('\n').filter(fastCountable);
      for (const p of parts) {
        const d = same(p);
        if (d) bad.push({ file: path.relative(ROOT, f), ...d });
        checked++;
      }
      if (bad.length > 3) break;
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('refuses a rank file that is not the o200k table it expects', () => {
    const file = readFileSync(new URL(import.meta.resolve('@dqbd/tiktoken/encoders/o200k_base.json')));
    expect(fastEncoderFrom(Buffer.from('{"pat_str":"\\\\s+","bpe_ranks":"! 0 IQ=="}'))).toBeUndefined();
    expect(fastEncoderFrom(Buffer.from('not json'))).toBeUndefined();
    // cl100k's table has another split pattern
    const cl = readFileSync(new URL(import.meta.resolve('@dqbd/tiktoken/encoders/cl100k_base.json')));
    expect(fastEncoderFrom(cl)).toBeUndefined();
    // a damaged table (a character outside base64) is refused, not half read
    const damaged = Buffer.from(file);
    damaged[damaged.length - 10] = 0x21;
    expect(fastEncoderFrom(damaged)).toBeUndefined();
  });
});
