// @spec SPEC-FEDERATION-001

import type { Config, GitSourceConfig } from '../../config.js';
import { CtxError } from '../../errors.js';
import { fetchPinned, hasPinned, listPinned, pathsAtPinned, readPinnedBlobs, sourceStore, type FetchAuth, type SourceStore } from '../../git/source-store.js';
import type { Snapshot, SnapshotEntry } from '../../snapshot/types.js';
import type { Artifact, LoadProblem } from '../types.js';
import { federatedFile, pinPrefix, SHORT } from './federated-file.js';

/**
 * Records from other repositories (DEC-061). A `sources:` entry with `git:` is read at the
 * commit `.contextia/sources.lock` pins, from a copy fetched into this clone's git directory:
 * the lock is committed, so every clone, CI run and `--at` view reads the same records, and a
 * bundle made from a commit names the same source commits. A federated record's file is
 * `~<source>@<commit12>/<path in the upstream>`: wherever a record's file is shown, its
 * source and pinned commit are.
 */

/** The lock file, beside config.yaml. */
export const LOCK_FILE = 'sources.lock';
const LOCK_VERSION = 1;

/** One pin of the lock: the source as it was when pinned, and the commit. */
export interface LockEntry {
  git: string;
  ref: string;
  commit: string;
}

export interface SourcesLock {
  sources: Record<string, LockEntry>;
}

/** A git source with its pin: what loading reads, and where. */
export interface PinnedSource extends GitSourceConfig {
  commit: string;
  /** the folder of its records as the set names it: `~name@commit12` (+ `/dir`) */
  folder: string;
  store: SourceStore;
}

/** A git source's state as the set was loaded: pinned, or why not (a finding, never a silent gap). */
export interface SourcesState {
  pinned: PinnedSource[];
  /** sources fetched during this load (a fresh clone): the front ends say so in one line */
  fetched: string[];
}

/** Parse the lock's text; an unreadable lock is a CONFIG error naming it. */
export function parseLock(text: string, file: string): SourcesLock {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CtxError('CONFIG', `not a sources lock (invalid JSON: ${(e as Error).message})`, { file, line: 1, hint: 'run `git ctx sources update` to write it again' });
  }
  const o = raw as { lock?: unknown; sources?: unknown };
  if (!o || typeof o !== 'object' || o.lock !== LOCK_VERSION || typeof o.sources !== 'object' || o.sources === null) {
    throw new CtxError('CONFIG', `not a sources lock of version ${LOCK_VERSION}`, { file, line: 1, hint: 'run `git ctx sources update` to write it again' });
  }
  const sources: Record<string, LockEntry> = {};
  for (const [name, v] of Object.entries(o.sources as Record<string, unknown>)) {
    const e = v as Partial<LockEntry>;
    if (!e || typeof e.git !== 'string' || typeof e.ref !== 'string' || typeof e.commit !== 'string' || !/^[0-9a-f]{40}$/.test(e.commit)) {
      throw new CtxError('CONFIG', `the pin of ${name} needs git, ref and a 40-digit commit`, { file, hint: 'run `git ctx sources update` to write it again' });
    }
    sources[name] = { git: e.git, ref: e.ref, commit: e.commit };
  }
  return { sources };
}

/** The lock as written: sources by name, keys in one order, so an unchanged pin is an unchanged file. */
export function formatLock(lock: SourcesLock): string {
  const sources: Record<string, LockEntry> = {};
  for (const name of Object.keys(lock.sources).sort()) {
    const e = lock.sources[name]!;
    sources[name] = { git: e.git, ref: e.ref, commit: e.commit };
  }
  return JSON.stringify({ lock: LOCK_VERSION, sources }, null, 2) + '\n';
}

/** The lock in a snapshot (empty when there is none). */
export async function readLock(snapshot: Snapshot, dir: string): Promise<SourcesLock> {
  const file = `${dir}/${LOCK_FILE}`;
  const buf = await snapshot.read(file);
  return buf ? parseLock(buf.toString('utf8'), file) : { sources: {} };
}

/**
 * The configured git sources with their pins. A source the lock does not pin (or pins for
 * another upstream) is a finding and is left unread: it has no commit to read.
 */
export async function pinSources(snapshot: Snapshot, config: Config, problems: LoadProblem[]): Promise<PinnedSource[]> {
  if (!config.gitSources.length) return [];
  const lock = await readLock(snapshot, config.dir);
  const out: PinnedSource[] = [];
  for (const s of config.gitSources) {
    const pin = lock.sources[s.name];
    if (!pin || pin.git !== s.git) {
      problems.push({
        file: `${config.dir}/config.yaml`,
        rule: 'source-unpinned',
        message: `git source ${s.name} (${s.git}) has no pin in ${config.dir}/${LOCK_FILE}${pin ? ` for this upstream (it pins ${pin.git})` : ''}; its records are not read: run \`git ctx sources update\``,
      });
      continue;
    }
    const prefix = pinPrefix(s.name, pin.commit);
    out.push({ ...s, commit: pin.commit, folder: s.dir ? `${prefix}/${s.dir}` : prefix, store: sourceStore(snapshot.root, s.name, s.git) });
  }
  return out;
}

