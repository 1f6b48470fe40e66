// @spec SPEC-SOURCES-001

import path from 'node:path';
import type { ArtifactSet } from '../load.js';
import { splitFrontmatter } from '../parse.js';
import { RELATION_KINDS, type Artifact } from '../types.js';
import { editFrontmatterText, type FrontmatterEdit } from '../write.js';
import { fileNumber } from './files.js';

/** A file a conversion would write: repository-relative path and its text. */
export interface ConvertedFile {
  path: string;
  text: string;
  /** the artifact it comes from */
  id: string;
}

const JSON_FIELDS = ['id', 'type', 'title', 'status', 'statusText', 'scope', 'domain', 'summary', 'keywords', 'links', 'relations', 'requires', 'paths', 'anchors', 'owner', 'created', 'source', 'format', 'mentions', 'file', 'blob', 'data', 'body'] as const;

/** Every artifact of the set as one JSON document: every field, the body as written. */
export function exportJson(set: ArtifactSet, ids?: Set<string>): string {
  const artifacts = set.artifacts.filter((a) => a.origin === 'repo' && (!ids || ids.has(a.id))).map((a) => {
    const o: Record<string, unknown> = {};
    for (const k of JSON_FIELDS) if (a[k] !== undefined) o[k] = a[k];
    return o;
  });
  return JSON.stringify({ version: 1, kind: 'git-ctx.artifacts', commit: set.snapshot.commit ?? null, artifacts }, null, 2) + '\n';
}

const csvCell = (v: unknown): string => {
  const s = v === undefined || v === null ? '' : Array.isArray(v) ? v.join(';') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) || /^[=+\-@\t]/.test(s) ? `"${(/^[=+\-@\t]/.test(s) ? "'" : '') + s.replace(/"/g, '""')}"` : s;
};

