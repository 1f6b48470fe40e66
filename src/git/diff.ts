import { execFile } from 'node:child_process';
import { CtxError } from '../errors.js';
import { runGit } from './exec.js';

/** One `@@ -a,b +c,d @@` hunk. With -U0 the ranges are exactly the changed lines. */
export interface Hunk {
  /** first removed line at base (or the line after which lines were added when oldLines = 0) */
  oldStart: number;
  oldLines: number;
  /** first added line at head (or the line after which lines were removed when newLines = 0) */
  newStart: number;
  newLines: number;
  /** the line git names after the header as the enclosing function or section (its funcname heuristic) */
  context?: string;
}

/**
 * The text of a file's changed lines, as the patch gives it: what a change says, read without
 * opening either side. Bounded per file (a generated file of thousands of lines keeps its first
 * MAX_KEPT_LINES on each side; `truncated` says so).
 */
export interface ChangedText {
  added: string[];
  removed: string[];
  /** the head line number of each added line, the base line number of each removed one */
  addedAt: number[];
  removedAt: number[];
  truncated: boolean;
}

/** Changed lines kept per file and side. */
export const MAX_KEPT_LINES = 400;

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'typechange';

/** A file changed between the merge base and the head. */
export interface ChangedFile {
  status: ChangeStatus;
  /** path at head; for deleted files the path at base */
  path: string;
  /** path at base when it differs (renames, copies) */
  oldPath?: string;
  /** rename/copy similarity, 0–100 */
  similarity?: number;
  oldBlob?: string;
  newBlob?: string;
  oldMode?: string;
  newMode?: string;
  /** git called the content binary: no hunks */
  binary: boolean;
  hunks: Hunk[];
  /** the changed lines (absent for binary files and changes without hunks) */
  text?: ChangedText;
}

/** The changes of a pull request: merge base...head. */
export interface PrDiff {
  base: string;
  head: string;
  mergeBase: string;
  files: ChangedFile[];
  /** git gave up exhaustive rename detection: some renames read as delete + add */
  renameLimitHit: boolean;
}

const ZERO = /^0+$/;
const STATUS: Record<string, ChangeStatus> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'typechange' };

/** Decode a path as git prints it in patch headers: C-quoted when it holds unusual bytes. */
export function unquoteGitPath(s: string): string {
  if (!s.startsWith('"')) return s;
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') break;
    if (c !== '\\') {
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
      continue;
    }
    const n = s[++i]!;
    if (n in simple) bytes.push(simple[n]!);
    else if (/[0-7]/.test(n)) {
      bytes.push(parseInt(s.slice(i, i + 3), 8));
      i += 2;
    } else for (const b of Buffer.from(n, 'utf8')) bytes.push(b);
  }
  return Buffer.from(bytes).toString('utf8');
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/** Parse a hunk header; undefined for anything else. */
export function parseHunkHeader(line: string): Hunk | undefined {
  const m = HUNK_RE.exec(line);
  if (!m) return undefined;
  return {
    oldStart: Number(m[1]),
    oldLines: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newLines: m[4] === undefined ? 1 : Number(m[4]),
    ...(m[5]?.trim() ? { context: m[5].trim() } : {}),
  };
}

interface RawEntry {
  status: ChangeStatus;
  similarity?: number;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
  src: string;
  dst?: string;
}

interface PatchSection {
  binary: boolean;
  hunks: Hunk[];
  text: ChangedText;
}

/**
 * Parse `git diff --raw -p -z` output. The raw part (NUL-separated, exact paths) names the
 * files; the patch part that follows gives their hunks. Patch headers quote odd paths and are
 * ambiguous with spaces, so files are matched to patch sections by order — git writes both
 * in the same order, one section per pair, except a type change (file ↔ symlink), which it
 * writes as a deletion and a creation.
 */
