import { existsSync, readFileSync } from 'node:fs';
import { chmod, lstat, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageFile } from '../package-root.js';
import { CtxError } from '../errors.js';
import { runGit } from '../git/exec.js';
import { detectManager, editManagerConfig, manualSnippet, RUNS_HOOK_RE, SHARED_COMMAND, SHARED_LINE, type HookManager, type ManagerConfig } from './managers.js';
import { packageRunner } from './package-runner.js';

/** Present in every hook file git-ctx writes; how install/uninstall recognise their own file. */
export const HOOK_MARKER = 'git-ctx-managed-hook';
/** Name an existing hook is moved to when git-ctx chains it (it runs first, see hooks/pre-commit). */
export const CHAINED_NAME = 'pre-commit.git-ctx-chained';
/**
 * The line written into husky's (v5–v9) `.husky/pre-commit` (a shared, committed file): the
 * project's node_modules/.bin first, then PATH, and a one-line notice instead of a blocked
 * commit for a teammate without git-ctx. The trailing comment marks it as ours.
 */
export const HUSKY_LINE = SHARED_LINE;

/** Options of `installHook` (`git ctx hooks install`). */
export interface InstallHookOptions {
  /** any directory inside the repository */
  cwd: string;
  /** remove the hook (restoring a chained one) instead of installing it */
  uninstall?: boolean;
  /**
   * Install into the effective hooks directory even when husky manages the hooks or
   * core.hooksPath points outside the repository, and replace a stale chained hook.
   * (Uninstall needs no force: it removes whatever git-ctx wrote, wherever it is.)
   */
  force?: boolean;
  /** hook script to write; default: the packaged hooks/pre-commit */
  script?: string;
}

/** What `installHook` did (or, for husky-manual and shared-hooks-dir, why it wrote nothing). */
export type InstallAction =
  /** wrote the hook into an empty slot */
  | 'installed'
  /** an existing foreign hook was moved aside and runs first */
  | 'chained'
  /** our hook was there with older content; rewritten */
  | 'updated'
  /** our hook was there with the same content */
  | 'unchanged'
  /** husky v5–v9: added the line to .husky/pre-commit */
  | 'husky-line-added'
  /** husky v5–v9: .husky/pre-commit already runs the hook */
  | 'husky-line-present'
  /** husky v4 (its scripts in .git/hooks, no hooks block in package.json): the user has to add a line; nothing was written */
  | 'husky-manual'
  /** hooks directory outside the repository (shared by other repositories): refused without --force */
  | 'shared-hooks-dir'
  /** uninstall: removed our hook (and restored the chained one when there was one) */
  | 'uninstalled'
  /** uninstall: removed our line from .husky/pre-commit */
  | 'husky-line-removed'
  /** uninstall: nothing of ours was installed */
  | 'not-installed'
  /** lefthook, simple-git-hooks or the pre-commit framework: added git-ctx to its configuration */
  | 'manager-entry-added'
  /** the manager's configuration already runs git-ctx */
  | 'manager-entry-present'
  /** our entry in the manager's configuration was older; rewritten */
  | 'manager-entry-updated'
  /** uninstall: removed our entry from the manager's configuration */
  | 'manager-entry-removed'
  /** the manager's configuration is a format git-ctx does not edit (JavaScript, TOML): nothing written */
  | 'manager-manual';

/** The outcome of `installHook`, for the CLI to render. */
export interface InstallResult {
  action: InstallAction;
  /** the effective hooks directory (absolute) */
  hooksDir: string;
  /** the file written, removed or to be edited (absolute) */
  file: string;
  /** where an existing hook was moved to, or restored from */
  chained?: string;
  /** true when the chained hook was restored on uninstall */
  restored?: boolean;
  /** for husky-manual and manager-manual: the line the user should add to `file` */
  line?: string;
  /** the hook manager whose configuration was edited (husky included) */
  manager?: HookManager | 'husky';
  /** the entry is written but will not run until this is done (the manager is not installed yet) */
  pending?: string;
  /** the manager's own installer that was run to apply the change */
  applied?: string;
  /** human-readable notes the front end may print (e.g. a foreign hook file left alone) */
  notes: string[];
}

/**
 * The packaged hook script, `hooks/pre-commit` at the package root: a single source of truth.
 */
export function packagedHookScript(): string {
  const file = packageFile('hooks/pre-commit');
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new CtxError('IO', `the packaged hook script is missing: ${file}`, { cause: e, file, hint: 'reinstall git-ctx; its package must contain hooks/pre-commit' });
  }
}

