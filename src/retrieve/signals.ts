// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { isGlob } from '../code/anchors.js';
import { compilePaths, entryCovers } from '../util/path-set.js';
import { normalizeRepoPath } from '../util/paths.js';
import type { Why } from './types.js';

/** One signal of an approximate lane: its strength in [0, 1] and the evidence. */
/** A signal's strength and why; a mention signal also says which mention, as data (what the record wrote, at which line of its file). */
export type Signal = { score: number; why: Why; mention?: { target: string; line: number } };

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const segs = (p: string) => (p ? p.split('/') : []);

/** Mentions signal: records whose text names the file (strong), or a directory or glob holding it (weaker). */
export function mentionSignals(set: ArtifactSet, path: string, symbol?: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  const depth = segs(dirOf(path)).length || 1;
  for (const a of set.artifacts) {
    if (!a.mentions?.length) continue;
    let best: Signal | undefined;
    // a record that names several folders lays out the code (`pkg/config` holds the data,
    // `pkg/types` the constants, `pkg/app` wires them): it says less of each than a record
    // that names one. Each folder's mention counts 1/√(folders named) (DEC-078)
    const folders = new Set(a.mentions.map((m) => normalizeRepoPath(m.target.replace(/#.*$/, ''))).filter((f) => !isGlob(f) && !/\.[A-Za-z0-9]+$/.test(f))).size;
    const perFolder = 1 / Math.sqrt(Math.max(1, folders));
    for (const m of a.mentions) {
      const hash = m.target.indexOf('#');
      const file = normalizeRepoPath(hash >= 0 ? m.target.slice(0, hash) : m.target);
      const sym = hash >= 0 ? m.target.slice(hash + 1) : undefined;
      let s = 0;
      if (file === path) s = sym && symbol && (sym === symbol || symbol.startsWith(sym + '.')) ? 1 : sym ? 0.7 : 0.9;
      else if (isGlob(file) ? entryCovers(file, path) : path.startsWith(file + '/')) s = perFolder * 0.5 * Math.min(1, segs(file.replace(/\/?\*.*$/, '')).length / depth);
      if (s > (best?.score ?? 0)) best = { score: s, why: { kind: 'mention', text: `mentions ${m.target} (${a.file}:${m.line})` }, mention: { target: m.target, line: m.line } };
    }
    if (best) out.set(a.id, best);
  }
  return out;
}

/** Nearness signal: records declared or mentioned for code in directories near the place (not covering it). */
export function nearnessSignals(set: ArtifactSet, path: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  const here = segs(dirOf(path));
  if (!here.length) return out;
  for (const a of set.artifacts) {
    const places = [...compilePaths(a.paths).includes, ...a.anchors.map((x) => x.replace(/#.*$/, '').replace(/:\d+(-\d+)?$/, '')), ...(a.mentions ?? []).map((m) => m.target.replace(/#.*$/, ''))];
    let best = 0;
    let where = '';
    for (const p of places) {
      const d = segs(dirOf(normalizeRepoPath(p).replace(/\/?\*.*$/, '/x')));
      let shared = 0;
      while (shared < d.length && shared < here.length && d[shared] === here[shared]) shared++;
      // a shared top folder alone (`src/`, `packages/`) is what most files share: not near
      if (shared < 2) continue;
      const c = shared / Math.max(here.length, d.length);
      if (c > best) {
        best = c;
        where = p;
      }
    }
    if (best > 0) out.set(a.id, { score: best, why: { kind: 'nearness', text: `about ${where}, near ${dirOf(path)}/` } });
  }
  return out;
}
