// @spec SPEC-FEDERATION-001

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { sha256 } from '../util/hash.js';
import { ctxDir } from './git-dir.js';
import { runGit, splitZ } from './exec.js';

/**
 * Another repository's records, fetched at a pinned commit into a git object store of this
 * clone (`<git-dir>/ctx/sources/<name>-<hash>.git`, a bare repository per upstream). The
 * store is storage, not a cache: it holds what the lock pins and is read offline; only
 * fetching and asking the upstream about its refs reach the network (DEC-061).
 */
export interface SourceStore {
  /** the store's git directory */
  gitDir: string;
  /** the upstream as git is given it (an absolute path for a path source) */
  url: string;
  /** the source's name, for messages */
  name: string;
}

/** How git reaches an upstream that needs credentials (the Action's token). */
export interface FetchAuth {
  /** an HTTP Authorization header value, sent only to the upstream's host */
  header?: string;
}

const HEX40 = /^[0-9a-f]{40}$/;

/** Is a ref written as a full commit id (nothing to resolve)? */
export function isCommitId(ref: string): boolean {
  return HEX40.test(ref);
}

/**
 * The upstream as git is given it: a URL as written; a path (absolute, or relative to the
 * repository's top level, where config.yaml's other paths are relative to) made absolute,
 * since git runs inside the store.
 */
export function upstreamUrl(root: string, git: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(git) || /^[^/\\]+@[^/\\:]+:/.test(git)) return git;
  return path.resolve(root, git);
}

/** Where a source's store is: one bare repository per name and upstream. */
export function sourceStore(root: string, name: string, git: string): SourceStore {
  const url = upstreamUrl(root, git);
  const base = ctxDir(root, 'sources');
  if (!base) throw new CtxError('NOT_A_REPO', `source ${name}: ${root} is not a git repository; a git source is fetched into its .git/ctx`);
  const slug = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  return { gitDir: path.join(base, `${slug}-${sha256(url).slice(0, 12)}.git`), url, name };
}

/**
 * git inside the store only: the variables a hook runs with (GIT_DIR, GIT_INDEX_FILE…)
 * would otherwise point it at the repository being committed to.
 */
function storeEnv(store: SourceStore, auth?: FetchAuth): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { GIT_DIR: store.gitDir, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined, GIT_OBJECT_DIRECTORY: undefined, GIT_ALTERNATE_OBJECT_DIRECTORIES: undefined, GIT_COMMON_DIR: undefined, GIT_NAMESPACE: undefined, GIT_PREFIX: undefined };
  const header = auth?.header;
  if (header && /^https?:\/\//i.test(store.url)) {
    // through the environment, not the command line (where other users of the machine could read it)
    const u = new URL(store.url);
    Object.assign(env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.${u.protocol}//${u.host}/.extraheader`, GIT_CONFIG_VALUE_0: `Authorization: ${header}` });
  }
  return env;
}

function git(store: SourceStore, args: string[], opts: { input?: string; buffer?: boolean; auth?: FetchAuth; okCodes?: number[] } = {}): Promise<string> {
  return runGit(args, { cwd: store.gitDir, env: storeEnv(store, opts.auth), ...(opts.input !== undefined ? { input: opts.input } : {}), ...(opts.okCodes ? { okCodes: opts.okCodes } : {}) });
}

