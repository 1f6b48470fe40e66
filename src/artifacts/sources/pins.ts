// @spec SPEC-FEDERATION-001

import path from 'node:path';
import type { Config, GitSourceConfig } from '../../config.js';
import { CtxError } from '../../errors.js';
import { behindBy, fetchPinned, hasPinned, listPinned, readPinnedBlobs, resolveRef, sourceStore, type FetchAuth, type SourceStore } from '../../git/source-store.js';
import type { Snapshot } from '../../snapshot/types.js';
import { writeFileAtomic } from '../../util/atomic.js';
import type { Artifact } from '../types.js';
import { extraOf } from './extra.js';
import { isAdrFile } from './files.js';
import { formatLock, LOCK_FILE, readLock, type SourcesLock } from './federated.js';
import { pinPrefix } from './federated-file.js';

/**
 * Pinning git sources (DEC-061): `update` moves each pin to what its ref names now and says
 * what that changes; `status` says how far each pin is behind its ref; `fetch` brings the
 * pinned copies into this clone. Each returns data; the CLI prints it.
 */

/** What moving one pin changed, by record id. */
export interface PinChange {
  name: string;
  git: string;
  ref: string;
  /** the pin before (absent: the source was not pinned) */
  from?: string;
  to: string;
  added: string[];
  changed: string[];
  removed: string[];
  /** records whose file moved (a renamed or renumbered record): matched by id, then by content (DEC-066) */
  renamed: RenamedRecord[];
  /** records whose status became superseded (or that another record now supersedes) */
  superseded: string[];
  /** the previous pin could not be read (the upstream rewrote its history): no per-record change */
  previousUnavailable?: true;
}

/** A record of the previous pin found again under another file (and, renumbered, another id). */
export interface RenamedRecord {
  from: string;
  to: string;
  fromFile: string;
  toFile: string;
  /** its content changed too (beyond the number in its title) */
  changed: boolean;
}

export interface UpdateResult {
  /** the lock file, repository-relative */
  lock: string;
  changes: PinChange[];
  /** pins of sources no longer configured, dropped from the lock */
  dropped: string[];
  /** whether the lock file's bytes changed */
  written: boolean;
}

function selected(config: Config, names: string[] | undefined): GitSourceConfig[] {
  if (!config.gitSources.length) throw new CtxError('USAGE', 'no git sources are configured', { file: `${config.dir}/config.yaml`, hint: 'add a `sources:` entry with `git:`, `ref:` and `dir:` (see docs/sharing-decisions.md)' });
  if (!names?.length) return config.gitSources;
  const unknown = names.filter((n) => !config.gitSources.some((s) => s.name === n));
  if (unknown.length) throw new CtxError('USAGE', `no git source named ${unknown.join(', ')} (configured: ${config.gitSources.map((s) => s.name).join(', ')})`);
  return config.gitSources.filter((s) => names.includes(s.name));
}

/** A record's id and status as its file gives them, for the change report (parsed without the set). */
type PinnedRecord = { id: string; file: string; blob: string; status?: string; supersedes: string[]; words: Map<string, number> };

/** A record's words and how often each occurs: what a renamed record is recognised by. */
function wordsOf(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
}

/** How much of two records' words they share (Dice over the word counts): 1 for the same words. */
function similarity(a: Map<string, number>, b: Map<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const [w, n] of a) {
    total += n;
    shared += Math.min(n, b.get(w) ?? 0);
  }
  for (const n of b.values()) total += n;
  return total ? (2 * shared) / total : 0;
}

/**
 * A record whose file went and one whose file came that share at least this share of their
 * words are one record renamed or renumbered: git's own rename detection defaults to 50 %.
 */
const RENAME_SIMILARITY = 0.5;

/**
 * Pair the records of files gone with those of files come: the same id first (a file
 * renamed), then the same bytes, then the most similar text (a record renumbered: its id
 * and title number changed, its words did not), each record in one pair at most.
 */
