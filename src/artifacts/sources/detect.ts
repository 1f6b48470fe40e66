// @spec SPEC-SOURCES-001

import path from 'node:path';
import type { SourceConfig } from '../../config.js';
import { fileDate, fileNumber, isAdrFile, isTemplateFile, recordDir, recordStem } from './files.js';

/** A decision-record folder found in a repository. */
export interface DetectedSource extends SourceConfig {
  /** records in it (nested folders included, minus those of a nested source) */
  records: number;
  /** its records are named by their date (`20200924-slug.md`), so their ids are prefix + file name, not prefix + number */
  dated?: boolean;
  /** set by init once the records are read: most of them carry their own id in frontmatter (`id: 0003-use-x`); one of those ids */
  frontmatterId?: string;
  /** the team's own pointer that named the folder (`.adr-dir`, `.log4brains.yml`); absent when found by its name */
  from?: string;
  /** found by its records' file names (`adr-001-….md`), not by the folder's name */
  byFileNames?: boolean;
  /** a folder the team's pointer names that holds no file at all in the tree (records moved to another repository, a typo) */
  missing?: boolean;
  /** none of its records is numbered or dated: ids are prefix + file name (`ADR-nexusupload`) */
  unnumbered?: boolean;
}

/** A records folder a team's tool points at. */
export interface PointedFolder {
  dir: string;
  /** the file that says so */
  from: string;
  /** a log4brains package's name: its records get their own prefix */
  name?: string;
}

/** The pointer files read, in this order, before folders are guessed by name. */
export const POINTER_FILES = ['.adr-dir', '.log4brains.yml'] as const;

/** A folder as a pointer writes it (`./doc/adr/`, `doc\\adr`), repository-relative; undefined when it leaves the repository. */
function pointerDir(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const d = path.posix.normalize(v.trim().replace(/\\/g, '/')).replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (!d || d === '.' || d.startsWith('/') || d.split('/').includes('..')) return undefined;
  return d;
}

/**
 * The records folders named by the team's own tools: adr-tools keeps the folder's path in
 * `.adr-dir` (one line), log4brains in `.log4brains.yml` (`project.adrFolder`, and one per
 * entry of `project.packages`). They are the team's word, so they come before any guess by
 * folder name; a folder with an unusual name is found only through them. `read` returns a
 * file's text at the repository top level, or undefined; `parseYaml` reads the YAML one.
 */
export function pointedRecordFolders(read: (file: string) => string | undefined, parseYaml: (text: string) => unknown): PointedFolder[] {
  const out: PointedFolder[] = [];
  const add = (dir: string | undefined, from: string, name?: string) => {
    if (dir && !out.some((o) => o.dir === dir)) out.push({ dir, from, ...(name ? { name } : {}) });
  };
  const adrDir = read('.adr-dir');
  if (adrDir !== undefined) add(pointerDir(adrDir.split('\n').find((l) => l.trim())), '.adr-dir');
  const l4b = read('.log4brains.yml');
  if (l4b !== undefined) {
    let doc: unknown;
    try {
      doc = parseYaml(l4b);
    } catch {
      doc = undefined;
    }
    const project = doc && typeof doc === 'object' ? (doc as { project?: unknown }).project : undefined;
    if (project && typeof project === 'object') {
      const p = project as { adrFolder?: unknown; packages?: unknown };
      add(pointerDir(p.adrFolder), '.log4brains.yml');
      if (Array.isArray(p.packages)) {
        for (const pkg of p.packages) {
          if (pkg && typeof pkg === 'object') add(pointerDir((pkg as { adrFolder?: unknown }).adrFolder), '.log4brains.yml', typeof (pkg as { name?: unknown }).name === 'string' ? (pkg as { name: string }).name : undefined);
        }
      }
    }
  }
  return out;
}

/** Folders never searched: dependencies, vendored and generated code. */
const SKIP = /(^|\/)(node_modules|vendor|vendors|third[_-]party|dist|build|out|target|coverage|generated|\.git|\.contextia|\.next|\.cache|bower_components|site-packages|\.venv|venv)(\/|$)/i;
/**
 * Folders of a project's tests: the sample records a records tool (or a linter, a site
 * generator) keeps there to test itself are fixtures, not the team's decisions. Guessing them
 * by name would fill every answer with "Lorem ipsum" records and fail `check` on their
 * deliberately broken links; a folder the team's own pointer names is still read.
 */
