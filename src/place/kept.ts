// @spec SPEC-SCALE-001

import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { memo, type Memo } from '../cache/memo.js';
import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';
import { indexStamp, treeShortcuts } from '../tree/state.js';
import type { WorktreeTree } from '../tree/worktree.js';
import { keyDigest } from '../util/key-digest.js';
import { VERSION } from '../version.js';

/**
 * Kept place answers (DEC-062): the answer to one question about one place (`trace <file>`,
 * `for <file>`, the agent's file-read hook), kept in the cache registry (`place-answer`) so
 * that asking again reads one small entry instead of loading the records, the code index and
 * the retrieval lanes.
 *
 * An entry answers for what the answer was computed from, which the tree module and the
 * snapshot can say: the code that answered (the package version and the file it runs from:
 * a change of scoring ships as a new build, and a new build is a new key), the question
 * (command, place, options), HEAD, the git index's stamp (the tracked listing, staged blob
 * ids: mentions, the code graph, code words), the GIT_CTX_* environment, and every file and
 * folder of the working tree the answer read through the snapshot (the place, the
 * package.json files above it, the records, the config, the files a walk reached), each by
 * its stat. A kept answer is served only when all of them are as they were; anything the
 * snapshot did not see (a whole-tree listing, the evidence store) makes an answer not kept.
 *
 * Racy files: a file changed within the same tick of the clock as the stat taken of it could
 * change again without its stat changing. An answer that read a file or folder changed in
 * the last RACY_MS is therefore not kept (the next question keeps it), as git treats an index
 * entry as racily clean.
 */
export const RACY_MS = 1000;

/**
 * An answer that read more files than this (a tree-wide statistic computed afresh, such as
 * the code words on a first run) is not kept: checking every stat would cost about what the
 * next answer costs from warm caches, which is then kept with the few files it reads.
 */
const MAX_DEPS = 5000;

/** What a kept entry holds: the answer and the stat of everything it read. */
interface KeptEntry<V> {
  /** [repository path, stat signature]; a folder's path ends with `/` */
  deps: [string, string][];
  answer: V;
}

/** The question asked: its command, its place, and whatever else it is a function of (options). */
export interface PlaceQuestion {
  command: 'trace' | 'for' | 'agent-read' | 'search' | 'search-set';
  /** the place asked about; for `search`, the question's words; for `search-set` (what searches read of the set: search-set.ts), nothing */
  place: string;
  options?: unknown;
}

let code: string | undefined;
/**
 * The code that answers: the package version and the stat of the file this module runs
 * from (the CLI bundle, rebuilt whole by every build; the module itself under tsc or the
 * tests). An answer kept by other code is never served.
 */
function codeIdentity(): string {
  if (code !== undefined) return code;
  let self = '';
  try {
    const st = statSync(fileURLToPath(import.meta.url), { bigint: true });
    self = `${st.size}:${st.mtimeNs}:${st.ino}`;
  } catch {
    /* not on disk (bundled elsewhere): the version alone */
  }
  return (code = `${VERSION}:${self}`);
}

/** A setting holding a credential (an embedding provider's API key, a token): never written to a cache file. */
const SECRET = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/;

/**
 * The GIT_CTX_* settings an answer may depend on (timings only report), as the key stores them:
 * a credential by its SHA-256 only, so a new key still asks afresh but the key itself never
 * reaches .git/ctx. node:crypto is loaded only when such a setting is set (a provider is in use).
 */
export function environment(env: NodeJS.ProcessEnv): string {
  return Object.keys(env)
    .filter((k) => k.startsWith('GIT_CTX_') && k !== 'GIT_CTX_TIMINGS')
    .sort()
    .map((k) => (SECRET.test(k) && env[k] ? `${k}#${process.getBuiltinModule('node:crypto').createHash('sha256').update(env[k]).digest('hex')}` : `${k}=${env[k]}`))
    .join('\0');
}

function keyOf(root: string, commit: string | undefined, q: PlaceQuestion, env: NodeJS.ProcessEnv): string | undefined {
  const stamp = indexStamp(root);
  if (!stamp) return undefined;
  return JSON.stringify([codeIdentity(), q.command, q.place, q.options ?? null, commit ?? null, stamp, environment(env)]);
}

function memoOf<V>(root: string, q: PlaceQuestion): Memo<KeptEntry<V>> {
  if (q.command === 'search-set') return memo<KeptEntry<V>>(root, 'search-set');
  // a place has one file of its own (bounded by the tree); the words of searches are
  // unbounded, so they share 256 files by a digest (one question kept per file)
  return memo<KeptEntry<V>>(root, 'place-answer', q.command === 'search' ? `search-${keyDigest(q.place).slice(0, 2)}` : `${q.command}-${q.place}`);
}

/** Whether answers may be kept at all: the tree module's shortcuts on (GIT_CTX_TREE=git asks everything afresh). */
export function keepingOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return treeShortcuts(env);
}

/** A file's or folder's stat, as compared: size, modification and change times, inode; `-` when absent. */
function signature(abs: string): { sig: string; changedMs: number } {
  // times as float milliseconds (sub-microsecond steps at today's dates): a warm question
  // stats hundreds of files, and bigint stats cost about twice as much
  const st = lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return { sig: '-', changedMs: 0 };
  const kind = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'f';
  return { sig: `${kind}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`, changedMs: Math.max(st.mtimeMs, st.ctimeMs) };
}

