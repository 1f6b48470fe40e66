import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact, Stamp } from '../artifacts/types.js';
import { stampLine, stampsInSidecar, updateSidecarStamps } from '../artifacts/sources/stamps.js';
import { readFile } from 'node:fs/promises';
import { editFrontmatterText, updateFrontmatter, type FrontmatterEdit } from '../artifacts/write.js';
import { CommitSnapshot } from '../snapshot/git-snapshot.js';
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
  /** compute what would be written, write nothing */
  dryRun?: boolean;
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
  /**
   * anchored files whose content in the snapshot read differs from HEAD (uncommitted or
   * staged edits): their fingerprints are of that content, so the verdict is right once
   * they are committed
   */
  dirty?: string[];
  /** with dryRun: the frontmatter text that would be written (when it changes) */
  preview?: string;
  /**
   * where the stamp was written when not into the artifact's own file: the stamps sidecar
   * of records read in place (their file is never rewritten)
   */
  stampFile?: string;
  /** the stamped anchors that are `mentioned` ones (code named in the record's text) */
  mentioned?: number;
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
  // records read in place: their stamps are collected and written once, into the sidecar
  const sidecar = new Map<string, Stamp>();
  const write: Writer = async (a, edits) => {
    if (!stampsInSidecar(a)) return opts.dryRun ? previewEdits(snapshot.root, a, edits) : updateFrontmatter(path.join(snapshot.root, a.file), edits);
    const st = edits.find((e) => e.op === 'set' && e.path.length === 1 && e.path[0] === 'stamp');
    if (st && st.op === 'set') sidecar.set(a.id, st.value as Stamp);
    const before = a.stamp ? stampLine(a.id, a.stamp) : '';
    const after = st && st.op === 'set' ? stampLine(a.id, st.value as Stamp) : before;
    return { changed: after !== before, after, ...(opts.dryRun ? { dry: true } : {}), sidecar: true };
  };
  const flushSidecar = async () => {
    if (!sidecar.size) return;
    const r = await updateSidecarStamps(snapshot.root, config.dir, sidecar, { dryRun: opts.dryRun });
    for (const x of results) if (sidecar.has(x.id) && set.byId.get(x.id) && stampsInSidecar(set.byId.get(x.id)!)) x.stampFile = r.file;
  };
  if (opts.fix) {
    const report = await judgeArtifacts({ snapshot, config, set, index, ids: targets.map((a) => a.id) });
    for (const j of report.artifacts) results.push(await fixOne(set.byId.get(j.id)!, j, head, write));
    await flushSidecar();
    return results;
  }
  const headSnap = snapshot.kind === 'commit' ? undefined : new CommitSnapshot(snapshot.root, head);
  try {
    for (const a of targets) {
      const { fingerprints, unresolved, files } = await currentFingerprints(a, snapshot, index);
      if (!Object.keys(fingerprints).length) {
        results.push({ id: a.id, file: a.file, changed: false, action: 'skipped', unresolved, reason: unresolved.length ? 'no anchor resolves now (dead anchors)' : 'unanchored: no anchors, paths or annotations' });
        continue;
      }
      const dirty: string[] = [];
      if (headSnap) for (const f of files) if ((await snapshot.blobOf(f)) !== (await headSnap.blobOf(f))) dirty.push(f);
      const r = await write(a, [{ op: 'set', path: ['stamp'], value: { commit: head, fingerprints: sortKeys(fingerprints) } }]);
      const mentioned = stampsInSidecar(a) ? Object.keys(fingerprints).filter((k) => (a.mentions ?? []).some((m) => m.target === k)).length : 0;
      results.push({ id: a.id, file: a.file, changed: r.changed, action: 'stamped', commit: head, fingerprints, unresolved, ...(mentioned ? { mentioned } : {}), ...(dirty.length ? { dirty } : {}), ...(opts.dryRun && r.changed ? { preview: r.after } : {}) });
    }
    await flushSidecar();
  } finally {
    headSnap?.close();
  }
  await index.flush();
  return results;
}

type Writer = (a: Artifact, edits: FrontmatterEdit[]) => Promise<{ changed: boolean; after: string; dry?: boolean; sidecar?: boolean }>;

/** What updateFrontmatter would write, without writing (for --dry-run). */
async function previewEdits(root: string, a: Artifact, edits: FrontmatterEdit[]): Promise<{ changed: boolean; after: string; dry: true }> {
  const file = path.join(root, a.file);
  const before = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new CtxError('IO', `cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`, { cause: e, file });
  });
  const after = editFrontmatterText(before, edits, file);
  return { changed: after !== before, after, dry: true };
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
async function fixOne(a: Artifact, j: ArtifactJudgement, head: string, write: Writer): Promise<StampResult> {
  const moved = j.anchors.filter((v) => v.state === 'moved' && v.movedTo);
  const base: StampResult = { id: a.id, file: a.file, changed: false, action: 'skipped', unresolved: [] };
  if (!moved.length) return { ...base, reason: `nothing moved (${j.status})` };
  const stillStale = j.status === 'stale';
  const old = a.stamp?.fingerprints ?? {};
  const fps: Record<string, string> = {};
  if (j.method === 'fingerprints') {
    // a moved anchor's fingerprint is its content now (the same text; for globs and
    // directories the same files, laid out anew)
    const moves = new Map(moved.map((v) => [v.anchor, v]));
    for (const [k, v] of Object.entries(old)) {
      const m = moves.get(k);
      fps[m ? m.movedTo! : k] = m?.after ?? v;
    }
  } else {
    // judged by history: nothing was stamped before; stamp what is verified unchanged
    for (const v of j.anchors) if ((v.state === 'ok' || v.state === 'moved') && v.after) fps[v.movedTo ?? v.anchor] = v.after;
  }
  const edits: FrontmatterEdit[] = [];
  const declared = a.anchors.map((x) => x.trim());
  const rewritten = declared.map((x) => moved.find((v) => v.anchor === x)?.movedTo ?? x);
  // a record read in place is never rewritten: its moved mentions are followed in its stamp only
  if (!stampsInSidecar(a) && rewritten.some((x, i) => x !== declared[i])) edits.push({ op: 'set', path: ['anchors'], value: rewritten });
  const commit = stillStale ? (a.stamp?.commit ?? head) : head;
  edits.push({ op: 'set', path: ['stamp'], value: { commit, fingerprints: sortKeys(fps) } });
  const r = await write(a, edits);
  const moves = moved.flatMap((v) => (v.movedTo !== v.anchor ? [{ from: v.anchor, to: v.movedTo! }] : (v.files ?? []).filter((f) => f.change === 'moved').map((f) => ({ from: f.from!, to: f.path }))));
  return { ...base, changed: r.changed, action: 'fixed', commit, fingerprints: fps, moves, reason: stillStale ? 'moves fixed; stale anchors left as they were' : undefined, ...(r.dry && r.changed ? { preview: r.after } : {}) };
}