/** One clear sentence for a failure to reach the upstream: what, which source, and what to do. */
function reachError(store: SourceStore, what: string, e: unknown): CtxError {
  const msg = e instanceof Error ? e.message : String(e);
  const lines = msg.split('\n').map((l) => l.replace(/^git \S+ failed: /, '').trim()).filter(Boolean);
  const why = lines.find((l) => /^fatal:/.test(l)) ?? lines.find((l) => /^(error|remote):/.test(l)) ?? lines[0] ?? 'git failed';
  const creds = /terminal prompts disabled|could not read (Username|Password)|Authentication failed|401|403|Permission denied \(publickey/i.test(msg);
  const reason = creds ? 'credentials are missing or refused' : why.replace(/^fatal:\s*/, '');
  return new CtxError('SOURCE', `source ${store.name}: cannot ${what} ${store.url}: ${reason}`, {
    cause: e,
    hint: creds ? 'give git credentials for the host (a credential helper, or the Action\'s token input)' : 'check the source\'s git: URL and that the upstream is reachable',
  });
}

/** Create the store (a bare repository whose one remote is the upstream, fetched partially where the server allows). */
async function ensureStore(store: SourceStore): Promise<void> {
  if (!existsSync(path.join(store.gitDir, 'HEAD'))) {
    await mkdir(store.gitDir, { recursive: true });
    await runGit(['init', '--bare', '-q', store.gitDir], { cwd: path.dirname(store.gitDir), env: storeEnv(store) });
    // a promisor remote: git may then fetch commits and trees without their blobs, and the
    // blobs of the one folder after (servers that do not filter send everything instead)
    for (const [k, v] of [
      ['remote.origin.url', store.url],
      ['remote.origin.promisor', 'true'],
      ['remote.origin.partialclonefilter', 'blob:none'],
      ['extensions.partialClone', 'origin'],
      ['core.repositoryformatversion', '1'],
      ['gc.auto', '0'],
    ] as const) await git(store, ['config', k, v]);
  } else await git(store, ['config', 'remote.origin.url', store.url]);
}

/** The commit a ref names at the upstream (a full commit id is its own answer, checked when fetched). */
export async function resolveRef(store: SourceStore, ref: string, auth?: FetchAuth): Promise<string> {
  if (isCommitId(ref)) return ref;
  let out: string;
  try {
    await ensureStore(store);
    out = await runGit(['ls-remote', '--', store.url, ref, `${ref}^{}`], { cwd: path.dirname(store.gitDir), env: storeEnv(store, auth) });
  } catch (e) {
    throw reachError(store, 'ask', e);
  }
  const rows = out.split('\n').filter(Boolean).map((l) => l.split('\t') as [string, string]);
  // an annotated tag names its commit on the peeled line
  const want = (n: string) => n === ref || n === `refs/heads/${ref}` || n === `refs/tags/${ref}`;
  const peeled = rows.find(([, n]) => n.endsWith('^{}') && want(n.slice(0, -3)));
  const exact = rows.find(([, n]) => want(n)) ?? rows.find(([, n]) => n.endsWith(`/${ref}`));
  const hit = peeled ?? exact;
  if (!hit) throw new CtxError('SOURCE', `source ${store.name}: ${store.url} has no branch or tag ${JSON.stringify(ref)}`, { hint: 'set ref: to a branch, a tag or a full commit id of the upstream' });
  return hit[0];
}

/** Is the commit and every blob of its folder in the store (readable with no network)? */
export async function hasPinned(store: SourceStore, commit: string, dir: string): Promise<boolean> {
  if (!existsSync(path.join(store.gitDir, 'HEAD'))) return false;
  const ok = await git(store, ['cat-file', '-e', `${commit}^{commit}`], { okCodes: [1, 128] }).then(() => true, () => false);
  if (!ok) return false;
  return (await missingBlobs(store, commit, dir).catch(() => ['?'])).length === 0;
}

/** Blobs of the folder at the commit that the store lacks (a partial fetch brought their trees only). */
async function missingBlobs(store: SourceStore, commit: string, dir: string): Promise<string[]> {
  const listed = await listPinned(store, commit, dir);
  // --missing=print names absent objects without fetching them (no network while checking)
  const out = await git(store, ['rev-list', '--objects', '--missing=print', commit, '--', ...(dir ? [dir] : [])]);
  const missing = new Set(out.split('\n').filter((l) => l.startsWith('?')).map((l) => l.slice(1).trim()));
  return listed.filter((e) => e.mode !== '120000' && e.mode !== '160000' && missing.has(e.blob)).map((e) => e.blob);
}

/**
 * Fetch the pinned commit into the store: one commit deep, its blobs only for the folder
 * where the server filters (a path or file:// upstream sends the commit whole). A commit the
 * upstream does not have, or an upstream git cannot reach, is one error naming the source.
 */
export async function fetchPinned(store: SourceStore, commit: string, dir: string, auth?: FetchAuth): Promise<void> {
  await ensureStore(store);
  try {
    await git(store, ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', '-q', '--no-tags', '--no-write-fetch-head', '--depth=1', '--filter=blob:none', 'origin', commit], { auth });
  } catch (e) {
    const msg = e instanceof Error ? e.message : '';
    if (/not our ref|no such remote ref|couldn't find remote ref|unadvertised object|bad object|not a valid/i.test(msg)) {
      throw new CtxError('SOURCE', `source ${store.name}: ${store.url} has no commit ${commit} (the pin in sources.lock)`, { cause: e, hint: 'run `git ctx sources update` to pin a commit the upstream has' });
    }
    throw reachError(store, 'fetch from', e);
  }
  const missing = await missingBlobs(store, commit, dir);
  if (missing.length) {
    try {
      await git(store, ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', '-q', '--no-tags', '--no-write-fetch-head', '--filter=blob:none', '--stdin', 'origin'], { input: missing.join('\n') + '\n', auth });
    } catch (e) {
      throw reachError(store, 'fetch the records of', e);
    }
  }
  // a ref keeps the pinned commit from being pruned, and names what the store holds
  await git(store, ['update-ref', `refs/pins/${commit}`, commit]);
}

/** A file of the pinned folder: its path in the upstream, mode and blob id. */
export interface PinnedEntry {
  path: string;
  mode: string;
  blob: string;
}

/** The files under `dir` at the commit, from the store (no network). */
export async function listPinned(store: SourceStore, commit: string, dir: string): Promise<PinnedEntry[]> {
  let out: string;
  try {
    out = await git(store, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...(dir ? [dir] : [])]);
  } catch (e) {
    throw new CtxError('SOURCE', `source ${store.name}: commit ${commit} is not fetched`, { cause: e, hint: 'run `git ctx sources fetch`' });
  }
  const entries: PinnedEntry[] = [];
  for (const rec of splitZ(out)) {
    const tab = rec.indexOf('\t');
    const [mode, type, blob] = rec.slice(0, tab).split(' ');
    if (type !== 'blob') continue;
    entries.push({ path: rec.slice(tab + 1), mode: mode!, blob: blob! });
  }
  return entries;
}

/**
 * Which of these paths (files or folders, from the upstream's top level) the pinned commit
 * has: its trees are in the store (fetched whole, only blobs are filtered), so nothing is fetched.
 */
export async function pathsAtPinned(store: SourceStore, commit: string, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const out = await git(store, ['ls-tree', '-z', '--full-tree', '--name-only', commit, '--', ...paths]);
  return new Set(splitZ(out));
}

/** The bytes of blobs from the store, in order (one process for all of them). */
export async function readPinnedBlobs(store: SourceStore, blobs: string[]): Promise<(Buffer | undefined)[]> {
  if (!blobs.length) return [];
  const out = await runGit(['cat-file', '--batch'], { cwd: store.gitDir, env: storeEnv(store), input: blobs.join('\n') + '\n', buffer: true });
  const res: (Buffer | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < blobs.length; i++) {
    const nl = out.indexOf(10, at);
    const header = out.toString('utf8', at, nl);
    at = nl + 1;
    if (header.endsWith(' missing')) {
      res.push(undefined);
      continue;
    }
    const size = Number(header.split(' ')[2]);
    res.push(Buffer.from(out.subarray(at, at + size)));
    at += size + 1;
  }
  return res;
}

/** How the upstream's ref stands against the pin: its commit, and how many commits the pin is behind (undefined: not an ancestor). */
export async function behindBy(store: SourceStore, pinned: string, ref: string, auth?: FetchAuth): Promise<{ upstream: string; behind: number | undefined }> {
  const upstream = await resolveRef(store, ref, auth);
  if (upstream === pinned) return { upstream, behind: 0 };
  await ensureStore(store);
  try {
    // commits only (no trees, no blobs) where the server filters: counting needs nothing else
    await git(store, ['fetch', '-q', '--no-tags', '--no-write-fetch-head', '--filter=tree:0', 'origin', upstream], { auth });
  } catch (e) {
    throw reachError(store, 'fetch from', e);
  }
  // the pin is behind only if the upstream's history contains it (a rewritten branch has left it)
  const base = (await git(store, ['merge-base', pinned, upstream], { okCodes: [1] }).catch(() => '')).trim();
  if (base !== pinned) return { upstream, behind: undefined };
  const n = Number((await git(store, ['rev-list', '--count', `${pinned}..${upstream}`])).trim());
  return { upstream, behind: n };
}

/** Does the store hold this commit at all (its records may still need fetching)? */
export async function hasCommit(store: SourceStore, commit: string): Promise<boolean> {
  if (!existsSync(path.join(store.gitDir, 'HEAD'))) return false;
  return git(store, ['cat-file', '-e', `${commit}^{commit}`]).then(() => true, () => false);
}
