// @spec SPEC-SOURCES-001

import path from 'node:path';

/**
 * File names in a record folder that are not records. AGENTS.md, CLAUDE.md and GEMINI.md are
 * the agents' instructions for working in the folder (smorinlabs/envgen's docs/adr/AGENTS.md: how
 * to write the next ADR): read as a record, its template line `Status: Proposed | Accepted` made
 * it a proposal waiting for confirmation, and a search result.
 */
const NOT_RECORDS = new Set(['readme', 'index', 'template', 'adr-template', 'toc', 'summary', 'changelog', 'license', 'contributing', 'agents', 'claude', 'gemini']);

/**
 * A template numbered zero so that it sorts first (`0000-ladr-template.md`, `000-adr-template.md`):
 * record number 0 with "template" in its name. A real record 0 (`0000-use-madr.md`) has no
 * template in its name, and a later record about templates (`0012-email-templates.md`) is not 0.
 */
const ZERO_TEMPLATE = /^0+[-_ .](?:.*[-_ .])?templates?(?:[-_ .].*)?$/i;

/**
 * A template kept beside the records without a number (`adr-short-template.md`,
 * `madr-template.md`, `template-lite.md`): "template" as the name's first or last word. A
 * record about templates has a number or a date (`0012-email-templates.md`) and is kept.
 */
const NAMED_TEMPLATE = /^(?!\d)(?:template(?:[-_ .].*)?|.*[-_ .]template)$/i;

/**
 * A chapter of an arc42 architecture document (`01_introduction_and_goals.adoc`,
 * `09_architecture_decisions.md`) or the document itself (`arc42.adoc`): numbered like records
 * and kept in a folder named `architecture`, but chapters of one document, not records (DEC-128).
 */
const ARC42_CHAPTERS: readonly RegExp[] = [
  /introduction[-_ ]and[-_ ]goals/,
  /architecture[-_ ]constraints/,
  /(?:system[-_ ])?scope[-_ ]and[-_ ]context|context[-_ ]and[-_ ]scope/,
  /solution[-_ ]strategy/,
  /building[-_ ]block[-_ ]view/,
  /runtime[-_ ]view/,
  /deployment[-_ ]view/,
  /(?:cross[-_ ]?cutting[-_ ])?concepts/,
  /(?:architecture|design)[-_ ]decisions/,
  /quality[-_ ](?:requirements|scenarios)/,
  /technical[-_ ]risks|risks(?:[-_ ]and[-_ ]technical[-_ ]debt)?/,
  /glossary/,
];
/** Whether a file name (no extension) is an arc42 chapter under its own number, or the document itself. */
function isArc42Chapter(stem: string): boolean {
  if (/^arc42(?:$|[-_ .])/i.test(stem)) return true;
  const m = /^0?(\d{1,2})[-_ ](.+)$/.exec(stem.toLowerCase());
  const re = m ? ARC42_CHAPTERS[Number(m[1]) - 1] : undefined;
  return !!re && new RegExp(`^(?:${re.source})$`).test(m![2]!);
}

/** Whether a file in a decision-record folder is a record: markdown, reStructuredText or AsciiDoc, not a README, index or template. */
export function isAdrFile(p: string): boolean {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const m = /^(.*)\.(md|markdown|rst|adoc|asciidoc)$/i.exec(base);
  if (!m || base[0] === '_' || base[0] === '.') return false;
  if (inRecordFolder(p)) return true;
  // beside a record's page in its own folder, an unnumbered page is the record's attachment
  // (2022-02-10-code-coverage/codecov.md), not a record
  const slash = p.lastIndexOf('/');
  if (slash > 0 && RECORD_NAMED.test(p.slice(p.lastIndexOf('/', slash - 1) + 1, slash)) && !RECORD_NAMED.test(m[1]!)) return false;
  return !NOT_RECORDS.has(m[1]!.toLowerCase()) && !ZERO_TEMPLATE.test(m[1]!) && !NAMED_TEMPLATE.test(m[1]!) && !isArc42Chapter(m[1]!);
}

/**
 * A file named as a record (`0006-use-a-bus-for-webhooks`) with no extension at all: a record
 * whose `.md` was forgotten (DFE-Digital/get-an-identity's 0006). It is not read (what it holds
 * is not known to be markdown); the loader reports it so it is not missed in silence.
 */