const TEST_DIR = /(^|\/)(tests?|__tests__|[\w-]*[-_]tests?|e2e|__fixtures__|fixtures?|test[-_]?data|testdata|test[-_]?fixtures?)(\/|$)/i;
/** Folder names that hold decision records (`design-decisions`, `tech_decisions` too). */
const RECORD_DIR = /^(?:adrs?|decisions?|[\w-]*decision[-_]?records?|[\w-]*[-_]decisions?|architecture[-_]?decisions?|decision[-_]?log|architecture)$/i;
// @decision DEC-102
/** A record's file name that says it is one: `adr-001-….md`, `ADR_0002_….md`, `adr0003.md`. */
/** Folder names that mean decision records even when none of the files is numbered. */
const UNNUMBERED_OK = /(?:^|\/)(?:architecture\/decisions|adrs?|[\w-]*decision[-_]?records?|architecture[-_]decisions?)$/i;
const ADR_NAMED = /^adr[-_ ]?\d/i;
/** Folders inside a records folder that sort records by state or age: part of the same source. */
const STATE_DIR = /^(?:superseded|deprecated|rejected|accepted|obsolete|outdated|archived?|old|historic\w*|history|proposed\w*|drafts?|pending)([-_]?(?:adrs?|decisions?|records?))?$/i;
const GENERIC = new Set(['docs', 'doc', 'documentation', 'adr', 'adrs', 'decisions', 'decision', 'architecture', 'src', 'packages', 'apps', 'libs', 'decision-records', 'architecture-decisions']);

/**
 * Files at the top of the repository named as numbered ADRs (`adr-001-use-adrs.md`), two or
 * more: records no folder source can read (config.yaml refuses `dir: .`, DEC-103), which a
 * repository without a config file says it left unread rather than "no artifacts".
 */
export function topLevelRecords(files: string[]): string[] {
  const top = files.filter((f) => !f.includes('/') && isAdrFile(f) && fileNumber(f) !== undefined && ADR_NAMED.test(recordStem(f)));
  return top.length >= 2 ? top.sort() : [];
}

/**
 * Decision-record folders among a repository's files, at any depth: folders named like
 * `adr`, `decisions`, `*decision-records`, `architecture/decisions` or `architecture` that
 * hold numbered or dated records, and folders of any name whose numbered files are mostly
 * named as ADRs (`docs/arch/adr-001-….md`) (directly or in `historic*`/`proposed*`/`superseded` folders, which
 * belong to the same source). A numbered folder inside a source that is not such a state
 * folder keeps its own numbering and becomes a source of its own with its own prefix.
 * Skips dependencies, vendored and generated folders, and the sample records of test folders.
 */
