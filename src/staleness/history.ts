import { spawn } from 'node:child_process';
import { CtxError } from '../errors.js';
import { runGit } from '../git/exec.js';

/** One file change in one commit, as `git log --name-status -M` reports it. */
export interface FileChange {
  /** A added, M modified, D deleted, R renamed, C copied, T type changed */
  status: 'A' | 'M' | 'D' | 'R' | 'C' | 'T' | 'U' | 'X';
  /** similarity score for R/C (100 = identical content) */
  score?: number;
  /** the path after the change */
  path: string;
  /** the path before a rename or copy */
  from?: string;
}

/** A commit of a walked range, with its file changes against its first parent. */
export interface CommitInfo {
  id: string;
  parents: string[];
  author: string;
  email: string;
  /** author date, strict ISO 8601 */
  date: string;
  subject: string;
  changes: FileChange[];
}

/** The result of one `git log -M --name-status` walk over a range. */
export interface HistoryWalk {
  /** oldest first (topological), so changes can be replayed in order */
  commits: CommitInfo[];
  /** git skipped inexact rename detection in at least one commit (rename limit) */
  renameLimitHit: boolean;
  /** the rename limit git suggested, when it said so */
  renameLimitNeeded?: number;
}

export interface WalkOptions {
  /** repository top level */
  cwd: string;
  /** commits reachable from these … */
  include: string[];
  /** … and not from these */
  exclude?: string[];
  /** restrict to paths (pathspecs, literal); renames out of the set show as deletes */
  paths?: string[];
  /** override git's rename limit (-l); tests use it to provoke the limit */
  renameLimit?: number;
  /** with paths: select commits by the paths but list all their changes (renames stay whole) */
  fullDiff?: boolean;
}

// Header markers: control characters that do not occur in hashes or dates; the subject is
// the last field so a stray separator in it cannot shift the others.
const REC = '\x1e';
const FLD = '\x1f';
const FORMAT = `${REC}%H${FLD}%P${FLD}%an${FLD}%ae${FLD}%aI${FLD}%s`;
const STATUS_RE = /^([ACDMRTUXB])(\d*)$/;

/**
 * Incremental parser of `git log -z --name-status --format=<FORMAT>` output. With -z the
 * header ends in NUL, then a newline precedes the first status token; every status is
 * followed by one path (two for R and C). Paths are consumed by count, so a file name
 * that looks like a header or a status cannot confuse the parser.
 */
export class LogStreamParser {
  readonly commits: CommitInfo[] = [];
  private carry = '';
  private cur: CommitInfo | undefined;
  private pending: { status: FileChange['status']; score?: number; need: number; paths: string[] } | undefined;

  /** Feed a chunk of stdout (decoded as UTF-8 by a StringDecoder by the caller). */
  push(chunk: string): void {
    const text = this.carry + chunk;
    let start = 0;
    for (let i = text.indexOf('\0'); i >= 0; i = text.indexOf('\0', start)) {
      this.token(text.slice(start, i));
      start = i + 1;
    }
    this.carry = text.slice(start);
  }

  /** Flush at end of stream; returns commits oldest-first when the log was --reverse. */
  end(): CommitInfo[] {
    if (this.carry) {
      // a header with no changes after it (empty commit, merge) is not NUL-terminated at EOF
      const t = this.carry;
      this.carry = '';
      for (const part of t.split('\n')) if (part) this.token(part);
    }
    this.pending = undefined;
    return this.commits;
  }

