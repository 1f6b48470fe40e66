// @spec SPEC-HOOK-001
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isSeq, parseDocument, YAMLMap, YAMLSeq, type Document } from 'yaml';
import { CtxError } from '../errors.js';
import { packageRunner } from './package-runner.js';
import { appendToBlockMap, appendToBlockSeq, removeBlockMapPair, removeBlockSeqItem, sameDocument } from './yaml-append.js';

/**
 * Hook managers that own `.git/hooks` and regenerate it from their own configuration:
 * git-ctx is added as an entry in that configuration (never by renaming their hook, which
 * their next install would undo). See DEC-013.
 */
export type HookManager = 'lefthook' | 'simple-git-hooks' | 'pre-commit' | 'husky-v4';

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

/** The `husky.hooks` object of a package.json (husky v4's configuration), when there is one. */
function huskyV4Hooks(pkg: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const h = pkg?.husky;
  const hooks = h && typeof h === 'object' ? (h as { hooks?: unknown }).hooks : undefined;
  return hooks && typeof hooks === 'object' && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : undefined;
}

/** The manager whose hook currently sits in the hooks directory, recognised by its content. */
export function managerOfHook(hookText: string | undefined): HookManager | undefined {
  if (!hookText) return undefined;
  if (/husky/i.test(hookText) && !/\.husky\//.test(hookText)) return 'husky-v4';
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
  // husky v4 reads `husky.hooks` from package.json at each commit: its block is the configuration
  const hv4 = huskyV4Hooks(pkg);
  if (hv4) found.unshift({ manager: 'husky-v4', file: path.join(top, 'package.json'), packageKey: true });
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
    // our command's lines go, the rest stays as written (undefined: the document is serialised)
    let text: string | undefined = orig;
    const commands = hook.get('commands', true);
    if (isMap(commands)) {
      for (const item of [...commands.items].reverse()) {
        const run = isMap(item.value) ? item.value.get('run') : undefined;
        if (isOurs(run)) {
          text = text !== undefined && commands.items.length > 1 ? removeBlockMapPair(text, item) : undefined;
          removed = commands.delete(item.key) || removed;
        }
      }
      if (!commands.items.length) hook.delete('commands');
    }
    const jobs = hook.get('jobs', true);
    if (isSeq(jobs)) {
      const before = jobs.items.length;
      const mine = jobs.items.filter((j) => isMap(j) && isOurs(j.get('run')));
      for (const j of [...mine].reverse()) text = text !== undefined && jobs.items.length > mine.length ? removeBlockSeqItem(text, j as { range?: [number, number, number] }) : undefined;
      jobs.items = jobs.items.filter((j) => !mine.includes(j));
      removed = removed || jobs.items.length !== before;
      if (!jobs.items.length) hook.delete('jobs');
    }
    if (!removed) return { status: 'absent' };
    if (!hook.items.length) doc.delete('pre-commit');
    await write(cfg.file, withEol(orig, sameDocument(text, doc) ?? doc.toString(YAML_OUT)));
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
  // appended as text where the list or map is written in the file: the team's layout stays
  let appended: string | undefined;
  if (isSeq(jobs)) {
    appended = appendToBlockSeq(orig, jobs, { name: 'git-ctx', run: SHARED_LINE });
    (jobs as YAMLSeq).add(doc.createNode({ name: 'git-ctx', run: SHARED_LINE }));
  } else if (isMap(commands)) {
    appended = appendToBlockMap(orig, commands, 'git-ctx', { run: SHARED_LINE });
    commands.set('git-ctx', doc.createNode({ run: SHARED_LINE }));
  } else {
    hook.set('commands', doc.createNode({ 'git-ctx': { run: SHARED_LINE } }));
  }
  await write(cfg.file, withEol(orig, sameDocument(appended, doc) ?? doc.toString(YAML_OUT)));
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
    // the repo entry git-ctx added, whole: its lines go, the rest of the file stays as written
    let text: string | undefined = orig;
    for (const e of [...ours].reverse()) {
      const hooks = e.repo.get('hooks', true) as unknown as YAMLSeq;
      hooks.items = hooks.items.filter((h) => h !== e.hook);
      if (!hooks.items.length) (repos as YAMLSeq).items = (repos as YAMLSeq).items.filter((r) => r !== e.repo);
      text = text !== undefined && !hooks.items.length ? removeBlockSeqItem(text, e.repo as { range?: [number, number, number] }) : undefined;
    }
    await write(cfg.file, withEol(orig, sameDocument(text, doc) ?? doc.toString(YAML_OUT)));
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
  // appended as text where the list is written in the file: the team's layout stays as it is
  const appended = appendToBlockSeq(orig, repos, PRE_COMMIT_ENTRY);
  (repos as YAMLSeq).add(doc.createNode(PRE_COMMIT_ENTRY));
  await write(cfg.file, withEol(orig, sameDocument(appended, doc) ?? doc.toString(YAML_OUT)));
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

// ---- husky v4 ---------------------------------------------------------------------------------

/** A JSON string literal: `"…"` with escapes. */
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;

/**
 * husky v4: `"husky": { "hooks": { "pre-commit": "…" } }` in package.json. The file is edited
 * as text, only the one value (or one inserted line), so its formatting, key order and the
 * rest of the file stay byte for byte; the result is parsed back and compared with the
 * intended object, and anything unexpected leaves the file alone and says what to add.
 */
async function editHuskyV4(cfg: ManagerConfig, uninstall: boolean, write: Writer): Promise<ManagerEdit> {
  const orig = await readText(cfg.file);
  let root: Record<string, unknown>;
  try {
    root = JSON.parse(orig) as Record<string, unknown>;
  } catch (e) {
    throw new CtxError('PARSE', `${cfg.file}: ${(e as Error).message}`, { file: cfg.file, cause: e });
  }
  const hooks = huskyV4Hooks(root);
  if (!hooks) return { status: uninstall ? 'absent' : 'manual' };
  const current = hooks['pre-commit'];
  let next: string | undefined;
  if (uninstall) {
    if (!isOurs(current)) return { status: 'absent' };
    next = stripOurs(current as string);
  } else if (typeof current === 'string' && isOurs(current)) {
    if (current.endsWith(SHARED_LINE)) return { status: 'present' };
    const rest = stripOurs(current);
    next = rest.trim() ? `${rest} && ${SHARED_LINE}` : SHARED_LINE;
  } else if (runsHook(current)) return { status: 'present' };
  else if (current !== undefined && typeof current !== 'string') return { status: 'manual' };
  else next = typeof current === 'string' && current.trim() ? `${current} && ${SHARED_LINE}` : SHARED_LINE;

  // where the husky block's hooks object is in the text
  const block = new RegExp(String.raw`("husky"\s*:\s*\{[\s\S]*?"hooks"\s*:\s*\{)`).exec(orig);
  if (!block) return { status: 'manual' };
  const from = block.index + block[0].length;
  let text: string | undefined;
  if (current !== undefined) {
    const m = new RegExp(String.raw`("pre-commit"\s*:\s*)(${JSON_STRING})`, 'y');
    // the first "pre-commit" key after the opening brace of hooks
    const at = orig.slice(from).search(/"pre-commit"\s*:/);
    if (at >= 0) {
      m.lastIndex = from + at;
      const hit = m.exec(orig);
      if (hit) {
        const value = uninstall && !next!.trim() ? undefined : JSON.stringify(next);
        if (value !== undefined) text = orig.slice(0, hit.index) + hit[1] + value + orig.slice(hit.index + hit[0].length);
        else {
          // drop the property with one comma: the one after it (and its line), else the one before
          const after = /^\s*,[ \t]*(?:\r?\n)?/.exec(orig.slice(hit.index + hit[0].length));
          const lineStart = orig.lastIndexOf('\n', hit.index - 1) + 1;
          const ownLine = /^[ \t]*$/.test(orig.slice(lineStart, hit.index));
          if (after) text = orig.slice(0, ownLine ? lineStart : hit.index) + orig.slice(hit.index + hit[0].length + after[0].length);
          else {
            const comma = orig.slice(0, hit.index).search(/,\s*$/);
            // the only hook: `{ "pre-commit": "…" }` becomes `{}`
            text = comma >= 0 ? orig.slice(0, comma) + orig.slice(hit.index + hit[0].length) : orig.slice(0, hit.index).trimEnd() + orig.slice(hit.index + hit[0].length).trimStart();
          }
        }
      }
    }
  } else {
    // insert `"pre-commit": "…",` as the first hook, indented like the next line (or one step in)
    const rest = orig.slice(from);
    const nl = /^[ \t]*\r?\n([ \t]*)(\S)/.exec(rest);
    const indent = nl ? nl[1]! : '';
    const empty = nl ? nl[2] === '}' : /^\s*\}/.test(rest);
    const eol = orig.includes('\r\n') ? '\r\n' : '\n';
    const inner = empty ? `${indent}${jsonIndentUnit(orig)}` : indent;
    text = nl
      ? `${orig.slice(0, from)}${eol}${inner}"pre-commit": ${JSON.stringify(next)}${empty ? '' : ','}${orig.slice(from)}`
      : `${orig.slice(0, from)} "pre-commit": ${JSON.stringify(next)}${empty ? ' ' : ', '}${orig.slice(from).replace(/^\s*/, '')}`;
  }
  const expected = structuredClone(root) as { husky: { hooks: Record<string, unknown> } };
  if (uninstall && !next!.trim()) delete expected.husky.hooks['pre-commit'];
  else expected.husky.hooks['pre-commit'] = next;
  let ok: boolean;
  try {
    ok = text !== undefined && canonical(JSON.parse(text)) === canonical(expected);
  } catch {
    ok = false;
  }
  if (!ok) return { status: uninstall ? 'absent' : 'manual' };
  await write(cfg.file, text!);
  return { status: uninstall ? 'removed' : current !== undefined && isOurs(current) ? 'updated' : 'added' };
}

/** JSON with keys sorted: the same text for the same value whatever the key order. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
}

/** One level of a JSON file's indentation (two spaces when it cannot tell). */
function jsonIndentUnit(text: string): string {
  const i = jsonIndent(text);
  return typeof i === 'number' ? ' '.repeat(i) : i;
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
  else if (cfg.manager === 'husky-v4') {
    const e = await editHuskyV4(cfg, uninstall, write);
    // husky v4 reads package.json at each commit, once its own hooks are in .git/hooks
    if (!uninstall && e.status !== 'manual' && managerOfHook(hookText) !== 'husky-v4') e.pending = `husky v4's hooks are not installed in this clone yet: run \`${packageRunner(top).install}\` (husky installs them)`;
    return e;
  } else return editSimpleGitHooks(cfg, top, uninstall, write);
  if (!uninstall && managerOfHook(hookText) !== cfg.manager) {
    edit.pending = cfg.manager === 'lefthook' ? `lefthook's hooks are not installed in this clone yet: run \`${packageRunner(top).lefthookInstall}\`` : "the framework's hook is not installed in this clone yet: run `pre-commit install`";
  }
  return edit;
}

/** The snippet to add by hand where git-ctx cannot edit the configuration (JavaScript, TOML). */
export function manualSnippet(cfg: ManagerConfig): string {
  if (cfg.manager === 'lefthook') return `pre-commit → commands → git-ctx → run: ${SHARED_LINE}`;
  if (cfg.manager === 'husky-v4') return `in package.json, "husky" → "hooks" → "pre-commit": append \` && ${SHARED_LINE}\` to the command (or set it to ${JSON.stringify(SHARED_LINE)} when there is none)`;
  return `"pre-commit": ${JSON.stringify(SHARED_LINE)}`;
}