export function isRecordWithoutExtension(p: string): boolean {
  const base = p.slice(p.lastIndexOf('/') + 1);
  return !base.includes('.') && RECORD_NAMED.test(base);
}

/** The page of a folder: the file a folder-per-record layout writes each record in. */
const FOLDER_PAGE = /^(?:readme|index)\.(?:md|markdown|rst|adoc|asciidoc)$/i;

/**
 * Whether a file is the page of a record kept in a folder of its own, named as a record file
 * would be (`decision-records/2022-02-03-integration-testing/README.md`, `adr/0007-queues/index.md`),
 * beside the images it shows. eclipse-edc/Connector keeps its 100 records so: none was read.
 * @decision DEC-104
 */
export function inRecordFolder(p: string): boolean {
  const slash = p.lastIndexOf('/');
  if (slash < 0 || !FOLDER_PAGE.test(p.slice(slash + 1))) return false;
  const folder = p.slice(p.lastIndexOf('/', slash - 1) + 1, slash);
  return RECORD_NAMED.test(folder);
}

/** A name led by a record's number or date and followed by words (`0007-queues`, `2022-02-03-tracing`, `adr-012-cache`). */
const RECORD_NAMED = /^(?:(?:19|20)\d\d[-_]?(?:0[1-9]|1[0-2])[-_]?(?:0[1-9]|[12]\d|3[01])|(?:[A-Za-z]{2,8}[-_ ]?)?\d+)[-_ .]\S/;

/**
 * The name a record is known by, without its extension: its file's, or its folder's when it is
 * the page of a folder of its own (`2022-02-03-integration-testing/README.md`).
 */
export function recordStem(file: string): string {
  if (inRecordFolder(file)) {
    const slash = file.lastIndexOf('/');
    return file.slice(file.lastIndexOf('/', slash - 1) + 1, slash);
  }
  return path.posix.basename(file).replace(/\.(md|markdown|rst|adoc|asciidoc)$/i, '');
}

/** The folder a record belongs to (the records folder): its file's folder, or above its own folder. */
export function recordDir(file: string): string {
  const d = path.posix.dirname(file);
  return inRecordFolder(file) ? path.posix.dirname(d) : d;
}

/**
 * Whether a file names a template for new records kept in a records folder (`template.md`,
 * `adr-template.md`, `0000-adr-template.md`, `_template.md`, `adr-short-template.md`): the
 * names isAdrFile leaves out as templates, markdown only (new records are markdown).
 */
export function isTemplateFile(p: string): boolean {
  const m = /^[_.]?(.*)\.(md|markdown)$/i.exec(p.slice(p.lastIndexOf('/') + 1));
  if (!m) return false;
  return /^(?:adr-|madr-)?template$/i.test(m[1]!) || ZERO_TEMPLATE.test(m[1]!) || NAMED_TEMPLATE.test(m[1]!);
}

/** A calendar date at the start of a record's file name: `20200924-`, `2020-09-24-`, `2020_09_24_`; the separator between its parts is group 2. */
const DATE_NAME = /^((?:19|20)\d\d)([-_]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?=$|[-_ .])/;

/**
 * The creation date a record's file name starts with instead of a number, as written
 * (log4brains names records `20200924-slug.md`; others `2020-09-24-slug.md` or `2020_09_24_slug.md`). Such a date
 * orders records but does not number them: two records of one day are common, and the
 * tools that name them so identify a record by its whole file name.
 */
export function fileDate(file: string): string | undefined {
  return DATE_NAME.exec(recordStem(file))?.[0];
}

/** The number a record's file name starts with (`0048-x.md`, `ADR-0048-x.md`, `adr_48.md`), as written; none when it starts with a date. */
export function fileNumber(file: string): string | undefined {
  const stem = recordStem(file);
  if (DATE_NAME.test(stem)) return undefined;
  return /^(?:[A-Za-z]{2,8}[-_ ]?)?(\d+)(?:$|[-_ .])/.exec(stem)?.[1];
}

/** The id of a record from its file name: prefix + number as written, or prefix + slug when unnumbered (a dated name keeps its date: `ADR-20200924-use-markdown`). */
export function adrIdFor(file: string, prefix: string): string {
  const n = fileNumber(file);
  if (n !== undefined) return prefix + n;
  const stem = recordStem(file);
  const slug = stem.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'record';
  return prefix + slug;
}

