import type { Depth } from '../artifacts/types.js';
import { CtxError } from '../errors.js';
import { CatFileBatch, runGit } from '../git/exec.js';
import { resolveRevision } from '../snapshot/open.js';
import { cmp } from './traversal.js';
import { BUNDLE_SCHEMA_VERSION, type Bundle, type BundleOptions } from './types.js';

/** Bundle manifests are git notes under this ref: one JSON line per recorded bundle. */
export const NOTES_REF = 'refs/notes/ctx';
/** What `git notes --ref` takes (it prefixes refs/notes/ itself). */
const NOTES_NAME = 'ctx';

/** What a recorded bundle was made of: enough to rebuild it and to say what changed. */
export interface BundleManifest {
  schemaVersion: number;
  kind: 'git-ctx.bundle-manifest';
  root: string;
  commit: string;
  tool: string;
  options: BundleOptions;
  entries: { id: string; depth: Depth; file: string; blob: string }[];
  dropped: string[];
  global: Record<string, string>;
  digest: string;
}

/** The manifest of a bundle (for recording). */
export function manifestOf(b: Bundle): BundleManifest {
  if (!b.header.commit) throw new CtxError('USAGE', 'cannot record a bundle in a repository without commits');
  return {
    schemaVersion: BUNDLE_SCHEMA_VERSION,
    kind: 'git-ctx.bundle-manifest',
    root: b.header.root,
    commit: b.header.commit,
    tool: b.header.tool.version,
    options: b.header.options,
    entries: b.entries.map((e) => ({ id: e.id, depth: e.depth, file: e.file, blob: e.blob })),
    dropped: b.adjustments.filter((a) => a.action === 'dropped').map((a) => a.id),
    global: b.header.global,
    digest: b.header.digest,
  };
}

/** Parse a note: one JSON manifest per line; blank lines (git notes append adds them) and foreign lines are skipped. */
export function parseManifests(note: string): BundleManifest[] {
  const out: BundleManifest[] = [];
  for (const line of note.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const m = JSON.parse(t) as BundleManifest;
      if (m && m.kind === 'git-ctx.bundle-manifest' && typeof m.digest === 'string') out.push(m);
    } catch {
      /* a line someone else wrote into the note: not ours */
    }
  }
  return out;
}

const sameOptions = (a: BundleOptions, b: BundleOptions) =>
  a.depth === b.depth && a.budget === b.budget && a.encoding === b.encoding && a.maxDepth === b.maxDepth && a.global === b.global;

/** Manifests recorded on one commit (empty when there is no note). `commit` must be a resolved id. */
export async function readManifests(root: string, commit: string): Promise<BundleManifest[]> {
  // exit 1 = no note on this object: an empty answer, not a failure
  const out = await runGit(['notes', '--ref', NOTES_NAME, 'show', '--end-of-options', commit], { cwd: root, okCodes: [1] });
  return parseManifests(out);
}

/**
 * Record a bundle's manifest as a note on its commit. Refuses a dirty bundle: its content is
 * not that commit's, so a later replay could never match. Returns false when an identical
 * manifest (same root, options and digest) is already there.
 */
export async function recordBundle(root: string, b: Bundle): Promise<{ recorded: boolean; manifest: BundleManifest }> {
  if (b.header.dirty) {
    throw new CtxError('USAGE', `cannot record a bundle built from uncommitted changes (${b.header.dirtyFiles.join(', ') || 'no commit yet'})`, {
      hint: 'commit first, or build from a commit with --at <rev>',
    });
  }
  const m = manifestOf(b);
  const existing = await readManifests(root, m.commit);
  if (existing.some((x) => x.root === m.root && x.digest === m.digest && sameOptions(x.options, m.options))) return { recorded: false, manifest: m };
  // the manifest goes through stdin (-F -) and the commit is a resolved id after --end-of-options
  await runGit(['notes', '--ref', NOTES_NAME, 'append', '-F', '-', '--end-of-options', m.commit], { cwd: root, input: JSON.stringify(m) + '\n' });
  return { recorded: true, manifest: m };
}

/** Every recorded manifest, on one revision or (no rev) on all annotated commits, sorted by commit then root. */
export async function listManifests(root: string, rev?: string): Promise<BundleManifest[]> {
  if (rev !== undefined) return readManifests(root, await resolveRevision(root, rev));
  const hasRef = await runGit(['rev-parse', '--verify', '--quiet', NOTES_REF], { cwd: root, okCodes: [1] });
  if (!hasRef.trim()) return [];
  const list = await runGit(['notes', '--ref', NOTES_NAME, 'list'], { cwd: root });
  const pairs = list
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ') as [string, string]);
  const cat = new CatFileBatch(root);
  try {
    const notes = await Promise.all(pairs.map(([blob]) => cat.read(blob)));
    const out = notes.flatMap((n) => (n ? parseManifests(n.content.toString('utf8')) : []));
    return out.sort((a, b) => cmp(a.commit, b.commit) || cmp(a.root, b.root) || cmp(a.digest, b.digest));
  } finally {
    cat.close();
  }
}

/** The result of rebuilding one recorded bundle. */
export interface ReplayResult {
  manifest: BundleManifest;
  bundle: Bundle;
  ok: boolean;
  /** what differs, one line each (empty when ok) */
  differences: string[];
}

/** Explain a digest mismatch by comparing the manifest with the rebuilt bundle. */
export function compareWithManifest(m: BundleManifest, b: Bundle): ReplayResult {
  const differences: string[] = [];
  if (b.header.digest !== m.digest) {
    differences.push(`digest ${m.digest} recorded, ${b.header.digest} rebuilt`);
    const now = new Map(b.entries.map((e) => [e.id, e]));
    const then = new Map(m.entries.map((e) => [e.id, e]));
    for (const e of m.entries) {
      const x = now.get(e.id);
      if (!x) differences.push(`${e.id}: was included, now missing`);
      else {
        if (x.blob !== e.blob) differences.push(`${e.id}: content changed (${e.blob.slice(0, 12)} → ${x.blob.slice(0, 12)})`);
        if (x.depth !== e.depth) differences.push(`${e.id}: depth ${e.depth} → ${x.depth}`);
      }
    }
    for (const e of b.entries) if (!then.has(e.id)) differences.push(`${e.id}: now included, was not`);
    for (const [f, h] of Object.entries(m.global)) if (b.header.global[f] !== h) differences.push(`global ${f}: content changed or missing`);
    if (m.tool !== b.header.tool.version) differences.push(`tool version ${m.tool} recorded, ${b.header.tool.version} now (assembly rules may have changed)`);
  }
  return { manifest: m, bundle: b, ok: differences.length === 0, differences };
}
