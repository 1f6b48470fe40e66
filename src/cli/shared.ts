// @spec SPEC-CLI-001

import { Option, type Command } from './commander.js';
import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import { zeroConfigLine } from '../artifacts/sources/zero-config-line.js';
import type { Config } from '../config.js';
import { CtxError } from '../errors.js';
import type { Snapshot } from '../snapshot/types.js';
import { phase } from '../util/timing.js';
import { io } from './io.js';

/** Options every repository-reading command accepts. */
export interface RepoOptions {
  root?: string;
  at?: string;
  staged?: boolean;
  global?: boolean;
}

export { io, setIo, colors, ExitCode, type Io } from './io.js';

export function addRepoOptions(cmd: Command, opts: { at?: boolean; staged?: boolean } = { at: true, staged: true }): Command {
  cmd.option('-C, --root <dir>', 'repository to work on (default: the current directory)');
  if (opts.at !== false) cmd.option('--at <rev>', 'read the repository as of this commit');
  if (opts.staged !== false) cmd.option('--staged', 'read the staged content (the index) instead of the working tree');
  cmd.option('--global', 'include global artifacts from the user config directory');
  return cmd;
}

export function formatOption(formats: string[], def: string): Option {
  return new Option('-f, --format <format>', 'output format').choices(formats).default(def);
}

const noted = new WeakSet<object>();

/**
 * With no config file, the one line (stderr, once per run) that says which records folders
 * were read and that `git ctx init` pins them: the answers then depend on a guess the team
 * has not confirmed. When no folder was found, nothing, unless ADR-named files stand at the
 * top of the repository, where no folder source reads them: those are said to be unread.
 */
export function noteZeroConfig(config: Config): void {
  const z = config.zeroConfig;
  const out = io();
  if (!z || noted.has(out)) return;
  // records kept at the top of the repository are left unread: say so, not just "no artifacts"
  if (!z.sources.length && z.unreadTop?.length) {
    noted.add(out);
    const t = z.unreadTop;
    out.err(`git-ctx: ${t.length} files named as decision records (${t.slice(0, 2).join(', ')}${t.length > 2 ? ', \u2026' : ''}) are at the top of the repository, where no records folder can be read: move them into a folder (docs/adr/) to read them\n`);
    return;
  }
  if (!z.sources.length) return;
  noted.add(out);
  out.err(`git-ctx: ${zeroConfigLine(z, config.dir)}\n`);
}

/** A fresh clone fetched pinned git sources while loading: one line (stderr) naming them and their commits. */
export function noteFetched(set: ArtifactSet): void {
  const fetched = set.sources?.fetched ?? [];
  if (!fetched.length) return;
  const pins = set.sources!.pinned.filter((p) => fetched.includes(p.name));
  io().err(`git-ctx: fetched git ${pins.length === 1 ? 'source' : 'sources'} ${pins.map((p) => `${p.name} at ${p.commit.slice(0, 12)}`).join(', ')} (pinned in ${set.config.dir}/sources.lock) into .git/ctx/sources\n`);
}

/** The zero-configuration fact as a JSON output's `zero_config` key (absent with a config file or no folder found); `missing`: a named folder not in the tree. */
export function zeroConfigJson(config: Config): { zero_config?: { sources: { dir: string; records: number; from: string; missing?: true }[]; from: string } } {
  const z = config.zeroConfig;
  return z?.sources.length ? { zero_config: { sources: z.sources.map(({ dir, records, from, missing }) => ({ dir, records, from, ...(missing ? { missing: true as const } : {}) })), from: z.from } } : {};
}

/** The folders read without a config file that hold no record (for "nothing found"), and which of them are not there at all. */
export function emptyFolders(zero: ReturnType<typeof zeroConfigJson>): { dir: string; from: string; missing?: boolean }[] {
  return zero.zero_config?.sources.filter((s) => s.records === 0).map(({ dir, from, missing }) => ({ dir, from, missing })) ?? [];
}