async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CtxError('IO', `cannot read ${file}: ${(e as Error).message}`, { cause: e, file });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    // lstat: a dangling symlink is still a hook slot that is taken
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** Write a file through a temporary sibling and a rename, so git never sees half a hook. */
async function writeAtomic(file: string, content: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content, { mode });
  await chmod(tmp, mode);
  await rename(tmp, file);
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

interface RepoLayout {
  top: string;
  gitDir: string;
  hooksDir: string;
}

async function resolveLayout(cwd: string): Promise<RepoLayout> {
  let out: string;
  try {
    out = await runGit(['rev-parse', '--show-toplevel', '--git-common-dir'], { cwd });
  } catch (e) {
    throw new CtxError('NOT_A_REPO', `not inside a git work tree: ${cwd}`, { cause: e, hint: 'run it inside the repository whose commits should be checked' });
  }
  const [top, common] = out.split('\n');
  const root = path.resolve(top!.trim());
  // --git-path resolves core.hooksPath (relative to the top level, ~ expanded) and
  // linked worktrees (hooks live in the common dir); run from the top level so a
  // relative answer is relative to it
  const hooks = (await runGit(['rev-parse', '--git-path', 'hooks'], { cwd: root })).trim();
  return { top: root, gitDir: path.resolve(root, common!.trim()), hooksDir: path.resolve(root, hooks) };
}

type Husky = { version: 'v9' | 'v5' | 'older'; dir: string } | undefined;

/**
 * Detect husky. v9 points core.hooksPath at `.husky/_` and runs `.husky/<hook>` through
 * `.husky/_/h`; v5–v8 point it at `.husky` and git runs `.husky/<hook>` itself; v4 wrote its
 * own scripts into .git/hooks. In v5–v9 alike `.husky/pre-commit` is the team's committed
 * script, which husky never rewrites (its install writes only `.husky/_`), so git-ctx adds its
 * line there (DEC-123); only v4 leaves the user to act. A `.husky/` folder without a hooks path
 * is a fresh clone before `npm install`: husky will take the hooks over on install, so a hook
 * in .git/hooks would silently stop running.
 */
function detectHusky(layout: RepoLayout, existingHook: string | undefined): Husky {
  const dir = path.join(layout.top, '.husky');
  const hooksInHusky = isInside(layout.hooksDir, dir);
  // v4's scripts live in .git/hooks; a hook under .husky/ that sources husky.sh is v5–v8's own file
  const v4 = !hooksInHusky && existingHook !== undefined && /husky/i.test(existingHook) && !existingHook.includes(HOOK_MARKER);
  if (!hooksInHusky && !existsSync(dir) && !v4) return declaredHuskyMajor(layout.top) >= 9 ? { version: 'v9', dir } : undefined;
  if (v4) return { version: 'older', dir };
  if (existsSync(path.join(dir, '_', 'h')) || path.relative(dir, layout.hooksDir) === '_') return { version: 'v9', dir };
  // before `npm install` there is no .husky/_ yet: the declared husky version decides
  if (declaredHuskyMajor(layout.top) >= 9) return { version: 'v9', dir };
  // a .husky/ folder is husky 5 or later: v5–v8 when it is not v9
  return { version: 'v5', dir };
}

