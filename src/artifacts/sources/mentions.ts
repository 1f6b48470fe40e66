// @spec SPEC-SOURCES-001

import path from 'node:path';
import type { Artifact, Mention } from '../types.js';
import type { PathLookup } from '../../util/glob.js';
import { picomatch } from '../../util/picomatch.js';

const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#|@)/i;
/** a plausible path: no spaces, a slash or a file extension, no markup */
const PATH_LIKE = /^[\w@.\-/*?{}[\],!]+(?:#[\w$.]+)?$/;
const HAS_EXT = /\.[A-Za-z][A-Za-z0-9]{0,7}(?:#[\w$.]+)?$/;

// @decision DEC-138
/**
 * A folder named by its name alone, as prose does ("an `experimental` directory", "the folder
 * `migrations`"): a bare name is no path (`clean`), but beside the word directory or folder it
 * names the one folder of that name below the repository's top level, when there is one. Its
 * candidate is this marker and the name, looked up as a glob matching every folder of that name.
 */
const NAMED_FOLDER = '\u0001';
const BARE_NAME = /^[A-Za-z0-9_][\w.-]{0,80}$/;
const FOLDER_AFTER = /^\s+(?:directory|folder)\b/i;
const FOLDER_BEFORE = /\b(?:directory|folder)\s+$/i;

/** A target as written → a clean candidate (line/column suffixes and ./ dropped), or undefined. */
function clean(raw: string): string | undefined {
  let t = raw.trim().replace(/^<|>$/g, '');
  if (!t || t.length > 300 || URL_LIKE.test(t)) return undefined;
  t = t.replace(/:(\d+)(?:[:-]\d+)?$/, '').replace(/#L\d+(?:-L?\d+)?$/, '');
  // a link's query (`diagram.jpg?raw=true`, GitHub's way to show an image) is no part of the path; `=` is in no glob
  t = t.replace(/\?[\w.-]+=[^?#\s]*(?:&[\w.-]+=[^?#\s&]*)*$/, '');
  // a document's fragment is a heading (`README.md#index`), not a symbol to anchor: the file is named
  t = t.replace(/(\.(?:md|markdown|mdx|rst|adoc|txt|html?))#[^#\s]*$/i, '$1');
  if (!PATH_LIKE.test(t)) return undefined;
  if (!t.includes('/') && !HAS_EXT.test(t)) return undefined;
  if (/^\.+$/.test(t) || /^[\d.]+$/.test(t)) return undefined;
  return t;
}

/**
 * Candidate mentions in a record's text: inline code (`` `x` ``, rst ``` ``x`` ```) and link
 * targets (markdown `[t](x)`, rst `` `t <x>`_ ``). Each gets the repository-relative
 * readings to try in order: links relative to the record's folder first, code spans as
 * written (repository-relative) first. `firstLine` is the file line of `text`'s first line.
 */
export function mentionCandidates(text: string | string[], file: string, firstLine: number): [string[], number][] {
  const out: [string[], number][] = [];
  const dir = path.posix.dirname(file);
  const ancestors: string[] = [];
  for (let d = path.posix.dirname(dir); d !== '.' && d !== '/' && d !== ''; d = path.posix.dirname(d)) ancestors.push(d);
  const seen = new Set<string>();
  const lines = typeof text === 'string' ? text.split('\n') : text;
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const tick = l.indexOf('`');
    if ((tick >= 0 || l.includes('~~~')) && /^\s*(```|~~~)/.test(l)) {
      fence = !fence;
      continue;
    }
    if (fence || (tick < 0 && l.indexOf('](') < 0)) continue;
    const add = (raw: string, link: boolean): void => {
      const t = clean(raw);
      if (!t) return;
      const key = `${t}\0${i}`;
      if (seen.has(key)) return;
      seen.add(key);
      const abs = t.startsWith('/') ? [t.slice(1), ...homeTails(t)] : [];
      const rel = t.startsWith('/') ? [] : [path.posix.normalize(path.posix.join(dir, t))];
      const asIs = t.startsWith('/') ? [] : [path.posix.normalize(t)];
      // in a monorepo a record in packages/x/docs/adr/ names packages/x/src/… as src/…: try the folders above it
      const up = t.startsWith('/') || t.startsWith('.') ? [] : ancestors.map((a) => `${a}/${path.posix.normalize(t)}`);
      const alts = [...abs, ...(link ? [...rel, ...asIs] : [...asIs, ...rel]), ...up].filter((p) => p && !p.startsWith('../') && p !== '..' && p !== '.');
      if (alts.length) out.push([[...new Set(alts)], firstLine + i]);
    };
    for (const m of l.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) add(m[1]!, true);
    if (tick < 0) continue;
    if (l.includes('>`_')) for (const m of l.matchAll(/`([^<`]+?)\s*<([^>`]+)>`_/g)) add(m[2]!, true);
    for (const m of l.matchAll(/``([^`]+)``|`([^`]+)`/g)) {
      const span = (m[1] ?? m[2])!;
      if (BARE_NAME.test(span) && !HAS_EXT.test(span) && (FOLDER_AFTER.test(l.slice(m.index + m[0].length)) || FOLDER_BEFORE.test(l.slice(0, m.index)))) {
        const key = `${NAMED_FOLDER}${span}\0${i}`;
        if (!seen.has(key)) out.push([[NAMED_FOLDER + span], firstLine + i]);
        seen.add(key);
      } else add(span, false);
    }
  }
  return out;
}

/**
 * A file named by its absolute path on the author's machine (`/Users/ana/src/shop/src/cart.rs`,
 * `/home/ana/…`), as records an agent helped write often name their code (smorinlabs/envgen's
 * 0008 lists its files so): the repository's own path is a tail of it. The tails after the home
 * folder are read longest first, each of two segments or more (a bare `README.md` could be anyone's).
 */
const HOME_PATH = /^\/(?:Users|home)\/[^/]+\/(.+)$|^\/root\/(.+)$/;
function homeTails(t: string): string[] {
  const m = HOME_PATH.exec(t);
  const rest = m && (m[1] ?? m[2]);
  if (!rest) return [];
  const parts = rest.split('/');
  const out: string[] = [];
  for (let i = 0; i + 2 <= parts.length; i++) out.push(parts.slice(i).join('/'));
  return out;
}

/** The path or glob a mention candidate is looked up by (`src/a.ts#X` → `src/a.ts`, no trailing slash). */
export function mentionPattern(alt: string): string {
  if (alt.startsWith(NAMED_FOLDER)) return `**/${alt.slice(1)}/**`;
  const hash = alt.indexOf('#');
  return (hash < 0 ? alt : alt.slice(0, hash)).replace(/\/+$/, '');
}

/**
 * The candidates that name something in the repository: a file, a directory, a glob
 * matching at least one file, or `file#Symbol` whose file exists (the symbol is not
 * checked here: that is the code index's job, and a mention is evidence, not a claim).
 */
export function resolveMentions(cands: [string[], number][], index: PathLookup, self: string): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<string>();
  let memo = resolved.get(index);
  if (!memo) resolved.set(index, (memo = new Map()));
  for (const [alts, line] of cands) {
    for (const alt of alts) {
      let target = memo.get(alt);
      if (target === undefined) memo.set(alt, (target = resolveOne(alt, index)));
      // refused as it is written: no other reading of it is tried (`features/` is the top-level folder, not docs/features/)
      if (target === false) break;
      if (target === null) continue;
      const hash = target.indexOf('#');
      if ((hash < 0 ? target : target.slice(0, hash)) === self) continue;
      if (!seen.has(target)) {
        seen.add(target);
        out.push({ target, line });
      }
      break;
    }
  }
  return out;
}

/** Records of one set name the same files again and again: each reading is resolved once per listing. */
const resolved = new WeakMap<PathLookup, Map<string, string | null | false>>();

/** Characters without which picomatch reads a path as no glob (a superset of its tests). */
const MAYBE_GLOB = /[*?[\]{}()!+@\\]/;

/** One reading of a mention → the target it names in the listing, null when it names nothing, false when what it names is no mention. */
function resolveOne(alt: string, index: PathLookup): string | null | false {
  const p = mentionPattern(alt);
  if (alt.startsWith(NAMED_FOLDER)) return namedFolder(alt.slice(1), index.match(p));
  const hash = alt.indexOf('#');
  if (!p) return null;
  // most mentions are plain paths: only text with glob characters needs picomatch's scanner
  const glob = MAYBE_GLOB.test(p) && picomatch.scan(p).isGlob;
  const hits = index.match(p);
  // a bare folder at the repository's top level (`docs`, `src`) names half the code: not a mention (DEC-053)
  if (!glob && !p.includes('/') && hits[0] !== p) return hits.length && hits[0]!.startsWith(p + '/') ? false : null;
  if (!hits.length || (hash >= 0 && (glob || hits[0] !== p))) return null;
  if (!glob && hits.length === 1 && hits[0] !== p && !hits[0]!.startsWith(p + '/')) return null;
  return hash < 0 ? p : p + alt.slice(hash);
}

/**
 * The one folder called `name` that `hits` (the files below folders of that name, in path
 * order: the first two and the last, PathLookup) lie in, when it is below the top level (a
 * top-level folder names half the code, DEC-053); null when none or several are so called.
 */
function namedFolder(name: string, hits: string[]): string | null | false {
  const first = hits[0];
  if (!first) return null;
  const at = `/${first}`.indexOf(`/${name}/`);
  const folder = first.slice(0, at + name.length);
  if (!folder.includes('/')) return false;
  // in path order the files below one folder lie together: the last in it means every one is
  return hits[hits.length - 1]!.startsWith(`${folder}/`) ? folder : null;
}

/** A record that mentions a place in its text. */
export interface MentionHit {
  id: string;
  type: string;
  title: string;
  /** null when the record has none */
  status: string | null;
  file: string;
  /** the mention as written (path, directory, glob or file#Symbol) */
  target: string;
  /** line of the record where it is written */
  line: number;
}

/**
 * Records whose text mentions a repository path: the file itself, a `file#Symbol` in it, a
 * directory above it, or a glob matching it. Weaker than `paths`/anchors: a record that
 * names a file often uses it rather than governs it, so callers show these apart.
 */
export function mentionedIn(artifacts: Iterable<Artifact>, repoPath: string): MentionHit[] {
  const p = repoPath.replace(/^\.\//, '').replace(/\/+$/, '');
  const out: MentionHit[] = [];
  for (const a of artifacts) {
    for (const m of a.mentions ?? []) {
      const hash = m.target.indexOf('#');
      const t = hash < 0 ? m.target : m.target.slice(0, hash);
      const hit = t === p || (p && p.startsWith(t + '/')) || (picomatch.scan(t).isGlob && picomatch(t, { dot: true })(p));
      if (!hit) continue;
      out.push({ id: a.id, type: a.type, title: a.title, status: a.status ?? null, file: a.file, target: m.target, line: m.line });
      break;
    }
  }
  return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}