export interface RepoContext {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  cwd: string;
  close(): void;
}

/** `wrap`: what the command reads through instead of the snapshot itself (a RecordingSnapshot, to keep the answer). */
export async function openRepo(o: RepoOptions, wrap?: (s: Snapshot) => Snapshot): Promise<{ snapshot: Snapshot; config: Config; cwd: string }> {
  const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
  if (o.at && o.staged) throw new CtxError('USAGE', '--at and --staged cannot be combined');
  phase('snapshot');
  // the readers load when a command reads the repository (a kept answer reads none of it, DEC-062)
  const [{ openSnapshot }, { warmUp }, { loadConfig }] = await Promise.all([import('../snapshot/open.js'), import('../artifacts/load.js'), import('../config.js')]);
  const opened = await openSnapshot({ cwd, kind: o.at ? 'commit' : o.staged ? 'index' : 'worktree', rev: o.at });
  const snapshot = wrap ? wrap(opened) : opened;
  try {
    // every caller goes on to load the artifact set
    warmUp(snapshot);
    phase('config');
    const config = await loadConfig(snapshot);
    return { snapshot, config, cwd };
  } catch (e) {
    snapshot.close();
    throw e;
  }
}

/**
 * Open the repository and load its artifacts. With `place` (the repository path a one-place
 * question is about, from the top level and the current directory), the working tree is
 * read through the place index (src/place): the tree-wide view from the git index, the place
 * itself fresh from disk. `place` may also give a list of files (a search naming some): the
 * same tree-wide view, with those files fresh from disk.
 */
export async function loadRepo(o: RepoOptions, place?: (root: string, cwd: string) => string | string[], wrap?: (s: Snapshot) => Snapshot): Promise<RepoContext> {
  const [opened, { openPlace, openTreeView }, { loadArtifactSet }] = await Promise.all([openRepo(o, wrap), import('../place/index.js'), import('../artifacts/load.js')]);
  const { config, cwd } = opened;
  let snapshot = opened.snapshot;
  try {
    if (place) {
      // a list: no one place, only files the question names (search)
      const p = place(snapshot.root, cwd);
      snapshot = Array.isArray(p) ? openTreeView(snapshot, p) : openPlace(snapshot, p);
    }
    const set = await loadArtifactSet(snapshot, config, { global: o.global || undefined });
    noteZeroConfig(config);
    noteFetched(set);
    return { snapshot, config, set, cwd, close: () => snapshot.close() };
  } catch (e) {
    snapshot.close();
    throw e;
  }
}

export function parsePositiveInt(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new CtxError('USAGE', `${name} must be a non-negative integer (got ${JSON.stringify(v)})`);
    return n;
  };
}

/**
 * The widest an id column grows for a few long ids. A longer id (a dated slug,
 * `ADR-20200924-use-a-long-name`) widened every row of `list` to its length; it is written
 * whole (people copy ids) on a line of its own, and its row's other cells go on the next line,
 * in their columns. When most ids are long (eclipse-edc/Connector names every record by its
 * date and slug), the column fits four in five of them, up to ID_COLUMN_MOST, rather than
 * putting most rows on two lines.
 */
export const ID_COLUMN_MAX = 24;
const ID_COLUMN_MOST = 44;

/** An id column for these ids: its width, and a row's id cell (a long id, then a new line indented to the column). */
export function idColumn(ids: readonly string[]): { width: number; cell: (id: string, style?: (s: string) => string) => string } {
  const lengths = ids.map((id) => id.length).sort((a, b) => a - b);
  const most = lengths[Math.floor((lengths.length - 1) * 0.8)] ?? 0;
  const width = Math.min(Math.max(ID_COLUMN_MAX, Math.min(ID_COLUMN_MOST, most)), Math.max(2, ...lengths));
  return { width, cell: (id, style = (s) => s) => (id.length <= width ? style(id.padEnd(width)) : `${style(id)}\n${''.padEnd(width)}`) };
}