export function parseRawPatch(out: Buffer): ChangedFile[] {
  const entries: RawEntry[] = [];
  let pos = 0;
  while (pos < out.length && out[pos] === 0x3a /* ':' */) {
    const metaEnd = out.indexOf(0, pos);
    if (metaEnd < 0) break;
    const meta = out.subarray(pos + 1, metaEnd).toString('utf8').split(' ');
    pos = metaEnd + 1;
    const readPath = (): string => {
      const end = out.indexOf(0, pos);
      const p = out.subarray(pos, end < 0 ? out.length : end).toString('utf8');
      pos = end < 0 ? out.length : end + 1;
      return p;
    };
    const [oldMode, newMode, oldBlob, newBlob, code] = meta as [string, string, string, string, string];
    const letter = code[0]!;
    const status = STATUS[letter];
    const src = readPath();
    const dst = letter === 'R' || letter === 'C' ? readPath() : undefined;
    if (!status) continue; // U (unmerged) and X cannot occur between two commits
    entries.push({ status, similarity: letter === 'R' || letter === 'C' ? Number(code.slice(1)) : undefined, oldMode, newMode, oldBlob, newBlob, src, dst });
  }
  // the raw part ends with an empty record before the patch text
  while (pos < out.length && out[pos] === 0) pos++;
  const sections = parsePatchSections(out.subarray(pos).toString('utf8'));

  const files: ChangedFile[] = [];
  let si = 0;
  for (const e of entries) {
    const take = e.status === 'typechange' ? 2 : 1;
    const secs = sections.slice(si, si + take);
    si += take;
    const hunks = secs.flatMap((s) => s.hunks);
    const added = secs.flatMap((s) => s.text.added);
    const removed = secs.flatMap((s) => s.text.removed);
    const addedAt = secs.flatMap((s) => s.text.addedAt);
    const removedAt = secs.flatMap((s) => s.text.removedAt);
    const f: ChangedFile = {
      status: e.status,
      path: e.dst ?? e.src,
      binary: secs.some((s) => s.binary),
      hunks,
      oldMode: ZERO.test(e.oldMode) ? undefined : e.oldMode,
      newMode: ZERO.test(e.newMode) ? undefined : e.newMode,
      oldBlob: ZERO.test(e.oldBlob) ? undefined : e.oldBlob,
      newBlob: ZERO.test(e.newBlob) ? undefined : e.newBlob,
    };
    if (added.length || removed.length) f.text = { added, removed, addedAt, removedAt, truncated: secs.some((s) => s.text.truncated) };
    if (e.dst !== undefined) {
      f.oldPath = e.src;
      f.similarity = e.similarity;
    }
    files.push(f);
  }
  return files;
}

function parsePatchSections(text: string): PatchSection[] {
  const sections: PatchSection[] = [];
  let cur: PatchSection | undefined;
  let inHunks = false;
  // the line numbers the next removed and added lines have
  let oldLine = 0;
  let newLine = 0;
  for (const line of text.split('\n')) {
    // hunk body lines start with + - space or backslash, so a header can never be mistaken
    if (line.startsWith('diff --git ') || line.startsWith('diff --cc ')) {
      cur = { binary: false, hunks: [], text: { added: [], removed: [], addedAt: [], removedAt: [], truncated: false } };
      sections.push(cur);
      inHunks = false;
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('@@ ')) {
      const h = parseHunkHeader(line);
      if (h) {
        cur.hunks.push(h);
        oldLine = h.oldStart;
        newLine = h.newStart;
      }
      inHunks = true;
      continue;
    }
    if (inHunks && (line.startsWith('+') || line.startsWith('-'))) {
      const add = line.startsWith('+');
      const side = add ? cur.text.added : cur.text.removed;
      if (side.length < MAX_KEPT_LINES) {
        side.push(line.slice(1));
        (add ? cur.text.addedAt : cur.text.removedAt).push(add ? newLine : oldLine);
      } else cur.text.truncated = true;
      if (add) newLine++;
      else oldLine++;
      continue;
    }
    if (!inHunks && (line.startsWith('Binary files ') || line === 'GIT binary patch')) cur.binary = true;
  }
  return sections;
}