  private token(raw: string): void {
    if (this.pending) {
      this.pending.paths.push(raw);
      if (this.pending.paths.length === this.pending.need) {
        const p = this.pending;
        this.pending = undefined;
        const change: FileChange = p.need === 2 ? { status: p.status, score: p.score, from: p.paths[0]!, path: p.paths[1]! } : { status: p.status, path: p.paths[0]! };
        this.cur?.changes.push(change);
      }
      return;
    }
    const t = raw.replace(/^\n+/, '');
    if (t.startsWith(REC)) {
      // a commit without changes is followed directly by the next header: "…subject\n\x1e…"
      const headers = t.split(REC).filter(Boolean);
      for (const h of headers) this.header(h.replace(/\n+$/, ''));
      return;
    }
    const m = STATUS_RE.exec(t);
    if (!m || !this.cur) return;
    const status = (m[1] === 'B' ? 'M' : m[1]) as FileChange['status'];
    const need = status === 'R' || status === 'C' ? 2 : 1;
    this.pending = { status, score: m[2] ? Number(m[2]) : undefined, need, paths: [] };
  }

  private header(h: string): void {
    const f = h.split(FLD);
    const c: CommitInfo = {
      id: f[0] ?? '',
      parents: f[1] ? f[1].split(' ').filter(Boolean) : [],
      author: f[2] ?? '',
      email: f[3] ?? '',
      date: f[4] ?? '',
      subject: f.slice(5).join(FLD),
      changes: [],
    };
    this.cur = c;
    this.commits.push(c);
  }
}

/**
 * Walk a range commit by commit with rename detection, in one git process, oldest first.
 * A single `git diff -M base HEAD` misses files that were moved and then heavily edited in
 * later commits; replaying each commit's renames in order follows them. Merge commits
 * contribute no changes of their own (their parents' commits are walked).
 */
export function walkHistory(opts: WalkOptions): Promise<HistoryWalk> {
  const args = ['-c', 'core.quotePath=false', 'log', '-z', '--name-status', '-M', '--no-color', '--topo-order', '--reverse', `--format=${FORMAT}`];
  if (opts.renameLimit !== undefined) args.push(`-l${opts.renameLimit}`);
  if (opts.fullDiff && opts.paths) args.push('--full-diff');
  for (const r of opts.include) if (r.startsWith('-')) throw new CtxError('USAGE', `bad revision: ${r}`);
  args.push('--end-of-options', ...opts.include, ...(opts.exclude ?? []).map((r) => `^${r}`));
  args.push('--');
  if (opts.paths) args.push(...opts.paths.map((p) => `:(literal)${p}`));
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.GIT_CTX_GIT_BINARY ?? 'git', args, {
      cwd: opts.cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' },
    });
    const parser = new LogStreamParser();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => parser.push(d));
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (stderr.length < 1 << 20) stderr += d;
    });
    child.on('error', (e) => reject(new CtxError((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'GIT_MISSING' : 'GIT_FAILED', `git log failed: ${e.message}`, { cause: e })));
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new CtxError('GIT_FAILED', `git log failed: ${stderr.trim() || `exit ${code}`}`));
        return;
      }
      const commits = parser.end();
      resolve({ commits, ...renameLimitFrom(stderr) });
    });
  });
}

/**
 * git says "inexact (or exhaustive) rename detection was skipped due to too many files" (and suggests a
 * limit) when a commit has more add/delete pairs than diff.renameLimit allows; exact
 * renames are still found, edited ones are not. Reported, never silently trusted.
 */
export function renameLimitFrom(stderr: string): { renameLimitHit: boolean; renameLimitNeeded?: number } {
  // git ≤ 2.36 says "inexact", later versions "exhaustive"; both mean the same skip
  const hit = /(?:inexact|exhaustive) rename detection was skipped/.test(stderr);
  if (!hit) return { renameLimitHit: false };
  const nums = [...stderr.matchAll(/renameLimit variable to at least (\d+)/g)].map((m) => Number(m[1]));
  return { renameLimitHit: true, renameLimitNeeded: nums.length ? Math.max(...nums) : undefined };
}

