// @spec SPEC-CONFIRM-001

import { runGit } from '../../git/exec.js';
import { parseHunkHeader, parseRawPatch, unquoteGitPath, type ChangedFile } from '../../git/diff.js';
import type { ConfirmScope } from './evaluate.js';

/** The lines each changed file gains (deleted and binary files gain none and are left out). */
export function scopeOfChanges(files: ChangedFile[]): ConfirmScope {
  const scope: ConfirmScope = new Map();
  for (const f of files) {
    if (f.status === 'deleted' || f.binary) continue;
    if (f.newMode === '120000' || f.newMode === '160000') continue;
    const lines = new Set<number>();
    for (const h of f.hunks) for (let l = h.newStart; l < h.newStart + h.newLines; l++) lines.add(l);
    if (lines.size) scope.set(f.path, lines);
  }
  return scope;
}

// repository config must not change what is parsed: prefixes, external diff, textconv, colour
const DIFF_ARGS = ['-c', 'core.quotePath=false', 'diff', '--raw', '-p', '-z', '-U0', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', '--no-relative', '--src-prefix=a/', '--dst-prefix=b/'];

/**
 * What the staged commit adds: per changed file, its added lines (index against `head`).
 * Without a head (the first commit) every staged file counts whole.
 */
export async function stagedScope(root: string, head: string | undefined): Promise<ConfirmScope> {
  if (!head) {
    const out = await runGit(['ls-files', '-z', '--cached'], { cwd: root });
    return new Map(out.split('\0').filter(Boolean).map((p) => [p, undefined]));
  }
  const out = await runGit([...DIFF_ARGS, '--cached', head, '--'], { cwd: root, buffer: true });
  return scopeOfChanges(parseRawPatch(out));
}

/**
 * What the working tree adds to `head`: tracked files' added lines, and untracked files
 * (not ignored) whole — an agent's new file is part of its change.
 */
export async function worktreeScope(root: string, head: string | undefined): Promise<ConfirmScope> {
  const scope: ConfirmScope = head ? scopeOfChanges(parseRawPatch(await runGit([...DIFF_ARGS, head, '--'], { cwd: root, buffer: true }))) : new Map();
  const listed = await runGit(['ls-files', '-z', '--others', '--exclude-standard', ...(head ? [] : ['--cached'])], { cwd: root });
  for (const p of listed.split('\0').filter(Boolean)) scope.set(p, undefined);
  return scope;
}

/**
 * The added lines of a unified diff given as text (`git diff`, a patch an agent is about to
 * apply): `+++ b/path` names the file, each hunk's `+` lines are counted from its header.
 */
export function scopeOfUnifiedDiff(text: string): ConfirmScope {
  const scope: ConfirmScope = new Map();
  let file: string | undefined;
  let line = 0;
  let inHunk = false;
  for (const raw of text.split('\n')) {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (l.startsWith('+++ ')) {
      let p = l.slice(4).replace(/\t.*$/, '');
      p = unquoteGitPath(p);
      file = p === '/dev/null' ? undefined : p.replace(/^[bw]\//, '');
      if (file && !scope.has(file)) scope.set(file, new Set());
      inHunk = false;
      continue;
    }
    if (l.startsWith('diff --git ') || l.startsWith('--- ')) {
      inHunk = false;
      continue;
    }
    const h = parseHunkHeader(l);
    if (h) {
      line = h.newStart;
      inHunk = true;
      continue;
    }
    if (!inHunk || !file) continue;
    if (l.startsWith('+')) {
      scope.get(file)!.add(line);
      line++;
    } else if (l.startsWith(' ')) line++;
    // '-' lines and '\ No newline' do not advance the new side
  }
  for (const [f, lines] of scope) if (lines && !lines.size) scope.delete(f);
  return scope;
}