/** One row per artifact (RFC 4180; cells that a spreadsheet would run as formulas are quoted with a leading '). */
export function exportCsv(set: ArtifactSet, ids?: Set<string>): string {
  const head = ['id', 'type', 'title', 'status', 'status_text', 'created', 'owner', 'summary', 'supersedes', 'relations', 'paths', 'anchors', 'mentions', 'file'];
  const rows = [head.join(',')];
  for (const a of set.artifacts) {
    if (a.origin !== 'repo' || (ids && !ids.has(a.id))) continue;
    const rel = Object.fromEntries(RELATION_KINDS.filter((k) => k !== 'supersedes' && a.relations[k]?.length).map((k) => [k, a.relations[k]]));
    const statusText = a.statusText ?? (typeof a.data.status_text === 'string' ? a.data.status_text : undefined);
    rows.push([a.id, a.type, a.title, a.status, statusText, a.created, a.owner, a.summary, a.relations.supersedes ?? [], Object.keys(rel).length ? rel : '', a.paths, a.anchors, (a.mentions ?? []).map((m) => m.target), a.file].map(csvCell).join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

const slug = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'record';

/** The body without its first level-1 heading (the ADR writes its own). */
function bodyWithoutTitle(a: Artifact): string {
  const text = a.format === 'adr' ? (splitFrontmatter(a.body).hasFrontmatter ? splitFrontmatter(a.body).body : a.body) : a.body;
  return text.replace(/^\s*#[ \t]+[^\n]*\n+/, '');
}

/**
 * The set's records as an ADR folder: Nygard (adr-tools: `# N. Title`, `Date:`, `## Status`
 * with Supersedes/Superseded by links) or MADR (frontmatter status/date/deciders). A record
 * read from a folder in the same style is copied as it is. Numbers come from the id (or the
 * file name), else follow the highest one.
 */
export function exportAdr(set: ArtifactSet, style: 'nygard' | 'madr', outDir: string, types: string[] = ['decision']): ConvertedFile[] {
  const list = set.artifacts.filter((a) => a.origin === 'repo' && types.includes(a.type) && set.byId.get(a.id) === a);
  const numberOf = new Map<string, string>();
  let max = 0;
  for (const a of list) {
    const n = /(\d+)$/.exec(a.id)?.[1] ?? fileNumber(a.file);
    if (n !== undefined && ![...numberOf.values()].includes(n)) {
      numberOf.set(a.id, n);
      max = Math.max(max, Number(n));
    }
  }
  for (const a of list) if (!numberOf.has(a.id)) numberOf.set(a.id, String(++max).padStart(4, '0'));
  const fileOf = new Map(list.map((a) => [a.id, `${numberOf.get(a.id)}-${slug(a.title)}.md`]));
  const supersededBy = new Map<string, string[]>();
  for (const a of list) for (const t of a.relations.supersedes ?? []) supersededBy.set(t, [...(supersededBy.get(t) ?? []), a.id]);
  const ref = (id: string): string => {
    const f = fileOf.get(id);
    const t = set.byId.get(id);
    return f && t ? `[${Number(numberOf.get(id))}. ${t.title}](${f})` : id;
  };
  return list.map((a) => {
    const file = path.posix.join(outDir, fileOf.get(a.id)!);
    const n = numberOf.get(a.id)!;
    // the status as the record wrote it: mapped on read (statusText) or kept by an import (status_text)
    const status = a.statusText ?? (typeof a.data.status_text === 'string' && a.format !== 'adr' ? a.data.status_text : undefined) ?? a.status;
    const own = a.format === 'adr' && splitFrontmatter(a.body).hasFrontmatter ? splitFrontmatter(a.body).body : a.body;
    // a record that is already in the style (read in place, or imported: the body is the record) is written as it is
    if (style === 'nygard' ? /^#[ \t]+\d+\.[ \t]/.test(own) : a.format === 'adr' && splitFrontmatter(a.body).hasFrontmatter) return { path: file, text: style === 'nygard' ? own : a.body, id: a.id };
    const rel: string[] = [];
    for (const t of supersededBy.get(a.id) ?? []) rel.push(`Superseded by ${ref(t)}`);
    for (const k of RELATION_KINDS) {
      const verb = { supersedes: 'Supersedes', amends: 'Amends', clarifies: 'Clarifies', relates_to: 'Related to', depends_on: 'Depends on', conflicts_with: 'Conflicts with', caused_by: 'Caused by', co_decided: 'Decided with' }[k];
      for (const t of a.relations[k] ?? []) rel.push(`${verb} ${ref(t)}`);
    }
    let body = bodyWithoutTitle(a).replace(/\s+$/, '');
    // metadata the new style writes its own way: a Nygard Date line and Status section
    if (style === 'madr') body = body.replace(/^Date:[^\n]*\n+/, '').replace(/^##[ \t]+Status[ \t]*\r?\n[\s\S]*?(?=^##[ \t]|(?![\s\S]))/m, '');
    if (style === 'nygard') {
      const parts = [`# ${Number(n)}. ${a.title}`, a.created ? `Date: ${a.created}` : '', '## Status', [status ?? 'Proposed', ...rel].join('\n\n'), body];
      return { path: file, text: parts.filter(Boolean).join('\n\n') + '\n', id: a.id };
    }
    const fm = ['---', `status: ${JSON.stringify(status ?? 'proposed')}`, a.created ? `date: ${JSON.stringify(a.created)}` : '', a.owner ? `deciders: ${JSON.stringify(a.owner)}` : '', '---'].filter(Boolean).join('\n');
    const links = rel.length ? `\n\n## Links\n\n${rel.map((r) => `* ${r}`).join('\n')}` : '';
    // an imported MADR record: its body, title heading included, is the record
    if (/^#[ \t]+\S/.test(own) && !/^#[ \t]+\d+\.[ \t]/.test(own)) return { path: file, text: `${fm}\n${own}`, id: a.id };
    return { path: file, text: `${fm}\n# ${a.title}\n\n${body}${links}\n`, id: a.id };
  });
}

/**
 * The records as the decision-record files they were read from: a record read in place is
 * its file; an imported one (named in the import map `git ctx import` keeps) is its own
 * frontmatter block as written followed by its body, byte for byte, at its original path
 * (or under `outDir`, same file name). Records that never were ADR files are left out and
 * returned apart (export them with nygard or madr).
 */
export function exportOriginal(set: ArtifactSet, map: ImportMap, outDir: string | undefined, types: string[] = ['decision']): { files: ConvertedFile[]; other: string[] } {
  const files: ConvertedFile[] = [];
  const other: string[] = [];
  for (const a of set.artifacts) {
    if (a.origin !== 'repo' || !types.includes(a.type) || set.byId.get(a.id) !== a) continue;
    const o = a.format === 'adr' ? undefined : map.records[a.id];
    const from = a.format === 'adr' ? a.file : typeof o?.file === 'string' ? o.file : undefined;
    if (!from) {
      other.push(a.id);
      continue;
    }
    const head = typeof o?.head === 'string' ? o.head : '';
    files.push({ path: outDir ? path.posix.join(outDir, path.posix.basename(from)) : from, text: head + a.body, id: a.id });
  }
  return { files, other };
}

/** A record of an adr source converted into a frontmatter artifact. */
export interface ImportItem extends ConvertedFile {
  /** the record's file now */
  from: string;
  /** already imported (an artifact with its id exists under the artifact directory): nothing to do */
  skip?: string;
  /** what the import map keeps of the record's file */
  origin?: ImportOrigin;
  /** the record was stamped in the sidecar: the stamp is now in its frontmatter */
  stamped?: boolean;
}

/** Where an imported record was read, and its own frontmatter block byte for byte (MADR 3/4). */
export interface ImportOrigin {
  file: string;
  head?: string;
}

/**
 * The import map, `<dir>/imported.json`: per imported id, the file it was read from. Kept
 * apart from the artifacts so their frontmatter stays small (a moved record's history is
 * followed by git's rename detection, which a longer header defeats on short records).
 */
export const IMPORT_MAP_FILE = 'imported.json';
export type ImportMap = { version: 1; records: Record<string, ImportOrigin> };

export function parseImportMap(text: string | undefined): ImportMap {
  try {
    const m = JSON.parse(text ?? '') as Partial<ImportMap>;
    if (m && m.version === 1 && m.records && typeof m.records === 'object') return { version: 1, records: m.records };
  } catch {
    /* absent or unreadable: empty */
  }
  return { version: 1, records: {} };
}

/**
 * Plan the import of records read in place into `.contextia/` artifacts: frontmatter with
 * id (the file's number kept in `number`), type, title, status mapped (the text as written
 * in `status_text` when it differs), date, deciders, relations, and mentioned code as
 * `paths` (files, folders, globs) and `anchors` (`file#Symbol`); the body byte for byte
 * (for a record with frontmatter, its frontmatter keys are kept too). Idempotent: records
 * whose id already has an artifact under the directory are skipped.
 */
export function planImport(set: ArtifactSet, opts: { only?: string[] } = {}): ImportItem[] {
  const dir = set.config.dir;
  const out: ImportItem[] = [];
  const existing = new Map(set.artifacts.filter((a) => a.format !== 'adr').map((a) => [a.id, a]));
  for (const a of set.artifacts) {
    if (a.format !== 'adr' || a.origin !== 'repo') continue;
    if (opts.only && !opts.only.some((d) => a.file === d || a.file.startsWith(d.replace(/\/+$/, '') + '/'))) continue;
    const t = set.config.types[a.type];
    const to = `${dir}/${t?.dir ? `${t.dir}/` : ''}${a.id}.md`;
    const prior = existing.get(a.id);
    if (prior) {
      out.push({ path: prior.file, text: '', id: a.id, from: a.file, skip: `already imported as ${prior.file}` });
      continue;
    }
    const split = splitFrontmatter(a.body);
    const body = split.hasFrontmatter ? split.body : a.body;
    const edits: FrontmatterEdit[] = [];
    const set1 = (p: string, v: unknown) => {
      if (v !== undefined && v !== null && !(Array.isArray(v) && !v.length)) edits.push({ op: 'set', path: p, value: v });
    };
    set1('id', a.id);
    set1('type', a.type);
    set1('title', a.title);
    set1('status', a.status);
    set1('status_text', a.statusText);
    set1('number', fileNumber(a.file));
    if (a.summary) set1('summary', a.summary);
    set1('created', a.created);
    set1('owner', a.owner);
    const rel = Object.fromEntries(RELATION_KINDS.filter((k) => a.relations[k]?.length).map((k) => [k, a.relations[k]]));
    if (Object.keys(rel).length) set1('relations', rel);
    const links = a.links.filter((l) => l.kind.endsWith('_by'));
    if (links.length) set1('links', Object.fromEntries([...new Set(links.map((l) => l.kind))].map((k) => [k, links.filter((l) => l.kind === k).map((l) => l.id)])));
    const mentions = a.mentions ?? [];
    set1('paths', [...new Set([...a.paths, ...mentions.filter((m) => !m.target.includes('#')).map((m) => m.target)])]);
    set1('anchors', [...new Set([...a.anchors, ...mentions.filter((m) => m.target.includes('#')).map((m) => m.target)])]);
    // a record's own frontmatter (MADR): kept, except what is written above
    const done = new Set(['id', 'type', 'title', 'status', 'date', 'deciders', 'created', 'owner', 'summary', 'paths', 'anchors', 'relations', 'links']);
    for (const [k, v] of Object.entries(a.data)) if (split.hasFrontmatter && !done.has(k) && a.keyLines[k] !== undefined && a.keyLines[k]! < split.bodyLine) set1(k, v);
    set1('source', 'manual');
    // a stamp kept in the sidecar (records read in place are never rewritten) moves into the
    // record's own frontmatter, where an artifact keeps it: the staleness verdict carries over
    if (a.stamp?.commit) set1('stamp', { commit: a.stamp.commit, fingerprints: a.stamp.fingerprints ?? {} });
    // where it was read and its own frontmatter block as written, for the import map (`export --format original`)
    const origin: ImportOrigin = { file: a.file, ...(split.hasFrontmatter ? { head: a.body.slice(0, a.body.length - split.body.length) } : {}) };
    out.push({ path: to, text: editFrontmatterText(`---\n---\n${body}`, edits, to), id: a.id, from: a.file, origin, ...(a.stamp?.commit ? { stamped: true } : {}) });
  }
  return out;
}