export function detectRecordFolders(files: string[], pointed: readonly PointedFolder[] = []): DetectedSource[] {
  const pointedDirs = new Map(pointed.map((p) => [p.dir, p] as const));
  const numbered = new Map<string, number>();
  const adrNamed = new Map<string, number>();
  for (const f of files) {
    if (SKIP.test(f) || TEST_DIR.test(path.posix.dirname(f)) || !isAdrFile(f) || (fileNumber(f) === undefined && fileDate(f) === undefined)) continue;
    // a record in a folder of its own (`2022-02-03-tracing/README.md`) belongs to the folder above
    const d = recordDir(f);
    // records at the top of the repository (arachne-framework/architecture's `adr-001-….md`): a
    // source is a folder inside the repository (config.yaml refuses `dir: .`), so none is offered (@decision DEC-103)
    if (d === '.') continue;
    numbered.set(d, (numbered.get(d) ?? 0) + 1);
    if (ADR_NAMED.test(recordStem(f))) adrNamed.set(d, (adrNamed.get(d) ?? 0) + 1);
  }
  const isRecordDir = (d: string): boolean => {
    if (pointedDirs.has(d)) return true;
    const base = path.posix.basename(d);
    if (!RECORD_DIR.test(base)) return byFileNames(d);
    // "architecture" alone is too common a name: it needs a few numbered records of its own
    if (/^architecture$/i.test(base)) return (numbered.get(d) ?? 0) >= 2 || /(^|\/)architecture\/decisions$/i.test(d);
    return true;
  };
  // records that call themselves ADRs in their file names (`docs/arch/adr-001-….md`): the
  // folder's name does not matter when two of them are most of its numbered files
  const byFileNames = (d: string): boolean => {
    const named = adrNamed.get(d) ?? 0;
    return named >= 2 && named * 2 > numbered.get(d)!;
  };
  // the source a numbered folder belongs to: itself, or a records folder above it through state folders only
  const rootOf = (d: string): string | undefined => {
    let cur = d;
    for (;;) {
      if (isRecordDir(cur)) return cur;
      if (!STATE_DIR.test(path.posix.basename(cur))) break;
      const up = path.posix.dirname(cur);
      if (up === cur || up === '.') break;
      cur = up;
    }
    return undefined;
  };
  const counts = new Map<string, number>();
  const orphans: string[] = [];
  for (const [d, n] of numbered) {
    const root = rootOf(d);
    if (root) counts.set(root, (counts.get(root) ?? 0) + n);
    else orphans.push(d);
  }
  // a numbered folder nested inside a source (not a state folder): its own source
  for (const d of orphans) {
    if ((numbered.get(d) ?? 0) >= 2 && [...counts.keys()].some((r) => d.startsWith(r + '/'))) counts.set(d, (counts.get(d) ?? 0) + numbered.get(d)!);
  }
  // a records folder holding only the team's template (`docs/adr/0000-adr-template.md`,
  // `doc/adr/templates/template.md`): a team that set up its records and has written none yet;
  // its first record goes there (DEC-093)
  for (const f of files) {
    if (SKIP.test(f) || TEST_DIR.test(path.posix.dirname(f)) || !isTemplateFile(f)) continue;
    let d = path.posix.dirname(f);
    if (/^templates?$/i.test(path.posix.basename(d))) d = path.posix.dirname(d);
    if (!counts.has(d) && ![...counts.keys()].some((r) => d.startsWith(r + '/')) && RECORD_DIR.test(path.posix.basename(d)) && !/^architecture$/i.test(path.posix.basename(d))) counts.set(d, 0);
  }
  // a folder whose name can only mean decision records (`architecture/decisions`, `adr`,
  // `*decision-records`) holding records none of which is numbered (SAP/jenkins-library's
  // documentation/architecture/decisions/nexusUpload.md): a source too; a bare `decisions`
  // folder of unnumbered pages is not claimed
  for (const f of files) {
    if (SKIP.test(f) || TEST_DIR.test(path.posix.dirname(f)) || !isAdrFile(f) || isTemplateFile(f)) continue;
    const d = path.posix.dirname(f);
    if (d === '.' || counts.has(d) || [...counts.keys()].some((r) => d.startsWith(r + '/')) || !UNNUMBERED_OK.test(d)) continue;
    counts.set(d, 0);
  }
  // the folders the team's tools point at come first (and take the plain prefix), even empty
  for (const d of pointedDirs.keys()) if (!counts.has(d)) counts.set(d, 0);
  const dirs = [...counts.keys()].sort((a, b) => Number(!pointedDirs.has(a)) - Number(!pointedDirs.has(b)) || a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  const out: DetectedSource[] = [];
  const used = new Set<string>();
  for (const dir of dirs) {
    let prefix = 'ADR-';
    const named = pointedDirs.get(dir)?.name;
    if (named) {
      const slug = prefixSlug(named);
      if (slug) prefix = `${slug}-`;
      for (let i = 2; used.has(prefix); i++) prefix = `${slug}${i}-`;
    }
    if (used.has(prefix)) {
      const segs = dir.split('/').filter((s) => !GENERIC.has(s.toLowerCase()));
      const seg = segs[segs.length - 1] ?? dir.replace(/\//g, '-');
      const slug = prefixSlug(seg) || 'RECORDS';
      prefix = `${slug}-`;
      for (let i = 2; used.has(prefix); i++) prefix = `${slug}${i}-`;
    }
    used.add(prefix);
    const from = pointedDirs.get(dir)?.from;
    const byNames = !from && !RECORD_DIR.test(path.posix.basename(dir)) && byFileNames(dir);
    out.push({ dir, format: 'adr', prefix, type: 'decision', records: counts.get(dir)!, ...(from ? { from } : {}), ...(byNames ? { byFileNames: true } : {}) });
  }
  // every record file is counted (unnumbered ones too), by the innermost source holding it
  for (const o of out) o.records = 0;
  const byDepth = [...out].sort((a, b) => b.dir.length - a.dir.length);
  const dated = new Map<DetectedSource, number>();
  const ordered = new Set<DetectedSource>();
  for (const f of files) {
    if (SKIP.test(f) || !isAdrFile(f)) continue;
    const src = byDepth.find((o) => f.startsWith(o.dir + '/'));
    if (!src) continue;
    src.records++;
    if (fileDate(f) !== undefined) dated.set(src, (dated.get(src) ?? 0) + 1);
    if (fileNumber(f) !== undefined || fileDate(f) !== undefined) ordered.add(src);
  }
  for (const [o, n] of dated) if (n * 2 > o.records) o.dated = true;
  for (const o of out) if (o.records && !ordered.has(o)) o.unnumbered = true;
  // a pointed folder with no file under it is not there: "no records yet" would promise some (identus-cloud-agent's .log4brains.yml after its records moved out)
  for (const o of out) if (o.from && !o.records && !files.some((f) => f.startsWith(o.dir + '/'))) o.missing = true;
  return out.sort((a, b) => Number(!a.from) - Number(!b.from) || (a.dir < b.dir ? -1 : 1));
}

/**
 * An id prefix from a folder's or a package's name: upper case, words joined by `-`, at most
 * 24 characters cut between words ("3rd-party-technical-review" → 3RD-PARTY-TECHNICAL, not
 * 3RD-PARTY-TECHNICAL-REVI: an id reads as words), or at 24 when the first word is longer.
 */
function prefixSlug(name: string): string {
  const slug = name.toUpperCase().replace(/[^A-Z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length <= 24) return slug;
  const at = slug.lastIndexOf('-', 24);
  return at > 0 ? slug.slice(0, at) : slug.slice(0, 24);
}

/** Agents' rule files present in a repository (AGENTS.md, CLAUDE.md, Cursor rules, Copilot instructions, …). */
export function detectAgentRuleFiles(files: string[]): string[] {
  const re = /^(?:AGENTS\.md|CLAUDE\.md|GEMINI\.md|\.cursorrules|\.windsurfrules|\.cursor\/rules\/.+|\.github\/copilot-instructions\.md|\.github\/instructions\/.+\.instructions\.md|\.clinerules(?:\/.+)?)$/;
  return files.filter((f) => re.test(f)).sort();
}
