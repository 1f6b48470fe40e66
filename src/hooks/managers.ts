// @spec SPEC-HOOK-001
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isSeq, parseDocument, YAMLMap, YAMLSeq, type Document } from 'yaml';
import { CtxError } from '../errors.js';

/**
 * Hook managers that own `.git/hooks` and regenerate it from their own configuration:
 * git-ctx is added as an entry in that configuration (never by renaming their hook, which
 * their next install would undo). See DEC-013.
 */
export type HookManager = 'lefthook' | 'simple-git-hooks' | 'pre-commit';

/** Marker present in every entry git-ctx writes into a shared (committed) hook configuration. */
export const ENTRY_MARKER = 'git-ctx-managed-hook';

/**
 * The command written into shared, committed hook configurations. It prefers the project's
 * own install (node_modules/.bin), then one on PATH, and never blocks a teammate who has
 * neither: it prints one line and lets the commit through. Hooks run at the work tree's top
 * level (git, lefthook, husky and the pre-commit framework all do), so the relative path holds.
 */
export const SHARED_COMMAND =
  'if [ -x node_modules/.bin/git-ctx ]; then node_modules/.bin/git-ctx hook pre-commit; ' +
  'elif command -v git-ctx >/dev/null 2>&1; then git-ctx hook pre-commit; ' +
  'else echo "git-ctx is not installed here, skipping its pre-commit check (npm install adds it)" >&2; fi';

/** The shared command with the marker as a trailing shell comment, as one line. */
export const SHARED_LINE = `${SHARED_COMMAND} # ${ENTRY_MARKER}`;

/** Any text that already runs the hook (ours or a line a user wrote). */
export const RUNS_HOOK_RE = /(?:^|[\s;&|])(?:exec\s+)?(?:npx\s+(?:--no-install\s+|--no\s+)?)?(?:\S*\/)?git[- ]ctx\s+hook\s+pre-commit\b/m;

/** Which manager's config was found, and where. */
export interface ManagerConfig {
  manager: HookManager;
  /** absolute path of the configuration file */
  file: string;
  /** for simple-git-hooks in package.json: the key holding the configuration */
  packageKey?: boolean;
  /** configuration file git-ctx cannot edit safely (JavaScript, TOML, JSON for lefthook) */
  manual?: boolean;
}

/** The result of editing a manager's configuration. */
export interface ManagerEdit {
  status: 'added' | 'present' | 'updated' | 'removed' | 'absent' | 'manual';
  /** what still has to happen for the entry to run (the manager's hooks not installed yet) */
  pending?: string;
  /** the manager's own install was run to apply the change */
  applied?: string;
}

const LEFTHOOK_FILES = ['lefthook.yml', '.lefthook.yml', 'lefthook.yaml', '.lefthook.yaml', '.config/lefthook.yml', '.config/lefthook.yaml'];
const LEFTHOOK_MANUAL = ['lefthook.json', '.lefthook.json', 'lefthook.toml', '.lefthook.toml', 'lefthook.jsonc', '.lefthook.jsonc'];
const SGH_JSON = ['.simple-git-hooks.json', 'simple-git-hooks.json'];
const SGH_MANUAL = ['.simple-git-hooks.cjs', 'simple-git-hooks.cjs', '.simple-git-hooks.js', 'simple-git-hooks.js', '.simple-git-hooks.mjs', 'simple-git-hooks.mjs'];

function first(top: string, names: string[]): string | undefined {
  for (const n of names) if (existsSync(path.join(top, n))) return path.join(top, n);
  return undefined;
}