/** The major version of husky declared in package.json, or NaN. */
function declaredHuskyMajor(top: string): number {
  try {
    const pkg = JSON.parse(readFileSync(path.join(top, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const spec = pkg.devDependencies?.husky ?? pkg.dependencies?.husky;
    return spec ? Number(/(\d+)/.exec(spec)?.[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** Add git-ctx to (or remove it from) a hook manager's own configuration. */
async function installManager(cfg: ManagerConfig, layout: RepoLayout, hookText: string | undefined, uninstall: boolean): Promise<InstallResult> {
  const base = { hooksDir: layout.hooksDir, file: cfg.file, notes: [] as string[], manager: cfg.manager };
  if (cfg.manual && !uninstall) return { ...base, action: 'manager-manual', line: manualSnippet(cfg) };
  const write = (file: string, content: string): Promise<void> => writeAtomic(file, content, 0o644);
  const edit = await editManagerConfig(cfg, layout.top, hookText, uninstall, write);
  const action = ({ added: 'manager-entry-added', present: 'manager-entry-present', updated: 'manager-entry-updated', removed: 'manager-entry-removed', absent: 'not-installed', manual: 'manager-manual' } as const)[edit.status];
  return { ...base, action, ...(edit.pending ? { pending: edit.pending } : {}), ...(edit.applied ? { applied: edit.applied } : {}) };
}

// the repository's own package manager runs husky (a yarn repository told `npm install` gets a second lockfile) @decision DEC-129
const huskyPending = (v5: boolean, top: string): string => {
  // one reading of package.json for both commands
  const pm = packageRunner(top);
  return v5
    ? `husky is not installed in this clone yet (core.hooksPath is not .husky): the line runs once \`${pm.install}\` runs husky (its prepare or postinstall script) or after \`${pm.run('husky', 'install')}\``
    : `husky is declared but not installed in this clone yet (core.hooksPath is not .husky/_): the line runs once \`${pm.install}\` runs husky (its prepare script) or after \`${pm.run('husky')}\``;
};
/** What husky v5–v8 write at the top of a hook file they create (git runs the file itself, so it needs its interpreter line). */
const HUSKY_V5_HEAD = '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\n';

/** A line of a shell script, not indented, that leaves it whatever happened before: `exit`, `exit 0`. */
const TOP_LEVEL_EXIT = /^exit(?:\s+\d+)?\s*(?:;\s*)?(?:#.*)?\r?\n?$/;

async function installHusky(husky: NonNullable<Husky>, layout: RepoLayout, uninstall: boolean): Promise<InstallResult> {
  const file = path.join(husky.dir, 'pre-commit');
  const base = { hooksDir: layout.hooksDir, file, notes: [] as string[] };
  const buf = await readIfExists(file);
  const text = buf?.toString('utf8');
  if (uninstall) {
    if (text === undefined || !text.includes(HOOK_MARKER)) {
      if (text !== undefined && RUNS_HOOK_RE.test(text)) base.notes.push(`${file} runs git-ctx through a line git-ctx did not write; it was left alone`);
      return { ...base, action: 'not-installed' };
    }
    const kept = text
      .split(/(?<=\n)/)
      .filter((l) => !l.includes(HOOK_MARKER))
      .join('');
    // a file git-ctx created holds nothing else (husky 5–8's header was git-ctx's too)
    if (kept.trim() === '' || kept === HUSKY_V5_HEAD) await unlink(file);
    else await writeAtomic(file, kept, 0o755);
    return { ...base, action: 'husky-line-removed' };
  }
  if (husky.version === 'older') return { ...base, action: 'husky-manual', manager: 'husky', line: SHARED_LINE };
  const v5 = husky.version === 'v5';
  const pending = path.relative(husky.dir, layout.hooksDir) === (v5 ? '' : '_') ? undefined : huskyPending(v5, layout.top);
  const withManager = { ...base, manager: 'husky' as const, ...(pending ? { pending } : {}) };
  if (text !== undefined && text.includes(HOOK_MARKER)) {
    const lines = text.split(/(?<=\n)/);
    if (lines.some((l) => l.replace(/\r?\n$/, '') === HUSKY_LINE)) return { ...withManager, action: 'husky-line-present' };
    // an older line of ours (e.g. the plain `git-ctx hook pre-commit` that blocked teammates)
    const next = lines.map((l) => (l.includes(HOOK_MARKER) ? `${HUSKY_LINE}${/\r?\n$/.exec(l)?.[0] ?? ''}` : l)).join('');
    await writeAtomic(file, next, 0o755);
    return { ...withManager, action: 'updated' };
  }
  if (text !== undefined && RUNS_HOOK_RE.test(text)) return { ...withManager, action: 'husky-line-present' };
  // a script that ends early ("# Hooks temporarily disabled" ⏎ "exit 0", HubEvolution/EvolutionHub):
  // a line after its exit never runs, so ours goes before it, and the user is told @decision DEC-132
  const lines = (text ?? '').split(/(?<=\n)/);
  const stop = lines.findIndex((l) => TOP_LEVEL_EXIT.test(l));
  if (stop >= 0) {
    lines.splice(stop, 0, `${HUSKY_LINE}\n`);
    await writeAtomic(file, lines.join(''), 0o755);
    const notes = [...base.notes, `${path.relative(layout.top, file)}:${stop + 1} ends the script (\`${lines[stop + 1]!.trim()}\`): the git-ctx line was put before it, so it runs while the lines after it stay off`];
    return { ...withManager, notes, action: 'husky-line-added' };
  }
  const prefix = text === undefined || text === '' ? (v5 ? HUSKY_V5_HEAD : '') : text.endsWith('\n') ? text : `${text}\n`;
  await mkdir(husky.dir, { recursive: true });
  await writeAtomic(file, `${prefix}${HUSKY_LINE}\n`, 0o755);
  return { ...withManager, action: 'husky-line-added' };
}

/**
 * Remove whatever git-ctx installed, wherever it is: our hook file in the hooks directory
 * (renaming a chained hook back) and our line in `.husky/pre-commit`. Both are looked at
 * whatever manages the hooks now, since either may have been installed under other
 * circumstances (--force, husky added later).
 */
async function uninstall(layout: RepoLayout, file: string, chained: string, ours: boolean): Promise<InstallResult> {
  const notes: string[] = [];
  const base = { hooksDir: layout.hooksDir, file, notes };
  const husky = await installHusky({ version: 'v9', dir: path.join(layout.top, '.husky') }, layout, true);
  notes.push(...husky.notes);
  const cfg = detectManager(layout.top, undefined);
  const mgr = cfg ? await installManager(cfg, layout, undefined, true) : undefined;
  if (mgr?.action === 'manager-entry-removed') {
    if (!ours && husky.action !== 'husky-line-removed') return { ...mgr, notes };
    notes.push(`also removed the git-ctx entry from ${mgr.file}`);
  }
  if (!ours) {
    if (await exists(chained)) notes.push(`${chained} exists but ${file} is not the git-ctx hook; both were left alone`);
    return husky.action === 'husky-line-removed' ? { ...husky, notes } : { ...base, action: 'not-installed' };
  }
  if (husky.action === 'husky-line-removed') notes.push(`also removed the git-ctx line from ${husky.file}`);
  if (await exists(chained)) {
    await rename(chained, file);
    return { ...base, action: 'uninstalled', chained, restored: true };
  }
  await unlink(file);
  return { ...base, action: 'uninstalled' };
}

/**
 * Install (or uninstall) the git-ctx pre-commit hook. Chains an existing hook instead of
 * overwriting it: the old file is renamed to `pre-commit.git-ctx-chained` (bytes, mode and
 * symlink-ness kept, since it is a rename) and the git-ctx hook runs it first; uninstall
 * renames it back. Idempotent: the marker line identifies our file. Returns what it did;
 * never prints.
 */
export async function installHook(opts: InstallHookOptions): Promise<InstallResult> {
  const layout = await resolveLayout(opts.cwd);
  const file = path.join(layout.hooksDir, 'pre-commit');
  const chained = path.join(layout.hooksDir, CHAINED_NAME);
  const notes: string[] = [];
  const base = { hooksDir: layout.hooksDir, file, notes };
  const current = await readIfExists(file).catch(() => undefined);
  const currentText = current?.toString('utf8');
  // a manager's generated hook (simple-git-hooks copies its configuration) carries our
  // shared command and its marker, but is not our file
  const ours = (currentText?.includes(HOOK_MARKER) ?? false) && !currentText!.includes(SHARED_COMMAND);

  if (opts.uninstall) return uninstall(layout, file, chained, ours);
  if (!opts.force) {
    // husky owns the hooks when core.hooksPath points into .husky (or its v4 scripts are
    // installed); otherwise a manager with a configuration file wins over a bare .husky/
    const cfg = detectManager(layout.top, currentText);
    // husky v4 keeps its hooks in package.json: an entry there, as with the other managers
    if (cfg?.manager === 'husky-v4') return installManager(cfg, layout, currentText, false);
    const husky = detectHusky(layout, currentText);
    if (husky && (isInside(layout.hooksDir, husky.dir) || husky.version === 'older')) return installHusky(husky, layout, false);
    if (cfg) return installManager(cfg, layout, currentText, false);
    if (husky) return installHusky(husky, layout, false);
  }

  if (!opts.force && !isInside(layout.hooksDir, layout.top) && !isInside(layout.hooksDir, layout.gitDir)) {
    return { ...base, action: 'shared-hooks-dir' };
  }

  const script = opts.script ?? packagedHookScript();
  await mkdir(layout.hooksDir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
    throw new CtxError('IO', `the hooks directory is not a directory (${e.code}); check core.hooksPath`, { cause: e, file: layout.hooksDir });
  });
  if (ours) {
    if (currentText === script) return { ...base, action: 'unchanged', chained: (await exists(chained)) ? chained : undefined };
    await writeAtomic(file, script, 0o755);
    return { ...base, action: 'updated', chained: (await exists(chained)) ? chained : undefined };
  }
  if (await exists(file)) {
    if (await exists(chained)) {
      // our hook was replaced by another tool while an older chained hook stayed behind:
      // chaining again would lose one of the two
      if (!opts.force) {
        throw new CtxError('EXISTS', `both ${file} (not written by git-ctx) and ${chained} exist`, {
          hint: `remove or merge one of them, or re-run with --force to replace ${CHAINED_NAME} with the current pre-commit hook`,
        });
      }
      notes.push(`replaced the previously chained hook ${chained}`);
    }
    await rename(file, chained);
    await writeAtomic(file, script, 0o755);
    return { ...base, action: 'chained', chained };
  }
  await writeAtomic(file, script, 0o755);
  return { ...base, action: 'installed' };
}