function matchRenames(gone: PinnedRecord[], come: PinnedRecord[]): RenamedRecord[] {
  const pairs: [PinnedRecord, PinnedRecord][] = [];
  const left = new Set(gone);
  const right = new Set(come);
  const take = (g: PinnedRecord, c: PinnedRecord) => {
    pairs.push([g, c]);
    left.delete(g);
    right.delete(c);
  };
  for (const c of come) {
    const g = [...left].find((x) => x.id === c.id) ?? [...left].find((x) => x.blob === c.blob);
    if (g) take(g, c);
  }
  const scored: { g: PinnedRecord; c: PinnedRecord; s: number }[] = [];
  for (const g of left) for (const c of right) {
    const s = similarity(g.words, c.words);
    if (s >= RENAME_SIMILARITY) scored.push({ g, c, s });
  }
  // best first; ties by file, so the pairing never depends on listing order
  scored.sort((x, y) => y.s - x.s || (x.g.file < y.g.file ? -1 : x.g.file > y.g.file ? 1 : x.c.file < y.c.file ? -1 : 1));
  for (const { g, c } of scored) if (left.has(g) && right.has(c)) take(g, c);
  return pairs
    .map(([g, c]) => ({ from: g.id, to: c.id, fromFile: g.file, toFile: c.file, changed: g.blob !== c.blob && similarity(g.words, c.words) < 1 }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

async function recordsAt(store: SourceStore, commit: string, s: GitSourceConfig): Promise<Map<string, PinnedRecord>> {
  const entries = (await listPinned(store, commit, s.dir)).filter((e) => e.mode !== '120000' && (s.format === 'adr' ? isAdrFile(e.path) : e.path.endsWith('.md') && !/(^|\/)(_[^/]*|README\.md|baseline\.md)$/.test(e.path)));
  const bufs = await readPinnedBlobs(store, entries.map((e) => e.blob));
  const { parseArtifact } = await import('../parse.js');
  const { parseAdr } = await import('./adr.js');
  const prefix = pinPrefix(s.name, commit);
  const out = new Map<string, PinnedRecord>();
  entries.forEach((e, i) => {
    const buf = bufs[i];
    if (!buf) return;
    const file = `${prefix}/${e.path}`;
    const r = s.format === 'adr' ? parseAdr(file, buf, { prefix: s.prefix, type: s.type }, 'federated', e.blob) : parseArtifact(file, buf, 'federated', e.blob);
    const a: Artifact | undefined = r.artifact;
    if (!a) return;
    // relations written in ADR text are finished by the set; here only supersession matters:
    // "Superseded by X" (incoming) marks this record, "Supersedes X" (outgoing) names X
    const rel = extraOf(a)?.rel ?? [];
    const status = (a.statusText ?? a.status ?? '').toLowerCase();
    const superseded = status.startsWith('superseded') || rel.some(([k, , , incoming]) => k === 'supersedes' && incoming === 1);
    // a link's target, not the record its text names (`target\u0001ADR-7`: see finishSources)
    const named = rel.filter(([k, , , incoming]) => k === 'supersedes' && incoming === 0).map(([, ref]) => ref.split('\u0001')[0]!);
    // the title's number is the file's: a renumbered record differs by it alone
    const words = wordsOf(buf.toString('utf8').replace(/^(#\s*)\d+[.:]?\s*/m, '$1'));
    out.set(e.path, { id: a.id, file, blob: e.blob, ...(superseded ? { status: 'superseded' } : a.status !== undefined ? { status: a.status } : {}), supersedes: [...(a.relations.supersedes ?? []), ...named], words });
  });
  // a supersession written as a link to the record's file names it by path: by id from here on
  const byFile = new Map([...out.values()].map((r) => [r.file, r.id]));
  for (const r of out.values()) r.supersedes = r.supersedes.map((ref) => (ref.startsWith('@') ? byFile.get(ref.slice(1)) ?? ref : ref));
  return out;
}

/** What moving a pin from one commit to another changes, record by record: by file, then a file gone matched with one come (renamed, renumbered). */
async function diffPins(store: SourceStore, s: GitSourceConfig, from: string | undefined, to: string): Promise<Omit<PinChange, 'name' | 'git' | 'ref' | 'to' | 'from'>> {
  const after = await recordsAt(store, to, s);
  let before = new Map<string, PinnedRecord>();
  let previousUnavailable = false;
  if (from && from !== to) {
    try {
      if (!(await hasPinned(store, from, s.dir))) await fetchPinned(store, from, s.dir);
      before = await recordsAt(store, from, s);
    } catch {
      previousUnavailable = true;
    }
  } else if (from) before = after;
  const added: string[] = [];
  const changed: string[] = [];
  const superseded = new Set<string>();
  const beforeIds = new Map([...before.values()].map((r) => [r.id, r]));
  const renamed = matchRenames(
    [...before].filter(([p]) => !after.has(p)).map(([, r]) => r),
    [...after].filter(([p]) => !before.has(p)).map(([, r]) => r),
  );
  const moved = new Set([...renamed.map((r) => `-${r.fromFile}`), ...renamed.map((r) => `+${r.toFile}`)]);
  for (const [p, r] of after) {
    const old = before.get(p);
    if (!old) {
      if (!moved.has(`+${r.file}`)) added.push(r.id);
    } else if (old.blob !== r.blob) changed.push(r.id);
    if (r.status === 'superseded' && beforeIds.get(r.id)?.status !== 'superseded') superseded.add(r.id);
    for (const t of r.supersedes) if (!beforeIds.get(r.id)?.supersedes.includes(t) && !t.startsWith('@') && !t.startsWith('~')) superseded.add(t);
  }
  const afterPaths = new Set(after.keys());
  const removed = [...before].filter(([p, r]) => !afterPaths.has(p) && !moved.has(`-${r.file}`)).map(([, r]) => r.id);
  const sort = (xs: Iterable<string>) => [...xs].sort();
  return { added: sort(added), changed: sort(changed), removed: sort(removed), renamed, superseded: sort(superseded), ...(previousUnavailable ? { previousUnavailable: true as const } : {}) };
}

/**
 * Pin each selected source to the commit its ref names now: fetch it, compare its records
 * with the previous pin's, and write the lock (atomically; unchanged bytes are not rewritten).
 */
export async function updateSources(snapshot: Snapshot, config: Config, opts: { names?: string[]; auth?: FetchAuth } = {}): Promise<UpdateResult> {
  const chosen = selected(config, opts.names);
  const lockFile = `${config.dir}/${LOCK_FILE}`;
  const before = await readLock(snapshot, config.dir);
  const next: SourcesLock = { sources: { ...before.sources } };
  const changes: PinChange[] = [];
  for (const s of chosen) {
    const store = sourceStore(snapshot.root, s.name, s.git);
    const to = await resolveRef(store, s.ref, opts.auth);
    await fetchPinned(store, to, s.dir, opts.auth);
    const prev = before.sources[s.name];
    const from = prev && prev.git === s.git ? prev.commit : undefined;
    changes.push({ name: s.name, git: s.git, ref: s.ref, ...(from ? { from } : {}), to, ...(await diffPins(store, s, from, to)) });
    next.sources[s.name] = { git: s.git, ref: s.ref, commit: to };
  }
  // a full update also forgets pins of sources no longer configured
  const dropped = opts.names?.length ? [] : Object.keys(next.sources).filter((n) => !config.gitSources.some((s) => s.name === n));
  for (const n of dropped) delete next.sources[n];
  const text = formatLock(next);
  const old = await snapshot.read(lockFile);
  const written = !old || old.toString('utf8') !== text;
  if (written) await writeFileAtomic(path.join(snapshot.root, lockFile), text);
  return { lock: lockFile, changes, dropped, written };
}

/** One source's pin against its ref upstream. */
export interface PinStatus {
  name: string;
  git: string;
  ref: string;
  /** the pinned commit (absent: not pinned yet) */
  pinned?: string;
  /** what the ref names upstream now */
  upstream?: string;
  /** commits the pin is behind the ref (0: current); absent when the pin is not in the ref's history */
  behind?: number;
  /** the ref was changed in config.yaml since the pin was taken */
  refChanged?: true;
  /** the pinned copy is in this clone (readable offline) */
  fetched: boolean;
}

/** How far each pin is behind its ref (asks the upstream; fetches commits only where the server filters). */
export async function sourcesStatus(snapshot: Snapshot, config: Config, opts: { names?: string[]; auth?: FetchAuth } = {}): Promise<PinStatus[]> {
  const lock = await readLock(snapshot, config.dir);
  const out: PinStatus[] = [];
  for (const s of selected(config, opts.names)) {
    const store = sourceStore(snapshot.root, s.name, s.git);
    const pin = lock.sources[s.name];
    const pinned = pin && pin.git === s.git ? pin.commit : undefined;
    const base = { name: s.name, git: s.git, ref: s.ref, ...(pinned && pin!.ref !== s.ref ? { refChanged: true as const } : {}) };
    if (!pinned) {
      out.push({ ...base, upstream: await resolveRef(store, s.ref, opts.auth), fetched: false });
      continue;
    }
    const fetched = await hasPinned(store, pinned, s.dir);
    const { upstream, behind } = await behindBy(store, pinned, s.ref, opts.auth);
    out.push({ ...base, pinned, upstream, ...(behind !== undefined ? { behind } : {}), fetched });
  }
  return out;
}

/** Bring every pinned copy into this clone (those already here are left alone). */
export async function fetchSources(snapshot: Snapshot, config: Config, opts: { names?: string[]; auth?: FetchAuth } = {}): Promise<{ name: string; commit: string; fetched: boolean }[]> {
  const lock = await readLock(snapshot, config.dir);
  const out: { name: string; commit: string; fetched: boolean }[] = [];
  for (const s of selected(config, opts.names)) {
    const pin = lock.sources[s.name];
    if (!pin || pin.git !== s.git) throw new CtxError('SOURCE', `source ${s.name}: no pin in ${config.dir}/${LOCK_FILE}`, { hint: 'run `git ctx sources update` to pin it' });
    const store = sourceStore(snapshot.root, s.name, s.git);
    if (await hasPinned(store, pin.commit, s.dir)) {
      out.push({ name: s.name, commit: pin.commit, fetched: false });
      continue;
    }
    await fetchPinned(store, pin.commit, s.dir, opts.auth);
    out.push({ name: s.name, commit: pin.commit, fetched: true });
  }
  return out;
}
