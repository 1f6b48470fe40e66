import { describe, expect, it } from 'vitest';
import { DefaultEmbedder, dot } from '../../src/semantic/embedder.js';

describe('default embedder space: cosine in one pass', () => {
  it('gives exactly the numbers of three dot products (bit for bit)', () => {
    const e = new DefaultEmbedder();
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const vec = () => Float32Array.from({ length: e.dims }, rnd);
    const records = Array.from({ length: 40 }, vec);
    const space = e.space(records);
    const u = Float32Array.from(space.state ?? []);
    expect(u.length).toBe(e.dims);
    const q = space.project(vec());
    for (const v of records) {
      const vu = dot(v, u);
      const n2 = dot(v, v) - vu * vu;
      const want = n2 > 1e-12 ? dot(q, v) / Math.sqrt(n2) : 0;
      expect(Object.is(space.cosine(q, v), want)).toBe(true);
    }
  });
});