/**
 * The answer kept for this question, when everything it was computed from is as it was;
 * undefined otherwise (never an error: a miss costs only the work).
 */
export function keptAnswer<V>(root: string, commit: string | undefined, q: PlaceQuestion, env: NodeJS.ProcessEnv = process.env): V | undefined {
  if (!keepingOn(env)) return undefined;
  const key = keyOf(root, commit, q, env);
  if (!key) return undefined;
  const m = memoOf<V>(root, q);
  if (!m.on) return undefined;
  const e = m.get(key);
  if (!e || !Array.isArray(e.deps)) return undefined;
  // the paths are the repository's own (no `..`, `/`-separated): joined without normalising
  // each of the hundreds a warm question stats
  const top = root.endsWith(path.sep) ? root : root + path.sep;
  for (const [p, sig] of e.deps) if (signature(top + (p.endsWith('/') ? p.slice(0, -1) : p)).sig !== sig) return undefined;
  return e.answer;
}

/**
 * A snapshot that notes what an answer reads from the working tree: files read or looked up
 * by blob, folders listed. A listing of the whole tree makes the answer not keepable (its
 * stat would be every file's).
 */
export class RecordingSnapshot implements Snapshot {
  readonly kind;
  readonly root;
  readonly commit;
  readonly backend;
  readonly files = new Set<string>();
  readonly folders = new Set<string>();
  whole = false;
  private wrappedTree: WorktreeTree | undefined;

  constructor(readonly inner: Snapshot) {
    this.kind = inner.kind;
    this.root = inner.root;
    this.commit = inner.commit;
    this.backend = inner.backend;
  }
  list(): Promise<SnapshotEntry[]> {
    this.whole = true;
    return this.inner.list();
  }
  listPaths(): Promise<string[]> {
    this.whole = true;
    return this.inner.listPaths ? this.inner.listPaths() : this.inner.list().then((es) => es.map((e) => e.path));
  }
  listUnder(prefix: string): Promise<SnapshotEntry[]> {
    this.folders.add(prefix);
    return this.inner.listUnder(prefix);
  }
  read(p: string): Promise<Buffer | undefined> {
    this.files.add(p);
    return this.inner.read(p);
  }
  readMany(paths: string[]): Promise<(Buffer | undefined)[]> {
    for (const p of paths) this.files.add(p);
    return this.inner.readMany(paths);
  }
  blobOf(p: string): Promise<string | undefined> {
    this.files.add(p);
    return this.inner.blobOf(p);
  }
  prefetch(paths: string[]): void {
    this.inner.prefetch?.(paths);
  }
  /** The working tree's state; a folder asked about (whether it is clean) is read. */
  get tree(): WorktreeTree | undefined {
    const t = this.inner.tree;
    if (!t) return undefined;
    this.wrappedTree ??= new Proxy(t, {
      get: (target, prop, receiver) => {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        if (prop === 'cleanListing') return (dir: string) => (this.folders.add(dir.replace(/\/+$/, '')), target.cleanListing(dir));
        if (prop === 'load') return (prefix?: string | string[]) => (prefix === undefined ? (this.whole = true) : [prefix].flat().forEach((p) => this.folders.add(p)), target.load(prefix));
        return (v as (...a: unknown[]) => unknown).bind(target);
      },
    });
    return this.wrappedTree;
  }
  close(): void {
    this.inner.close();
  }
}

/** Every folder and file under `dir` (not following links, not into .git), with the folder itself. */
function walk(root: string, dir: string, out: string[]): void {
  out.push(dir ? `${dir}/` : '');
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name === '.git') continue;
    const p = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) walk(root, p, out);
    else out.push(p);
  }
}

/**
 * Keep `answer` for the question, with the stat of everything `rec` saw it read. Not kept
 * when the answer read the whole tree, a file changed too recently to be told apart from a
 * later change (RACY_MS before `startedMs`), or the index changed while it was computed.
 * Returns whether it was kept.
 */
export function keepAnswer<V>(rec: RecordingSnapshot, q: PlaceQuestion, answer: V, startedMs: number, stampBefore: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!keepingOn(env) || rec.whole || !stampBefore) return false;
  const root = rec.root;
  const key = keyOf(root, rec.commit, q, env);
  // the index changed while answering: the answer may be of either
  if (!key || indexStamp(root) !== stampBefore) return false;
  const paths = new Set<string>(rec.files);
  for (const f of rec.folders) {
    const dir = f.replace(/\/+$/, '');
    // the top level as a records folder: its stat would be every file's
    if (!dir || dir === '.') return false;
    const found: string[] = [];
    walk(root, dir, found);
    for (const p of found) paths.add(p);
  }
  if (paths.size > MAX_DEPS) return false;
  const deps: [string, string][] = [];
  for (const p of [...paths].sort()) {
    const { sig, changedMs } = signature(path.join(root, p));
    if (changedMs >= startedMs - RACY_MS) return false;
    deps.push([p, sig]);
  }
  return memoOf<V>(root, q).set(key, { deps, answer });
}
