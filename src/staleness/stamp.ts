import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { updateFrontmatter, type FrontmatterEdit } from '../artifacts/write.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import { CtxError } from '../errors.js';
import type { Snapshot } from '../snapshot/types.js';
import { currentFingerprints, judgeArtifacts } from './judge.js';
import type { ArtifactJudgement } from './types.js';

export interface StampOptions {
  /** where fingerprints are read: the working tree, or the index (`--staged`) */
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** artifacts to stamp; 'all' = every repository artifact that has anchors */
  ids: string[] | 'all';
  /** only re-stamp moved anchors (rename fingerprint keys, rewrite moved `anchors:` entries) */
  fix?: boolean;
  index?: CodeIndex;
}

export interface StampResult {
  id: string;
  file: string;
  /** the file's bytes changed */
  changed: boolean;
  /** what was done: stamped, fixed, skipped */
  action: 'stamped' | 'fixed' | 'skipped';
  commit?: string;
  fingerprints?: Record<string, string>;
  /** anchors that could not be fingerprinted (dead anchors; not written) */
  unresolved: string[];
  /** moves applied by --fix */
  moves?: { from: string; to: string }[];
  reason?: string;
}

/**
 * Write `stamp.commit` (HEAD) and the fingerprint of every anchor into artifacts, surgically
 * (only the stamp lines change; comments, key order and the body are kept). Files are
 * always written in the working tree, whichever snapshot the fingerprints come from.
 */
export async function stampArtifacts(opts: StampOptions): Promise<StampResult[]> {
  const { snapshot, config, set } = opts;
  const head = snapshot.commit;
  if (!head) throw new CtxError('USAGE', 'cannot stamp: the repository has no commit yet', { hint: 'commit once, then stamp' });
  const index = opts.index ?? (await buildCodeIndex(snapshot, config));
  const targets: Artifact[] = opts.ids === 'all' ? [...set.byId.values()].filter((a) => a.origin === 'repo') : opts.ids.map((id) => set.byId.get(id)!).filter(Boolean);
  for (const a of targets) if (a.origin !== 'repo') throw new CtxError('USAGE', `${a.id} is a global artifact; stamps are written only into repository artifacts`);
  const results: StampResult[] = [];
  if (opts.fix) {
    const report = await judgeArtifacts({ snapshot, config, set, index, ids: targets.map((a) => a.id) });
    for (const j of report.artifacts) results.push(await fixOne(snapshot.root, set.byId.get(j.id)!, j, head));
    return results;
  }
  for (const a of targets) {
    const { fingerprints, unresolved } = await currentFingerprints(a, snapshot, index);
    if (!Object.keys(fingerprints).length) {
      results.push({ id: a.id, file: a.file, changed: false, action: 'skipped', unresolved, reason: unresolved.length ? 'no anchor resolves now (dead anchors)' : 'unanchored: no anchors, paths or annotations' });
      continue;
    }
    const r = await updateFrontmatter(path.join(snapshot.root, a.file), [{ op: 'set', path: ['stamp'], value: { commit: head, fingerprints: sortKeys(fingerprints) } }]);
    results.push({ id: a.id, file: a.file, changed: r.changed, action: 'stamped', commit: head, fingerprints, unresolved });
  }
  await index.flush();
  return results;
}

function sortKeys(r: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * `stamp --fix`: moved anchors get their fingerprint key renamed to where the content is
 * now, and a moved `anchors:` entry is rewritten in place. Stale anchors keep their old
 * fingerprints (fixing a move must not launder drift); the commit moves to HEAD only
 * when nothing stale remains.
 */
async function fixOne(root: string, a: Artifact, j: ArtifactJudgement, head: string): Promise<StampResult> {
  const moved = j.anchors.filter((v) => v.state === 'moved' && v.movedTo);
  const base: StampResult = { id: a.id, file: a.file, changed: false, action: 'skipped', unresolved: [] };
  if (!moved.length) return { ...base, reason: `nothing moved (${j.status})` };
  const stillStale = j.status === 'stale';
  const old = a.stamp?.fingerprints ?? {};
  const fps: Record<string, string> = {};
  if (j.method === 'fingerprints') {
    const renames = new Map(moved.map((v) => [v.anchor, v.movedTo!]));
    for (const [k, v] of Object.entries(old)) fps[renames.get(k) ?? k] = v;
  } else {
    // judged by history: nothing was stamped before; stamp what is verified unchanged
    for (const v of j.anchors) if ((v.state === 'ok' || v.state === 'moved') && v.after) fps[v.movedTo ?? v.anchor] = v.after;
  }
  const edits: FrontmatterEdit[] = [];
  const declared = a.anchors.map((x) => x.trim());
  const rewritten = declared.map((x) => moved.find((v) => v.anchor === x)?.movedTo ?? x);
  if (rewritten.some((x, i) => x !== declared[i])) edits.push({ op: 'set', path: ['anchors'], value: rewritten });
  const commit = stillStale ? (a.stamp?.commit ?? head) : head;
  edits.push({ op: 'set', path: ['stamp'], value: { commit, fingerprints: sortKeys(fps) } });
  const r = await updateFrontmatter(path.join(root, a.file), edits);
  return { ...base, changed: r.changed, action: 'fixed', commit, fingerprints: fps, moves: moved.map((v) => ({ from: v.anchor, to: v.movedTo! })), reason: stillStale ? 'moves fixed; stale anchors left as they were' : undefined };
}