function readPackage(top: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path.join(top, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The manager whose hook currently sits in the hooks directory, recognised by its content. */
export function managerOfHook(hookText: string | undefined): HookManager | undefined {
  if (!hookText) return undefined;
  if (/\blefthook\b/.test(hookText)) return 'lefthook';
  if (/pre-commit\.com|INSTALL_PYTHON|pre_commit/.test(hookText)) return 'pre-commit';
  return undefined;
}

/**
 * Find a hook manager's configuration in the work tree. When several are present, the one
 * whose hook is installed wins; otherwise lefthook, then the pre-commit framework, then
 * simple-git-hooks.
 */
export function detectManager(top: string, hookText: string | undefined): ManagerConfig | undefined {
  const found: ManagerConfig[] = [];
  const lh = first(top, LEFTHOOK_FILES);
  if (lh) found.push({ manager: 'lefthook', file: lh });
  else {
    const m = first(top, LEFTHOOK_MANUAL);
    if (m) found.push({ manager: 'lefthook', file: m, manual: true });
  }
  const pc = path.join(top, '.pre-commit-config.yaml');
  if (existsSync(pc)) found.push({ manager: 'pre-commit', file: pc });
  const pkg = readPackage(top);
  if (pkg && typeof pkg['simple-git-hooks'] === 'object' && pkg['simple-git-hooks'] !== null) {
    found.push({ manager: 'simple-git-hooks', file: path.join(top, 'package.json'), packageKey: true });
  } else {
    const j = first(top, SGH_JSON);
    const js = first(top, SGH_MANUAL);
    if (j) found.push({ manager: 'simple-git-hooks', file: j });
    else if (js) found.push({ manager: 'simple-git-hooks', file: js, manual: true });
    else if (pkg && hasDep(pkg, 'simple-git-hooks')) found.push({ manager: 'simple-git-hooks', file: path.join(top, 'package.json'), packageKey: true });
  }
  if (!found.length) return undefined;
  const owner = managerOfHook(hookText);
  return found.find((f) => f.manager === owner) ?? found[0];
}

function hasDep(pkg: Record<string, unknown>, name: string): boolean {
  for (const k of ['devDependencies', 'dependencies']) {
    const deps = pkg[k];
    if (deps && typeof deps === 'object' && name in deps) return true;
  }
  return false;
}

function yamlError(file: string, doc: Document): CtxError {
  const e = doc.errors[0]!;
  const line = e.linePos?.[0]?.line;
  return new CtxError('PARSE', `${path.basename(file)}${line ? `:${line}` : ''}: ${e.message.split('\n')[0]}`, {
    file,
    line,
    hint: 'fix the YAML, then re-run git ctx hooks install',
  });
}

function isOurs(text: unknown): boolean {
  return typeof text === 'string' && text.includes(ENTRY_MARKER);
}

function runsHook(text: unknown): boolean {
  return typeof text === 'string' && (text.includes(ENTRY_MARKER) || RUNS_HOOK_RE.test(text));
}

/** Keep the file's final-newline convention. */
function withEol(orig: string, text: string): string {
  return orig.endsWith('\n') || orig === '' ? (text.endsWith('\n') ? text : `${text}\n`) : text.replace(/\n$/, '');
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new CtxError('IO', `cannot read ${file}: ${(e as Error).message}`, { cause: e, file });
  }
}

/** Keep long commands on one line (the default folds them at 80 columns). */
const YAML_OUT = { lineWidth: 0 } as const;

type Writer = (file: string, content: string) => Promise<void>;

// ---- lefthook ----------------------------------------------------------------------------

async function editLefthook(cfg: ManagerConfig, uninstall: boolean, write: Writer): Promise<ManagerEdit> {
  const orig = await readText(cfg.file);
  const doc = parseDocument(orig);
  if (doc.errors.length) throw yamlError(cfg.file, doc);
  const hook = doc.get('pre-commit', true);
  if (uninstall) {
    if (!isMap(hook)) return { status: 'absent' };
    let removed = false;
    const commands = hook.get('commands', true);
    if (isMap(commands)) {
      for (const item of [...commands.items]) {
        const run = isMap(item.value) ? item.value.get('run') : undefined;
        if (isOurs(run)) removed = commands.delete(item.key) || removed;
      }
      if (!commands.items.length) hook.delete('commands');
    }
    const jobs = hook.get('jobs', true);
    if (isSeq(jobs)) {
      const before = jobs.items.length;
      jobs.items = jobs.items.filter((j) => !(isMap(j) && isOurs(j.get('run'))));
      removed = removed || jobs.items.length !== before;
      if (!jobs.items.length) hook.delete('jobs');
    }
    if (!removed) return { status: 'absent' };
    if (!hook.items.length) doc.delete('pre-commit');
    await write(cfg.file, withEol(orig, doc.toString(YAML_OUT)));
    return { status: 'removed' };
  }
  if (hook === undefined || hook === null) {
    // no pre-commit section: append one as text, leaving the rest of the file byte for byte
    const block = `pre-commit:\n  commands:\n    git-ctx:\n      run: ${JSON.stringify(SHARED_LINE)}\n`;
    const sep = orig === '' || orig.endsWith('\n') ? '' : '\n';
    await write(cfg.file, `${orig}${sep}${block}`);
    return { status: 'added' };
  }
  if (!isMap(hook)) throw new CtxError('PARSE', `${cfg.file}: pre-commit is not a mapping`, { file: cfg.file, hint: 'add the git-ctx command by hand (see docs/hooks.md, "lefthook")' });
  const jobs = hook.get('jobs', true);
  const commands = hook.get('commands', true);
  const runs: { node: YAMLMap; run: unknown }[] = [];
  if (isSeq(jobs)) for (const j of jobs.items) if (isMap(j)) runs.push({ node: j, run: j.get('run') });
  if (isMap(commands)) for (const c of commands.items) if (isMap(c.value)) runs.push({ node: c.value, run: c.value.get('run') });
  const ours = runs.find((r) => isOurs(r.run));
  if (ours) {
    if (ours.run === SHARED_LINE) return { status: 'present' };
    ours.node.set('run', SHARED_LINE);
    await write(cfg.file, withEol(orig, doc.toString(YAML_OUT)));
    return { status: 'updated' };
  }
  if (runs.some((r) => runsHook(r.run))) return { status: 'present' };
  if (isSeq(jobs)) {
    const job = doc.createNode({ name: 'git-ctx', run: SHARED_LINE });
    (jobs as YAMLSeq).add(job);
  } else if (isMap(commands)) {
    commands.set('git-ctx', doc.createNode({ run: SHARED_LINE }));
  } else {
    hook.set('commands', doc.createNode({ 'git-ctx': { run: SHARED_LINE } }));
  }
  await write(cfg.file, withEol(orig, doc.toString(YAML_OUT)));
  return { status: 'added' };
}

// ---- pre-commit framework ------------------------------------------------------------------

const PRE_COMMIT_ENTRY = {
  repo: 'local',
  hooks: [
    {
      id: 'git-ctx',
      name: 'git-ctx (context coherence and drift)',
      entry: `sh -c '${SHARED_LINE}'`,
      language: 'system',
      pass_filenames: false,
      always_run: true,
      require_serial: true,
      verbose: true,
    },
  ],
};

async function editPreCommit(cfg: ManagerConfig, uninstall: boolean, write: Writer): Promise<ManagerEdit> {
  const orig = await readText(cfg.file);
  const doc = parseDocument(orig);
  if (doc.errors.length) throw yamlError(cfg.file, doc);
  let repos: unknown = doc.get('repos', true);
  const entries: { repo: YAMLMap; hook: YAMLMap }[] = [];
  if (isSeq(repos)) {
    for (const r of repos.items) {
      if (!isMap(r)) continue;
      const hooks = r.get('hooks', true);
      if (isSeq(hooks)) for (const h of hooks.items) if (isMap(h) && h.get('id') === 'git-ctx') entries.push({ repo: r, hook: h });
    }
  }
  const ours = entries.filter((e) => isOurs(e.hook.get('entry')));
  if (uninstall) {
    if (!ours.length || !isSeq(repos)) return { status: 'absent' };
    for (const e of ours) {
      const hooks = e.repo.get('hooks', true) as unknown as YAMLSeq;
      hooks.items = hooks.items.filter((h) => h !== e.hook);
      if (!hooks.items.length) (repos as YAMLSeq).items = (repos as YAMLSeq).items.filter((r) => r !== e.repo);
    }
    await write(cfg.file, withEol(orig, doc.toString(YAML_OUT)));
    return { status: 'removed' };
  }
  // a git-ctx hook from the git-ctx repository itself (or one written by hand) already runs it
  if (entries.length && !ours.length) return { status: 'present' };
  if (ours.length) {
    if (ours[0]!.hook.get('entry') === PRE_COMMIT_ENTRY.hooks[0]!.entry) return { status: 'present' };
    ours[0]!.hook.set('entry', PRE_COMMIT_ENTRY.hooks[0]!.entry);
    await write(cfg.file, withEol(orig, doc.toString(YAML_OUT)));
    return { status: 'updated' };
  }
  if (!isSeq(repos)) {
    if (repos !== undefined && repos !== null) throw new CtxError('PARSE', `${cfg.file}: repos is not a list`, { file: cfg.file });
    repos = new YAMLSeq();
    doc.set('repos', repos);
  }
  (repos as YAMLSeq).add(doc.createNode(PRE_COMMIT_ENTRY));
  await write(cfg.file, withEol(orig, doc.toString(YAML_OUT)));
  return { status: 'added' };
}

// ---- simple-git-hooks ------------------------------------------------------------------------

function jsonIndent(text: string): string | number {
  const m = /^[ \t]+(?=")/m.exec(text);
  return m ? m[0] : 2;
}

function stripOurs(cmd: string): string {
  // our command is always appended last, after " && " when there was one before it
  const i = cmd.indexOf(SHARED_COMMAND);
  const j = i >= 0 ? i : cmd.search(/if \[ -x node_modules\/\.bin\/git-ctx \]/);
  if (j < 0) return cmd;
  return cmd.slice(0, j).replace(/\s*&&\s*$/, '');
}

async function editSimpleGitHooks(cfg: ManagerConfig, top: string, uninstall: boolean, write: Writer): Promise<ManagerEdit> {
  const orig = await readText(cfg.file);
  let root: Record<string, unknown>;
  try {
    root = JSON.parse(orig) as Record<string, unknown>;
  } catch (e) {
    throw new CtxError('PARSE', `${cfg.file}: ${(e as Error).message}`, { file: cfg.file, cause: e });
  }
  const conf = (cfg.packageKey ? (root['simple-git-hooks'] ??= {}) : root) as Record<string, unknown>;
  const current = conf['pre-commit'];
  const save = async (): Promise<void> => write(cfg.file, withEol(orig, JSON.stringify(root, null, jsonIndent(orig))));
  if (uninstall) {
    if (!isOurs(current)) return { status: 'absent' };
    const rest = stripOurs(current as string);
    if (rest.trim()) conf['pre-commit'] = rest;
    else delete conf['pre-commit'];
    await save();
    return { status: 'removed', ...applySimpleGitHooks(top) };
  }
  if (typeof current === 'string' && isOurs(current)) {
    if (current.endsWith(SHARED_LINE)) return { status: 'present', ...pendingSimpleGitHooks(top) };
    const rest = stripOurs(current);
    conf['pre-commit'] = rest.trim() ? `${rest} && ${SHARED_LINE}` : SHARED_LINE;
    await save();
    return { status: 'updated', ...applySimpleGitHooks(top) };
  }
  if (runsHook(current)) return { status: 'present', ...pendingSimpleGitHooks(top) };
  conf['pre-commit'] = typeof current === 'string' && current.trim() ? `${current} && ${SHARED_LINE}` : SHARED_LINE;
  await save();
  return { status: 'added', ...applySimpleGitHooks(top) };
}

function simpleGitHooksBin(top: string): string | undefined {
  const bin = path.join(top, 'node_modules', '.bin', 'simple-git-hooks');
  return existsSync(bin) ? bin : undefined;
}

/** simple-git-hooks copies its configuration into .git/hooks only when its installer runs. */
function applySimpleGitHooks(top: string): Pick<ManagerEdit, 'applied' | 'pending'> {
  const bin = simpleGitHooksBin(top);
  if (!bin) return { pending: 'run `npx simple-git-hooks` (or npm install, when it is in your prepare script) to apply the change to .git/hooks' };
  const r = spawnSync(bin, [], { cwd: top, encoding: 'utf8', timeout: 60_000 });
  if (r.status === 0) return { applied: 'node_modules/.bin/simple-git-hooks' };
  return { pending: `node_modules/.bin/simple-git-hooks failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').trim().split('\n')[0] ?? ''}; run \`npx simple-git-hooks\` to apply the change` };
}

function pendingSimpleGitHooks(top: string): Pick<ManagerEdit, 'pending'> {
  return simpleGitHooksBin(top) ? {} : { pending: 'run `npx simple-git-hooks` to apply the configuration to .git/hooks' };
}

/**
 * Add (or remove) git-ctx's entry in the manager's configuration. Writes through `write`
 * (atomic, inside the repository); returns what happened, never prints.
 */
export async function editManagerConfig(cfg: ManagerConfig, top: string, hookText: string | undefined, uninstall: boolean, write: Writer): Promise<ManagerEdit> {
  if (cfg.manual) return { status: uninstall ? 'absent' : 'manual' };
  let edit: ManagerEdit;
  if (cfg.manager === 'lefthook') edit = await editLefthook(cfg, uninstall, write);
  else if (cfg.manager === 'pre-commit') edit = await editPreCommit(cfg, uninstall, write);
  else return editSimpleGitHooks(cfg, top, uninstall, write);
  if (!uninstall && managerOfHook(hookText) !== cfg.manager) {
    edit.pending = cfg.manager === 'lefthook' ? "lefthook's hooks are not installed in this clone yet: run `npx lefthook install`" : "the framework's hook is not installed in this clone yet: run `pre-commit install`";
  }
  return edit;
}

/** The snippet to add by hand where git-ctx cannot edit the configuration (JavaScript, TOML). */
export function manualSnippet(cfg: ManagerConfig): string {
  if (cfg.manager === 'lefthook') return `pre-commit → commands → git-ctx → run: ${SHARED_LINE}`;
  return `"pre-commit": ${JSON.stringify(SHARED_LINE)}`;
}