/** What happened to one tracked file over a walked range. */
export interface PathTrace {
  /** the path at the start of the range */
  origin: string;
  /** where the file is at the end of the range; undefined when deleted */
  current?: string;
  /** the commit that deleted it */
  deletedIn?: CommitInfo;
  /** commits that touched it, oldest first, with what they did */
  touches: { commit: CommitInfo; kind: 'modified' | 'renamed' | 'renamed+modified' | 'deleted' | 'type-changed'; from?: string; to?: string }[];
}

/**
 * Replay a walk's changes over a set of paths that exist at the start of the range.
 * Renames carry a path's identity; a delete ends it, so a later file added at the same
 * path is a different file (deleted-then-new), never "changed".
 */
export function tracePaths(commits: CommitInfo[], origins: Iterable<string>): Map<string, PathTrace> {
  const traces = new Map<string, PathTrace>();
  const live = new Map<string, PathTrace>();
  for (const o of origins) {
    if (traces.has(o)) continue;
    const t: PathTrace = { origin: o, current: o, touches: [] };
    traces.set(o, t);
    live.set(o, t);
  }
  if (!live.size) return traces;
  for (const c of commits) {
    // apply a commit's changes as one step: a swap (a→b, b→a) must not chain
    const moves: [PathTrace, string][] = [];
    for (const ch of c.changes) {
      const src = ch.status === 'R' ? ch.from! : ch.path;
      const t = live.get(src);
      if (!t) continue;
      switch (ch.status) {
        case 'D':
          t.touches.push({ commit: c, kind: 'deleted' });
          t.deletedIn = c;
          t.current = undefined;
          live.delete(src);
          break;
        case 'R':
          t.touches.push({ commit: c, kind: ch.score === 100 ? 'renamed' : 'renamed+modified', from: ch.from, to: ch.path });
          live.delete(src);
          moves.push([t, ch.path]);
          break;
        case 'T':
          t.touches.push({ commit: c, kind: 'type-changed' });
          break;
        case 'C':
          // a copy leaves the source where it is
          break;
        default:
          if (ch.status === 'A') break; // an add over a live path: parallel branches; keep identity
          t.touches.push({ commit: c, kind: 'modified' });
      }
    }
    for (const [t, to] of moves) {
      t.current = to;
      live.set(to, t);
    }
  }
  return traces;
}

/** Files added in the range at a path that held a tracked file which was deleted earlier. */
export function reusedPaths(commits: CommitInfo[], traces: Map<string, PathTrace>): Map<string, { deletedIn: CommitInfo; addedIn: CommitInfo }> {
  const deleted = new Map<string, CommitInfo>();
  for (const t of traces.values()) {
    if (!t.deletedIn) continue;
    // the path it had when deleted
    const renames = t.touches.filter((x) => x.to);
    const at = renames.length ? renames[renames.length - 1]!.to! : t.origin;
    deleted.set(at, t.deletedIn);
  }
  const out = new Map<string, { deletedIn: CommitInfo; addedIn: CommitInfo }>();
  if (!deleted.size) return out;
  const order = new Map(commits.map((c, i) => [c.id, i]));
  for (const c of commits) {
    for (const ch of c.changes) {
      const d = deleted.get(ch.path);
      if (d && (ch.status === 'A' || ch.status === 'R' || ch.status === 'C') && order.get(c.id)! > order.get(d.id)!) out.set(ch.path, { deletedIn: d, addedIn: c });
    }
  }
  return out;
}

/** True when the repository is a shallow clone (history before the graft is absent). */
export async function isShallowRepository(cwd: string): Promise<boolean> {
  try {
    return (await runGit(['rev-parse', '--is-shallow-repository'], { cwd })).trim() === 'true';
  } catch {
    return false;
  }
}

