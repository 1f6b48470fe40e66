// @spec SPEC-SOURCES-001
//
// Where a link in an ADR points: a record of this repository by its path, its forge address
// or its page on a documentation site. Apart from adr.ts, which reads what the link says.

import path from 'node:path';
import type { SourceExtra } from './extra.js';

/** A file's address on GitHub or GitLab (`https://host/owner/repo/blob/<ref>/<path>`, GitLab with `/-/`): the path. */
export const BLOB_URL = /^https?:\/\/[^/]+\/[^/]+\/[^/]+\/(?:-\/)?blob\/[^/]+\/([^?#]+)$/i;

/** A link's path as written when it is no valid escape (`100%-done`), else decoded. */
export function safeDecode(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

/**
 * `folder/slug` of a link that may be a record's published page: the last two segments of its
 * path (a web address, or a relative link without a markdown/rst extension), lowercased,
 * without `.html`, a query or an anchor; undefined when the last segment is no word-like slug
 * (a number alone, an image, an archive).
 */
export function pageSlug(file: string, dir: string, target: string): string | undefined {
  let t = target.replace(/[?#].*$/, '').replace(/\/+$/, '');
  if (!t) return undefined;
  if (/^[a-z][a-z+.-]*:/i.test(t)) {
    if (!/^https?:\/\/[^/]+\//i.test(t)) return undefined;
    t = t.replace(/^https?:\/\/[^/]+/i, '');
  } else {
    if (file.startsWith('~')) return undefined;
    t = linkedPath(file, dir, t);
  }
  t = safeDecode(t).replace(/\.html?$/i, '');
  const segs = t.split('/').filter(Boolean);
  const slug = segs[segs.length - 1];
  const folder = segs[segs.length - 2];
  if (!slug || !folder || !/^[\p{L}\d][\p{L}\d_.-]*$/u.test(slug) || !/\p{L}/u.test(slug) || /\.[a-z0-9]{1,5}$/i.test(slug)) return undefined;
  return `${folder.toLowerCase()}/${slug.toLowerCase()}`;
}

/**
 * The repository path a relative link in `file` names. A pinned source's record
 * (`~name@commit/…`) links within its upstream: `/x` is the upstream's top level, and a link
 * that climbs above it keeps its `..` under the source's folder (never a path of this
 * repository), so the set can say it leads nowhere (DEC-066).
 */
export function linkedPath(file: string, dir: string, target: string): string {
  if (!file.startsWith('~')) return target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(dir, target));
  const home = file.slice(0, file.indexOf('/'));
  const inner = dir.length > home.length ? dir.slice(home.length + 1) : '';
  const rel = target.startsWith('/') ? path.posix.normalize(target.slice(1)) : path.posix.normalize(path.posix.join(inner || '.', target));
  return `${home}/${rel}`;
}

/** Frontmatter keys naming the record that supersedes this one (1) or the ones this one supersedes (0). */
const SUPERSESSION_KEYS: [RegExp, 0 | 1][] = [
  [/^(?:superseded|replaced)[-_ ]?by$/i, 1],
  [/^(?:supersedes|replaces)$/i, 0],
];

/**
 * The frontmatter values that state a supersession (`supersededBy: docs/adr/0004-x.md`,
 * `superseded_by: ADR-0004`, `supersedes: [ADR-1, ADR-2]`), each value apart; an empty one
 * (`supersededBy: ''`, a template's field left blank) says nothing. @decision DEC-132
 */
export function frontmatterSupersessions(data: Record<string, unknown>): [{ key: string; value: string }, 0 | 1][] {
  const out: [{ key: string; value: string }, 0 | 1][] = [];
  for (const [key, v] of Object.entries(data)) {
    const d = SUPERSESSION_KEYS.find(([re]) => re.test(key))?.[1];
    if (d === undefined) continue;
    const values = Array.isArray(v) ? v.map(String) : typeof v === 'string' || typeof v === 'number' ? String(v).split(',') : [];
    for (const value of values) if (value.trim()) out.push([{ key, value: value.trim() }, d]);
  }
  return out;
}

/**
 * The references one frontmatter value makes: a record file's path (from the top of the
 * repository, or from the record's folder) is a reference only when a record is there (`^`,
 * never broken: `supersededBy: docs/architecture/auth-migration.md`, a design page, names no
 * record); anything else is read as the text is (`ADR-0004`). @decision DEC-132
 */
export function frontmatterRefs(value: string, file: string, dir: string, textRefs: (v: string) => string[]): string[] {
  const v = value.replace(/^['"]|['"]$/g, '');
  if (!/\.(?:md|markdown|rst|adoc|asciidoc)$/i.test(v)) return textRefs(v);
  if (file.startsWith('~')) return ['^' + linkedPath(file, dir, v)];
  const local = '^' + linkedPath(file, dir, v);
  const fromTop = '^' + path.posix.normalize(v.replace(/^\/+/, ''));
  return /^\.\.?\//.test(v) || !v.includes('/') ? [local] : [...new Set([fromTop, local])];
}

/**
 * The supersessions a record's frontmatter states, as relations written at their key's line,
 * and the record files it names by path ([key, value as written, line, the paths it may mean]):
 * finishing the set says where none of them holds a record (a typo, a moved file), instead of
 * dropping the value silently. @decision DEC-137
 */
export function frontmatterSides(data: Record<string, unknown>, keyLines: Record<string, number>, file: string, dir: string, textRefs: (v: string) => string[]): Required<Pick<SourceExtra, 'rel' | 'fp'>> {
  const rel: NonNullable<SourceExtra['rel']> = [];
  const fp: NonNullable<SourceExtra['fp']> = [];
  for (const [{ key, value }, d] of frontmatterSupersessions(data)) {
    const line = keyLines[key] ?? 1;
    const refs = frontmatterRefs(value, file, dir, textRefs);
    for (const ref of refs) rel.push(['supersedes', ref, line, d]);
    if (refs.length && refs.every((r) => r.startsWith('^'))) fp.push([key, value.replace(/^['"]|['"]$/g, ''), line, refs.map((r) => r.slice(1))]);
  }
  return { rel, fp };
}