/**
 * The token of a pinned folder: its listing never changes, since the commit fixes it (the
 * settings that shape its records are beside it in the set's key).
 */
export function pinToken(p: PinnedSource): string {
  return `pin\0${p.name}\0${p.git}\0${p.commit}\0${p.dir}`;
}

/**
 * The pinned folder's files, as set entries (paths under `~name@commit12/`). A copy not yet
 * in this clone (a fresh clone of a repository with a lock) is fetched first, and named in
 * `fetched`; one that cannot be fetched is an error naming the source.
 */
export async function listPinnedSource(p: PinnedSource, fetched: string[], auth?: FetchAuth): Promise<SnapshotEntry[]> {
  if (!(await hasPinned(p.store, p.commit, p.dir))) {
    await fetchPinned(p.store, p.commit, p.dir, auth);
    fetched.push(p.name);
  }
  const prefix = pinPrefix(p.name, p.commit);
  return (await listPinned(p.store, p.commit, p.dir)).map((e) => ({ path: `${prefix}/${e.path}`, mode: e.mode, blob: e.blob }));
}

/** Read federated files by their blob ids, each from its source's store. */
export async function readPinnedFiles(pins: PinnedSource[], entries: SnapshotEntry[]): Promise<(Buffer | undefined)[]> {
  const out: (Buffer | undefined)[] = new Array<Buffer | undefined>(entries.length);
  for (const p of pins) {
    const prefix = pinPrefix(p.name, p.commit) + '/';
    const mine = entries.map((e, i) => [e, i] as const).filter(([e]) => e.path.startsWith(prefix));
    if (!mine.length) continue;
    const bufs = await readPinnedBlobs(p.store, mine.map(([e]) => e.blob!));
    mine.forEach(([, i], k) => (out[i] = bufs[k]));
  }
  return out;
}

/**
 * A federated record is shared: project scope in its own repository is the global scope
 * here (global → domain → project), a domain record stays in its domain.
 */
export function shareScope(a: Artifact): void {
  if (a.scope === 'project') a.scope = 'global';
}

/**
 * Links of pinned records that leave their source's folder (DEC-066): the parser names them
 * `~name@commit12/<path in the upstream>`. One that names a file or folder the upstream has at
 * the pinned commit is a link to a document of that repository, not to a record: no relation
 * is drawn for it. One that names nothing there (or climbs above the upstream's top level) is
 * a broken link, reported on this repository's config (findings on the record's own file are
 * the upstream's: DEC-061), naming the source, the commit and the record. The relations and
 * links of a record are replaced, never edited in place (the parse cache holds them).
 */
export async function resolveOutsideLinks(pins: PinnedSource[], artifacts: Artifact[], configDir: string): Promise<LoadProblem[]> {
  const ids = new Set(artifacts.map((a) => a.id));
  const homes = new Map(pins.map((p) => [pinPrefix(p.name, p.commit) + '/', p]));
  const outside = (t: string): { pin: PinnedSource; path: string } | undefined => {
    if (!t.startsWith('~') || ids.has(t)) return undefined;
    const at = t.indexOf('/');
    const pin = homes.get(t.slice(0, at + 1));
    return pin ? { pin, path: t.slice(at + 1) } : undefined;
  };
  const asked = new Map<PinnedSource, Set<string>>();
  for (const a of artifacts) {
    if (a.origin !== 'federated') continue;
    for (const t of [...Object.values(a.relations).flat(), ...a.links.map((l) => l.id)]) {
      const o = outside(t!);
      if (o && o.path !== '..' && !o.path.startsWith('../')) (asked.get(o.pin) ?? asked.set(o.pin, new Set()).get(o.pin)!).add(o.path);
    }
  }
  const present = new Map<PinnedSource, Set<string>>();
  for (const [pin, paths] of asked) present.set(pin, await pathsAtPinned(pin.store, pin.commit, [...paths]));
  const problems: LoadProblem[] = [];
  for (const a of artifacts) {
    if (a.origin !== 'federated') continue;
    const gone = (t: string): boolean => {
      const o = outside(t);
      if (!o) return false;
      if (!present.get(o.pin)?.has(o.path)) problems.push({ file: `${configDir}/config.yaml`, rule: 'broken-link', message: `git source ${o.pin.name}@${o.pin.commit.slice(0, SHORT)}: ${a.id} (${federatedFile(a.file)?.path ?? a.file}) links ${o.path}, which is not in the upstream at that commit` });
      return true;
    };
    const rel: Artifact['relations'] = {};
    let touched = false;
    for (const [k, list] of Object.entries(a.relations) as [keyof Artifact['relations'], string[]][]) {
      const kept = list.filter((t) => !gone(t));
      if (kept.length !== list.length) touched = true;
      if (kept.length) rel[k] = kept;
    }
    const links = a.links.filter((l) => !gone(l.id));
    if (touched) a.relations = rel;
    if (links.length !== a.links.length) a.links = links;
  }
  // a target named both as a relation and a link is one broken link
  return [...new Map(problems.map((p) => [p.message, p])).values()];
}
