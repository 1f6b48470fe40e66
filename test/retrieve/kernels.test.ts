import { describe, expect, it } from 'vitest';
import { KERNEL_MODULE, kernelModuleBytes, scoringKernels } from '../../src/retrieve/kernels.js';
import { KeywordCacheDamaged, scoreLists } from '../../src/retrieve/bm25.js';
import { seeded } from '../helpers/seeded.js';

describe('scoring kernels (WebAssembly, DEC-042)', () => {
  it('assemble into a module WebAssembly validates', () => {
    const wasm = (globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } }).WebAssembly;
    expect(wasm.validate(kernelModuleBytes())).toBe(true);
    // the module the kernels run is the one assembled here
    expect(Buffer.from(KERNEL_MODULE, 'base64')).toEqual(Buffer.from(kernelModuleBytes()));
    expect(scoringKernels()).toBeDefined();
    expect(scoringKernels({ GIT_CTX_WASM: '0' })).toBeUndefined();
  });

  it('BM25 over postings: bit for bit the JavaScript loop, and the same first-reach order', () => {
    const k = scoringKernels()!;
    for (let seed = 1; seed <= 40; seed++) {
      const r = seeded(seed);
      const n = 1 + Math.floor(r() * 3000);
      const dens = Float64Array.from({ length: n }, () => 1.2 * (0.25 + 0.75 * r() * 4));
      const lists = Array.from({ length: 1 + Math.floor(r() * 5) }, () => {
        const docs = [...new Set(Array.from({ length: Math.floor(r() * n) }, () => Math.floor(r() * n)))].sort((a, b) => a - b);
        const p = new Uint32Array(docs.length * 2);
        docs.forEach((d, i) => {
          p[2 * i] = d;
          p[2 * i + 1] = 1 + Math.floor(r() * (seed % 3 ? 20 : 4_000_000));
        });
        return { w: r() * 7 - 1, p };
      });
      const js = scoreLists(lists, dens, n, 2.2, undefined);
      const wasm = scoreLists(lists, dens, n, 2.2, k);
      expect(Buffer.from(wasm.scores.buffer)).toEqual(Buffer.from(js.scores.buffer));
      expect(wasm.docs).toEqual(js.docs);
    }
    // plain arrays (an index built in memory) as well as typed ones
    const lists = [{ w: 1.5, p: [0, 3, 2, 1] }];
    expect(scoreLists(lists, [1.1, 0.9, 1.3], 3, 2.2, k)).toEqual(scoreLists(lists, [1.1, 0.9, 1.3], 3, 2.2, undefined));
  });

  it('a posting naming no document is a damaged index, with the kernel or without', () => {
    const lists = [{ w: 1, p: new Uint32Array([0, 1, 5, 1]) }];
    expect(() => scoreLists(lists, [1, 1, 1], 3, 2.2, scoringKernels())).toThrow(KeywordCacheDamaged);
    expect(() => scoreLists(lists, [1, 1, 1], 3, 2.2, undefined)).toThrow(KeywordCacheDamaged);
  });

  it('cosines over a vector plan: bit for bit the JavaScript loop (zero and NaN norms give 0)', () => {
    const k = scoringKernels()!;
    for (let seed = 1; seed <= 20; seed++) {
      const r = seeded(seed * 7);
      const dims = 1 + Math.floor(r() * 120);
      const count = 1 + Math.floor(r() * 300);
      const n = 1 + Math.floor(r() * 400);
      const q = Float32Array.from({ length: dims }, () => r() * 2 - 1);
      const vectors = Float32Array.from({ length: count * dims }, () => r() * 2 - 1);
      const rows = Uint32Array.from({ length: n }, () => Math.floor(r() * count));
      const norms = Float64Array.from({ length: n }, (_, i) => (i % 17 === 0 ? 0 : i % 23 === 0 ? NaN : r() * 3));
      const want = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let d = 0; d < dims; d++) s += q[d]! * vectors[rows[i]! * dims + d]!;
        want[i] = norms[i]! > 0 ? s / norms[i]! : 0;
      }
      const qAt = 0;
      const vAt = dims * 4;
      const rowsAt = vAt + vectors.length * 4;
      const normsAt = (rowsAt + n * 4 + 7) & ~7;
      const outAt = normsAt + n * 8;
      const buf = k.reserve(outAt + n * 8)!;
      new Float32Array(buf, qAt, dims).set(q);
      new Float32Array(buf, vAt, vectors.length).set(vectors);
      new Uint32Array(buf, rowsAt, n).set(rows);
      new Float64Array(buf, normsAt, n).set(norms);
      k.cosines(qAt, vAt, rowsAt, normsAt, n, dims, outAt);
      expect(Buffer.from(buf.slice(outAt, outAt + n * 8))).toEqual(Buffer.from(want.buffer));
    }
  });
});