/** Run git capturing stderr too: rename-limit warnings arrive there on success. */
function gitWithStderr(args: string[], cwd: string): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.env.GIT_CTX_GIT_BINARY ?? 'git',
      args,
      { cwd, encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' } },
      (err, stdout, stderr) => {
        if (err) {
          reject(new CtxError('GIT_FAILED', `git ${args[0]} failed: ${stderr.toString('utf8').trim() || err.message}`, { cause: err }));
          return;
        }
        resolve({ stdout, stderr: stderr.toString('utf8') });
      },
    );
  });
}

/** The merge base of two commits, or undefined when they share no history (here). */
export async function findMergeBase(root: string, base: string, head: string): Promise<string | undefined> {
  const out = await runGit(['merge-base', '--end-of-options', base, head], { cwd: root, okCodes: [1] });
  return out.trim() || undefined;
}

export interface DiffOptions {
  /** git's rename limit (-l); default: git's own (diff.renameLimit or 1000) */
  renameLimit?: number;
  /** compare against this commit instead of the merge base (when none can be found) */
  mergeBase?: string;
}

/**
 * The files and hunks a pull request changes: merge-base(base, head)...head, with renames
 * followed (-M) and zero context lines so that each hunk is exactly the changed lines.
 * `base` and `head` must be commit ids (resolve them first); they are never passed as options.
 */
export async function diffPullRequest(root: string, base: string, head: string, opts: DiffOptions = {}): Promise<PrDiff> {
  const mergeBase = opts.mergeBase ?? (await findMergeBase(root, base, head));
  if (!mergeBase) {
    throw new CtxError('BAD_REVISION', `no merge base between ${base.slice(0, 12)} and ${head.slice(0, 12)}`, {
      hint: 'the history may be shallow (fetch more with git fetch --deepen) or the branches unrelated',
    });
  }
  const args = [
    // repository config must not change what is parsed: prefixes, external diff, textconv, colour
    '-c', 'core.quotePath=false',
    'diff', '--raw', '-p', '-z', '-U0', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--no-relative',
    '--src-prefix=a/', '--dst-prefix=b/', '--ignore-submodules=none',
  ];
  if (opts.renameLimit !== undefined) args.push(`-l${opts.renameLimit}`);
  args.push(mergeBase, head, '--');
  const { stdout, stderr } = await gitWithStderr(args, root);
  const files = parseRawPatch(stdout);
  const renameLimitHit = /rename detection was skipped|renameLimit|inexact rename detection was skipped/i.test(stderr);
  return { base, head, mergeBase, files, renameLimitHit };
}

/**
 * Line ranges a hunk touches on each side, as closed intervals. A pure insertion touches no
 * base line but sits between two: it is reported as the gap [n, n+1] on the side where
 * nothing exists, and callers treat a gap as inside a symbol only when the symbol spans both.
 */
export function hunkRanges(h: Hunk): { old?: [number, number]; oldGap?: number; new?: [number, number]; newGap?: number } {
  const r: ReturnType<typeof hunkRanges> = {};
  if (h.oldLines > 0) r.old = [h.oldStart, h.oldStart + h.oldLines - 1];
  else r.oldGap = h.oldStart;
  if (h.newLines > 0) r.new = [h.newStart, h.newStart + h.newLines - 1];
  else r.newGap = h.newStart;
  return r;
}

/**
 * What the git index changes against `rev` (the commit about to be made: `git diff --cached`),
 * with renames followed and zero context lines, as diffPullRequest parses a pull request.
 */
export async function diffStaged(root: string, rev: string): Promise<ChangedFile[]> {
  const args = [
    '-c', 'core.quotePath=false',
    'diff', '--cached', '--raw', '-p', '-z', '-U0', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--no-relative',
    '--src-prefix=a/', '--dst-prefix=b/', rev, '--',
  ];
  const { stdout } = await gitWithStderr(args, root);
  return parseRawPatch(stdout);
}
