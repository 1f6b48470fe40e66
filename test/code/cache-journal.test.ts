import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodeCache } from '../../src/code/code-cache.js';
import type { FileRecord } from '../../src/code/types.js';
import { tempDir } from '../helpers/git-repo.js';

const tags = ['spec', 'decision'];
const rec = (n: number): FileRecord => ({ annotations: [{ tag: 'spec', ids: [`SPEC-${n}`], line: 1, startLine: 1, endLine: 2 } as never], symbols: [], routes: [], lines: n });
const blob = (n: number) => n.toString(16).padStart(40, '0');

describe('code cache journal', () => {
  it('writes base files once, then appends what later runs add, and reads both back', async () => {
    const dir = tempDir('git-ctx-cc-');
    const file = path.join(dir, 'code-index.json');

    const a = await CodeCache.open(file, tags);
    a.set(`${blob(1)}:ts`, rec(1));
    a.addClean(blob(2));
    await a.save();
    expect(existsSync(file)).toBe(true);
    expect(existsSync(path.join(dir, 'code-index.clean'))).toBe(true);
    const baseMtime = statSync(file).mtimeMs;
    const baseText = readFileSync(file, 'utf8');

    const b = await CodeCache.open(file, tags);
    expect(b.get(`${blob(1)}:ts`)).toEqual(rec(1));
    expect(b.isClean(blob(2))).toBe(true);
    b.set(`${blob(3)}:ts`, rec(3));
    b.addClean(blob(4));
    await b.save();
    // the base is untouched; the additions are in the journal
    expect(readFileSync(file, 'utf8')).toBe(baseText);
    expect(statSync(file).mtimeMs).toBe(baseMtime);
    expect(readFileSync(path.join(dir, 'code-index.log'), 'utf8').split('\n').filter(Boolean)).toHaveLength(3);

    // a torn line at the end (an interrupted append) is skipped, the rest still counts
    appendFileSync(path.join(dir, 'code-index.log'), '["e","' + blob(5));
    const c = await CodeCache.open(file, tags);
    expect(c.get(`${blob(3)}:ts`)).toEqual(rec(3));
    expect(c.isClean(blob(4))).toBe(true);
    expect(c.isClean(blob(2))).toBe(true);
    expect(c.get(`${blob(5)}:ts`)).toBeUndefined();
  });

  it('folds a large journal into the base files, and ignores a journal of other tags', async () => {
    const dir = tempDir('git-ctx-cc-');
    const file = path.join(dir, 'code-index.json');
    const a = await CodeCache.open(file, tags);
    a.set(`${blob(1)}:ts`, rec(1));
    await a.save();
    // grow the journal past its limit with many runs' worth of entries
    for (let run = 0; run < 4; run++) {
      const r = await CodeCache.open(file, tags);
      for (let i = 0; i < 2500; i++) r.set(`${blob(10_000 + run * 2500 + i)}:ts`, rec(i));
      await r.save();
    }
    const log = readFileSync(path.join(dir, 'code-index.log'), 'utf8');
    expect(log.length).toBeLessThan(1 << 20);
    const d = await CodeCache.open(file, tags);
    for (const n of [1, 10_000, 12_499, 19_999]) expect(d.get(`${blob(n)}:ts`), String(n)).toBeDefined();

    writeFileSync(path.join(dir, 'code-index.log'), '{"tool":"git-ctx/code-index-log","version":5,"tags":"other"}\n' + JSON.stringify(['e', `${blob(7)}:ts`, rec(7)]) + '\n');
    const e = await CodeCache.open(file, tags);
    expect(e.get(`${blob(7)}:ts`)).toBeUndefined();
  });
});
