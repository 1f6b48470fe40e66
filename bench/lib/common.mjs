// What every bench shares: where the built CLI is, flag parsing, and a seeded generator so
// each run builds the same repository.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/git-ctx.js');
export const KEEP = process.argv.includes('--keep');

/** Exit 2 unless `npm run build` has produced `file` (relative to the repository). */
export function requireBuild(file = 'dist/cli/main.js') {
  if (!existsSync(path.join(ROOT, file))) {
    console.error('dist/ is missing: run npm run build first');
    process.exit(2);
  }
}

/** A numeric flag: `--runs 5` → 5, or `def` when absent. */
export function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/** Deterministic pseudo-random numbers (mulberry32) from `seed`, and a picker over them. */
export function seeded(seed) {
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { rand, pick: (xs) => xs[Math.floor(rand() * xs.length)] };
}

/**
 * CPU time (ms, user + sys) of this process's finished children, git's included, from /proc on
 * Linux (NaN elsewhere): on a busy machine wall time measures the neighbours, CPU time measures us.
 */
export function childCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[13]) + Number(f[14])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}
