// @spec SPEC-SOURCES-001
//
// Where a link in an ADR points: a record of this repository by its path, its forge address
// or its page on a documentation site. Apart from adr.ts, which reads what the link says.

import path from 'node:path';

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
