// @spec SPEC-RETRIEVE-001

import { posix } from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import { isGlob } from '../code/anchors.js';
import { compilePaths, entryCovers } from '../util/path-set.js';
import { normalizeRepoPath } from '../util/paths.js';
import { isEnglishStopWord, splitWords, stem as stemWord, terms } from './text.js';
import type { Why } from './types.js';

/** One signal of an approximate lane: its strength in [0, 1] and the evidence. */
/** A signal's strength and why; a mention signal also says which mention, as data (what the record wrote, at which line of its file). */
export type Signal = { score: number; why: Why; mention?: { target: string; line: number } };

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const segs = (p: string) => (p ? p.split('/') : []);

/** Mentions signal: records whose text names the file (strong), or a directory or glob holding it (weaker). */
export function mentionSignals(set: ArtifactSet, path: string, symbol?: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  const depth = segs(dirOf(path)).length || 1;
  for (const a of set.artifacts) {
    if (!a.mentions?.length) continue;
    let best: Signal | undefined;
    // a record that names several folders lays out the code (`pkg/config` holds the data,
    // `pkg/types` the constants, `pkg/app` wires them): it says less of each than a record
    // that names one. Each folder's mention counts 1/√(folders named) (DEC-078)
    const folders = new Set(a.mentions.map((m) => normalizeRepoPath(m.target.replace(/#.*$/, ''))).filter((f) => !isGlob(f) && !/\.[A-Za-z0-9]+$/.test(f))).size;
    const perFolder = 1 / Math.sqrt(Math.max(1, folders));
    for (const m of a.mentions) {
      const hash = m.target.indexOf('#');
      const file = normalizeRepoPath(hash >= 0 ? m.target.slice(0, hash) : m.target);
      const sym = hash >= 0 ? m.target.slice(hash + 1) : undefined;
      let s = 0;
      if (file === path) s = sym && symbol && (sym === symbol || symbol.startsWith(sym + '.')) ? 1 : sym ? 0.7 : 0.9;
      else if (isGlob(file) ? entryCovers(file, path) : path.startsWith(file + '/')) s = perFolder * 0.5 * Math.min(1, segs(file.replace(/\/?\*.*$/, '')).length / depth);
      if (s > (best?.score ?? 0)) best = { score: s, why: { kind: 'mention', text: `mentions ${m.target} (${a.file}:${m.line})` }, mention: { target: m.target, line: m.line } };
    }
    if (best) out.set(a.id, best);
  }
  return out;
}

/** Nearness signal: records declared or mentioned for code in directories near the place (not covering it). */
export function nearnessSignals(set: ArtifactSet, path: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  const here = segs(dirOf(path));
  if (!here.length) return out;
  for (const a of set.artifacts) {
    const places = [...compilePaths(a.paths).includes, ...a.anchors.map((x) => x.replace(/#.*$/, '').replace(/:\d+(-\d+)?$/, '')), ...(a.mentions ?? []).map((m) => m.target.replace(/#.*$/, ''))];
    let best = 0;
    let where = '';
    for (const p of places) {
      const d = segs(dirOf(normalizeRepoPath(p).replace(/\/?\*.*$/, '/x')));
      let shared = 0;
      while (shared < d.length && shared < here.length && d[shared] === here[shared]) shared++;
      // a shared top folder alone (`src/`, `packages/`) is what most files share: not near
      if (shared < 2) continue;
      const c = shared / Math.max(here.length, d.length);
      if (c > best) {
        best = c;
        where = p;
      }
    }
    if (best > 0) out.set(a.id, { score: best, why: { kind: 'nearness', text: `about ${where}, near ${dirOf(path)}/` } });
  }
  return out;
}

/**
 * How strongly a record whose title writes the name of the type a file is named after
 * (`FunctionResult` for `FunctionResult.cs`, `ChatCompletionClientBase` for
 * `chat_completion_client_base.py`) speaks of that file: the type is the record's subject, as
 * much as when it names the file's path (0.9 above). In a body the name is one of many a record
 * writes in passing (examples, snippets, neighbouring types): on the semantic-kernel set counting
 * those too, at 0.3 or 0.5, moved the primary record of files down, not up (DEC-091).
 */
const TYPE_IN_TITLE = 0.9;

/** Per record set: each compound name the records' titles write (lower case, no `_`) → the records. */
const titleNamesBySet = new WeakMap<ArtifactSet, Map<string, string[]>>();
const NAME_RE = /[A-Za-z][A-Za-z0-9_]*/g;
/** A name of two words or more (`FunctionResult`, `client_base`): one word (`Kernel`, `index`) is as often prose. */
const compound = (name: string): boolean => /[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z]/.test(name);
const joinedLower = (name: string) => name.replace(/_/g, '').toLowerCase();

function titleNames(set: ArtifactSet): Map<string, string[]> {
  let names = titleNamesBySet.get(set);
  if (names) return names;
  names = new Map();
  for (const a of set.artifacts) {
    for (const [m] of (a.title ?? '').matchAll(NAME_RE)) {
      if (!compound(m)) continue;
      const ids = names.get(joinedLower(m)) ?? [];
      if (!ids.includes(a.id)) names.set(joinedLower(m), [...ids, a.id]);
    }
  }
  titleNamesBySet.set(set, names);
  return names;
}

/**
 * Records whose title names the type the file at `path` is named after: C#, Java, Kotlin, PHP
 * and Swift name a file after the type it declares, Python, Ruby and Go after it in snake case.
 * Records name code by its types more often than by its paths ("Replace SKContext with
 * FunctionResult"), and the code's words split such a name into common words (function,
 * result) that many records share. Only a name of two words or more counts, and only the
 * file's own (its first dotted part: `Orchestration.String.cs` is part of `Orchestration`).
 */
export function typeNameSignals(set: ArtifactSet, path: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  const parts = path.split('/');
  const base = parts.pop() ?? '';
  const stem = base.split('.')[0] ?? '';
  if (compound(stem)) {
    for (const id of titleNames(set).get(joinedLower(stem)) ?? []) {
      out.set(id, { score: TYPE_IN_TITLE, why: { kind: 'mention', text: `its title names ${stem}, the type ${base} is named after (${set.byId.get(id)?.file ?? id})` } });
    }
  }
  // the title is the file's name, or the file's folder and name together, written as the
  // file writes them (DEC-095, DEC-099)
  // @decision DEC-095
  // @decision DEC-099
  const stemWords = splitWords(stem);
  const folder = parts.length ? splitWords(parts[parts.length - 1]!) : [];
  if (!stemWords.length) return out;
  const nameJoined = asName(stemWords);
  for (const a of set.artifacts) {
    if (out.has(a.id)) continue;
    const title = titleWords(set, a.id);
    const whole = nameJoined !== '' && titleAsName(title) === nameJoined;
    const named = !whole && stemWords.length === 1 && folder.length > 0 && adjacentIn(title, [...folder, ...stemWords]);
    if (whole) out.set(a.id, { score: TITLE_IS_NAME, why: { kind: 'mention', text: `its title is ${stem}, the name of ${base} (${a.file})` } });
    else if (named) out.set(a.id, { score: TITLE_IS_NAME, why: { kind: 'mention', text: `its title names ${parts[parts.length - 1]}/${stem}, the folder and name of ${base} (${a.file})` } });
  }
  return out;
}

/**
 * How strongly a record whose whole title is the file's name (`Emotion` for `emotion.ts`,
 * `Click To View` for `ClickToView.tsx`), or whose title writes the file's folder and
 * one-word name together as words (`Config Manager …` for `config/manager.go`, Go's
 * `config.Manager`), speaks of that file: the title names the file's subject, as a title that
 * writes the type's name does (TYPE_IN_TITLE). A one-word name alone in a longer title
 * (`Template Engine …` for `template.go`) is not enough: several records write it (DEC-095).
 */
const TITLE_IS_NAME = 0.9;

/** Per record set: each record's title terms (stemmed, stop words out), by id; computed once per set for every reader of titles. */
const titleTermsBySet = new WeakMap<ArtifactSet, Map<string, string[]>>();
export function titleTerms(set: ArtifactSet, id: string): string[] {
  let m = titleTermsBySet.get(set);
  if (!m) titleTermsBySet.set(set, (m = new Map(set.artifacts.map((a) => [a.id, terms(a.title ?? '')]))));
  return m.get(id) ?? [];
}

/**
 * Per record set: each record's title as words (lower case, split as names split, no word
 * dropped, none stemmed), by id. A title names a file when it writes the file's name as the
 * file writes it (DEC-099). Read as terms, a code keyword dropped from the title ("Static
 * types" became `type`, the name of every types.ts) and, for a one-word name beside its folder,
 * a stem shared with an inflected word ("API resource identifier" met `Api/Resources.php`)
 * made prose look like the name.
 */
const titleWordsBySet = new WeakMap<ArtifactSet, Map<string, string[]>>();
export function titleWords(set: ArtifactSet, id: string): string[] {
  let m = titleWordsBySet.get(set);
  if (!m) titleWordsBySet.set(set, (m = new Map(set.artifacts.map((a) => [a.id, splitWords(a.title ?? '')]))));
  return m.get(id) ?? [];
}

/**
 * Words read as a name, stemmed and run together, English stop words dropped (`Click To View`
 * and `ClickToView` alike). The code's keywords are kept: they are words of a title ("Static
 * types" is no title of `types.ts`, DEC-099).
 */
const asName = (words: readonly string[]): string => words.filter((w) => !isEnglishStopWord(w)).map(stemWord).join('');

/** A title read as a name (asName), less a leading "use"/"using": the verb of a record that adopts what it names ("Use Emotion"). */
const titleAsName = (title: readonly string[]): string => asName(title[0] === 'use' || title[0] === 'using' ? title.slice(1) : title);

/** Whether `words` appear in `hay` one after another. */
function adjacentIn(hay: readonly string[], words: readonly string[]): boolean {
  for (let i = 0; i + words.length <= hay.length; i++) if (words.every((w, j) => hay[i + j] === w)) return true;
  return false;
}

/**
 * How strongly a record that names a path no longer in the tree speaks of the file now bearing
 * that path's file name, when no other file bears it: records outlive moves and renames of
 * folders (`pkg/types/names.go` when the code is at `pkg/goboottypes/names.go`), and the name
 * they wrote is still the file's. Less than naming the path as it is (0.9): the file may have
 * been split or replaced (DEC-095).
 */
const MOVED_FILE = 0.6;

/**
 * Records whose text names a path that is not in the tree and ends in this file's name, the
 * only file of the tree with that name: a mention of the file where it moved. `exists` says
 * whether a path is a file of the tree; `sameName` lists the tree's files with a file name.
 * The tree is asked only when a record writes `…/<file name>`.
 */
// @decision DEC-095
export async function movedFileSignals(set: ArtifactSet, path: string, tree: { exists: (p: string) => Promise<boolean>; sameName: (name: string) => Promise<string[]> }): Promise<Map<string, Signal>> {
  const out = new Map<string, Signal>();
  const base = path.split('/').pop() ?? '';
  // a name with an extension: `Makefile` or `README` are every folder's
  if (!/^[^.]+.*\.[A-Za-z0-9]+$/.test(base)) return out;
  const re = new RegExp(`(?<![\\w@.\\-/])((?:[\\w@.\\-]+/)+)${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w\\-/]|\\.[A-Za-z])`, 'g');
  let unique: boolean | undefined;
  for (const a of set.artifacts) {
    // the common case (no record writes the name) allocates nothing
    if (!a.body.includes(`/${base}`) && !a.title?.includes(`/${base}`) && !a.summary?.includes(`/${base}`)) continue;
    const text = `${a.title ?? ''}\n${a.summary ?? ''}\n${a.body}`;
    for (const m of text.matchAll(re)) {
      const named = normalizeRepoPath(m[0]);
      if (named === path || named.startsWith('../') || (await tree.exists(named))) continue;
      // a link is read from the record's folder (`./0015-dns.jpg` beside the record): there it may name the file as it is
      const beside = posix.normalize(posix.join(posix.dirname(a.file), m[0]));
      if (beside === path || (!beside.startsWith('../') && (await tree.exists(beside)))) continue;
      unique ??= (await tree.sameName(base)).length === 1;
      if (!unique) return out;
      out.set(a.id, { score: MOVED_FILE, why: { kind: 'mention', text: `mentions ${m[0]}, not in the tree: ${path} is the only ${base} (${a.file})` } });
      break;
    }
  }
  return out;
}
