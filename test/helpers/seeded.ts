/**
 * Deterministic pseudo-random numbers in [0, 1) from `seed` (mulberry32), so that a test
 * built on random input reproduces exactly. bench/lib/common.mjs has the same generator for
 * the benches (plain JavaScript, run without a build).
 */
export function seeded(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