/** Resolve abbreviated ids to full commit ids, in one cat-file process; ids naming no commit present in the object store are absent. */
export async function fullCommitIds(cwd: string, ids: string[]): Promise<Map<string, string>> {
  const uniq = [...new Set(ids.filter((x) => /^[0-9a-f]{4,64}$/i.test(x)))];
  const res = new Map<string, string>();
  if (!uniq.length) return res;
  const out = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { cwd, input: uniq.map((x) => `${x}^{commit}`).join('\n') + '\n' });
  const lines = out.split('\n');
  uniq.forEach((id, i) => {
    const m = /^([0-9a-f]+) commit$/.exec(lines[i] ?? '');
    if (m) res.set(id, m[1]!);
  });
  return res;
}

/**
 * Which commits are ancestors of `head` (or head itself). One `git merge-base --octopus`
 * finds a common ancestor M of the candidates; one rev-list of M..head lists everything
 * after it; a candidate is reachable exactly when it is M or in that list (M is an
 * ancestor of every candidate, so no candidate other than M can be an ancestor of M).
 */
export async function reachableFrom(cwd: string, head: string, candidates: string[]): Promise<Set<string>> {
  const uniq = [...new Set(candidates)];
  const res = new Set<string>();
  if (!uniq.length) return res;
  // the common case (everything stamped at one commit): one question, and no output that
  // could fill the pipe while the caller is busy elsewhere (stamps are resolved early)
  if (uniq.length === 1) {
    if (uniq[0] === head || (await isAncestor(cwd, uniq[0]!, head))) res.add(uniq[0]!);
    return res;
  }
  let base: string | undefined;
  try {
    base = (await runGit(['merge-base', '--octopus', '--end-of-options', ...uniq], { cwd, okCodes: [1] })).trim() || undefined;
  } catch {
    base = undefined;
  }
  if (base) {
    // --boundary also prints the excluded commits next to the walked set ("-<id>"): the base
    // is reachable from head exactly when it is head or one of them (it is then the parent
    // of a walked commit), which spares a merge-base --is-ancestor over the whole graph
    const out = await runGit(['rev-list', '--boundary', '--end-of-options', head, `^${base}`], { cwd });
    const after = new Set<string>();
    let baseReachable = base === head;
    for (const l of out.split('\n')) {
      if (!l) continue;
      if (l.startsWith('-')) {
        if (l.slice(1) === base) baseReachable = true;
      } else after.add(l);
    }
    for (const c of uniq) if (after.has(c) || (c === base && baseReachable)) res.add(c);
    return res;
  }
  // unrelated histories: ask one by one (rare)
  for (const c of uniq) if (await isAncestor(cwd, c, head)) res.add(c);
  return res;
}

/** `git merge-base --is-ancestor a b`: exit 0 yes, 1 no. */
export async function isAncestor(cwd: string, a: string, b: string): Promise<boolean> {
  try {
    await runGit(['merge-base', '--is-ancestor', '--end-of-options', a, b], { cwd });
    return true;
  } catch {
    return false;
  }
}

/**
 * For each path (at `head`), the commit that last changed it and its blob there: one
 * `git log --name-status` over the paths, newest first. Paths absent from head's history
 * (untracked) are missing from the result.
 */
export async function lastChanged(cwd: string, head: string, paths: string[]): Promise<Map<string, { commit: string; date: string; blob?: string }>> {
  const res = new Map<string, { commit: string; date: string; blob?: string }>();
  if (!paths.length) return res;
  const walk = await walkHistory({ cwd, include: [head], paths });
  const want = new Set(paths);
  for (let i = walk.commits.length - 1; i >= 0 && want.size; i--) {
    const c = walk.commits[i]!;
    for (const ch of c.changes) {
      if (!want.has(ch.path)) continue;
      want.delete(ch.path);
      res.set(ch.path, { commit: c.id, date: c.date });
    }
  }
  if (res.size) {
    const out = await runGit(['ls-tree', '-z', '--full-tree', '--end-of-options', head, '--', ...res.keys()], { cwd });
    for (const line of out.split('\0')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const r = res.get(line.slice(tab + 1));
      if (r) r.blob = line.slice(0, tab).split(' ')[2];
    }
  }
  return res;
}
