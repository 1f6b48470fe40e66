// @spec SPEC-SOURCES-001

import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactSet } from '../load.js';
import type { Artifact } from '../types.js';
import { splitFrontmatter } from '../parse.js';
import { CtxError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { containedPath, mkdirContained } from '../../util/contained.js';
import { normalizeRepoPath } from '../../util/paths.js';
import { confirmationSection, type ConfirmEntry } from './confirm-block.js';
import { updateDecisionLog } from './decision-log.js';
import { adrIdFor, fileDate, fileNumber, inRecordFolder, isTemplateFile, recordDir, recordStem } from './files.js';
import { learnShape, renderShape, type RecordShape } from './record-shape.js';
import { fillTemplate, findTemplate } from './record-template.js';
import { learnRstShape, renderRst, type RstShape } from './rst-record.js';
import { ADOC_FILE, adocConfirmation, DEFAULT_ADOC_SHAPE, learnAdocShape, renderAdoc, type AdocShape } from './adoc-record.js';
import { withFolderMark } from './status-language.js';

export interface NewRecordOptions {
  /** the records folder (an adr source's dir) */
  dir: string;
  title: string;
  /** status as written (default Proposed) */
  status?: string;
  /** YYYY-MM-DD (default today, UTC) */
  date: string;
  /** filled sections (git ctx add); MADR records also take paths and keywords in their frontmatter */
  content?: { context?: string; decision?: string; consequences?: string; paths?: string[]; keywords?: string[]; confirm?: ConfirmEntry[] };
  /** compute the file and its text, write nothing */
  dryRun?: boolean;
}

export interface NewRecordResult {
  id: string;
  file: string;
  abs: string;
  /** the style it is written in: a reStructuredText record is `rst` */
  style: 'nygard' | 'madr' | 'rst' | 'adoc';
  /** the text written (or, in a dry run, that would be) */
  text: string;
  /** the team's template the record was written from, when the folder keeps one */
  template?: string;
  /** sections that still hold the template's guidance, as headed (the author writes them) */
  guidance?: string[];
  /** the folder's generated log (adr-log's index.md) that got the record's line, when it keeps one */
  log?: string;
}

/** Where a new decision goes: a records folder read in place, or the frontmatter store. */
export type DecisionTarget = { kind: 'adr'; dir: string } | { kind: 'contextia' };

/**
 * Where a new decision is written (add, new, proposals). Asked for (`into`): the configuration
 * folder (`.contextia`) means the frontmatter store, any other folder a records folder. Not
 * asked for: where the team keeps its decisions — the records folder (an adr source of
 * decisions, configured or found without a configuration) holding the most of them when it
 * holds more than the frontmatter store; a repository whose decision sources are only
 * records folders writes there even before its first record. A team that writes adr-tools
 * records would otherwise find its next decision in a folder nobody reads.
 */
export function decisionTarget(set: ArtifactSet, into?: string): DecisionTarget {
  if (into !== undefined) {
    const dir = normalizeRepoPath(into);
    return dir === normalizeRepoPath(set.config.dir) ? { kind: 'contextia' } : { kind: 'adr', dir };
  }
  const dirs = set.config.sources.filter((s) => s.format === 'adr' && (s.type || 'decision') === 'decision').map((s) => s.dir);
  const counts = new Map<string, number>(dirs.map((d) => [d, 0]));
  let frontmatter = 0;
  for (const a of set.artifacts) {
    if (a.origin !== 'repo' || a.type !== 'decision') continue;
    if (a.format !== 'adr') {
      frontmatter++;
      continue;
    }
    const d = dirs.find((x) => a.file.startsWith(x + '/'));
    if (d !== undefined) counts.set(d, counts.get(d)! + 1);
  }
  let best: string | undefined;
  let most = frontmatter;
  for (const d of dirs) {
    if (counts.get(d)! > most) {
      best = d;
      most = counts.get(d)!;
    }
  }
  if (best === undefined && most === 0 && dirs.length) best = dirs[0];
  return best !== undefined ? { kind: 'adr', dir: best } : { kind: 'contextia' };
}

/** A file-name slug of at most 60 characters, cut after a whole word ("…-in-every-feature", not "…-feature-m"). */
const slug = (s: string, sep = '-') => {
  // accents dropped, not read as separators ("t\u00e2ches" is `taches`, not `ta-ches`) @decision DEC-136
  const full = s.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^a-z0-9]+/g, sep).replace(new RegExp(`^\\${sep}+|\\${sep}+$`, 'g'), '');
  if (full.length <= 60) return full || 'decision';
  const cut = full.slice(0, 61);
  const end = cut.lastIndexOf(sep);
  return (end > 20 ? cut.slice(0, end) : full.slice(0, 60)) || 'decision';
};

/** How a folder names its records, from one name: `0014-title.md`, `adr-014-title.md`, `ADR_7_title.md`. */
interface NamePattern {
  prefix: string;
  /** named by the creation date instead of a number (log4brains): the separator between its parts, '', '-' or '_' */
  dated?: string;
  /** between the number and the title */
  sep: string;
  /** between the title's words */
  words: string;
  ext: string;
  /** each record in a folder of its own, written in a page of this name (README.md) */
  page?: string;
}

function namePattern(file: string | undefined): NamePattern {
  // a folder of its own per record (eclipse-edc/Connector's `2022-02-07-tracing/README.md`):
  // named as its folder, the page's name kept (@decision DEC-104)
  const page = file && inRecordFolder(file) ? path.posix.basename(file) : undefined;
  const named = namePatternOf(file && page ? `${recordStem(file)}.md` : file);
  return page ? { ...named, page } : named;
}

function namePatternOf(file: string | undefined): NamePattern {
  const base = file ? path.posix.basename(file) : '';
  const date = file ? fileDate(file) : undefined;
  const d = date !== undefined ? /^([-_ .])(.*)\.(md|markdown)$/i.exec(base.slice(date.length)) : null;
  if (d) return { prefix: '', dated: date!.length > 8 ? date![4]! : '', sep: d[1]!, words: d[2]!.includes('_') && !d[2]!.includes('-') ? '_' : '-', ext: d[3]! };
  const m = /^([A-Za-z]{2,8}[-_ ]?)?(\d+)([-_ .])(.*)\.(md|markdown)$/i.exec(base);
  if (!m) return { prefix: '', sep: '-', words: '-', ext: 'md' };
  return { prefix: m[1] ?? '', sep: m[3]!, words: m[4]!.includes('_') && !m[4]!.includes('-') ? '_' : '-', ext: m[5]! };
}

/**
 * Write a new decision record into an adr source folder in the folder's own style: the next
 * number after the highest one in it (any file of the folder counts, records or not; padded
 * like the others, 4 digits when there are none) — or its date, when the newest record is named
 * by its date (`20201016-slug.md`) — named like its newest record, and written from the
 * team's template when the folder keeps one (record-template.ts: `0000-adr-template.md`,
 * `template.md`, `templates/template.md`; its title line numbered as the records are), else shaped
 * like the newest record whose shape git-ctx can fill (record-shape.ts): adr-tools,
 * MADR frontmatter or bullets, hand-written metadata lines. An empty folder gets Nygard
 * (`# N. Title`, `Date:`, `## Status`), a folder of records git-ctx cannot learn from MADR
 * when they carry frontmatter or `* Status:` bullets. Created with createOnly: never
 * overwrites; a number another writer took meanwhile moves it to the next.
 */
export async function createRecord(set: ArtifactSet, o: NewRecordOptions): Promise<NewRecordResult> {
  const dir = normalizeRepoPath(o.dir);
  const src = set.config.sources.find((s) => s.dir === dir && s.format === 'adr');
  if (!src) {
    const dirs = set.config.sources.filter((s) => s.format === 'adr').map((s) => s.dir);
    throw new CtxError('USAGE', `${dir} is not a records folder (format adr) under sources: in ${set.config.dir}/config.yaml`, { hint: dirs.length ? `records folders: ${dirs.join(', ')}` : 'add it under sources: (git ctx init finds them)' });
  }
  const root = set.snapshot.root;
  const inDir = set.artifacts.filter((a) => a.file.startsWith(dir + '/'));
  // every numbered name counts: a record saved without its extension still holds its number
  const onDisk = await readdir(path.join(root, ...dir.split('/'))).catch(() => [] as string[]);
  let max = 0;
  let width = 0;
  for (const f of [...inDir.map((a) => a.file), ...onDisk]) {
    // a template numbered to sort first or last (0000-, 9999-) holds no record's number
    const n = isTemplateFile(f) ? undefined : fileNumber(f);
    if (n === undefined) continue;
    max = Math.max(max, Number(n));
    width = Math.max(width, n.length);
  }
  // newest first: records directly in the folder before those in its subfolders (an archive
  // such as historic/ is not how the team writes now), then the highest number or the latest
  // date (a folder that moved from numbers to dates, as log4brains did, writes dated now), then the later name
  const nested = (f: string) => (recordDir(f) === dir ? 0 : 1);
  const order = (f: string) => Number(fileNumber(f) ?? fileDate(f)?.replace(/[-_]/g, '') ?? -1);
  const newest = inDir
    .filter((a) => order(a.file) >= 0 && /\.(md|markdown)$/i.test(a.file))
    .sort((a, b) => nested(a.file) - nested(b.file) || order(b.file) - order(a.file) || (a.file < b.file ? 1 : -1));
  let shape: RecordShape | undefined;
  // each record read once: the shape's model, the records compared with it, and sharedSections' read the same files
  const read = new Map<string, Promise<string | undefined>>();
  const textAt = (file: string) => {
    let t = read.get(file);
    if (!t) read.set(file, (t = readFile(path.join(root, ...file.split('/')), 'utf8').catch(() => undefined)));
    return t;
  };
  const textOf = (a: Artifact) => textAt(a.file);
  let from = -1;
  for (let i = 0; i < newest.length && !shape; i++) {
    const text = await textOf(newest[i]!);
    if (text === undefined) continue;
    // a few other records tell the folder's own lines (a site component under every title) from this record's (DEC-107)
    const others = (await Promise.all(newest.filter((_, j) => j !== i).slice(0, 3).map(textOf))).filter((t): t is string => t !== undefined);
    const number = fileNumber(newest[i]!.file);
    shape = learnShape(text, { others, stem: recordStem(newest[i]!.file), ...(number !== undefined ? { number } : {}) });
    if (shape) from = i;
  }
  // no record states a status: the newest with a numbered title (the folder's way of titling), else the newest, without one @decision DEC-135
  for (const numbered of [true, false]) {
    for (let i = 0; i < Math.min(newest.length, 10) && !shape; i++) {
      const text = await textOf(newest[i]!);
      if (text === undefined) continue;
      const number = fileNumber(newest[i]!.file);
      const s = learnShape(text, { statusless: true, stem: recordStem(newest[i]!.file), ...(number !== undefined ? { number } : {}) });
      if (s && (!numbered || s.titlePrefix)) {
        shape = s;
        from = i;
      }
    }
  }
  if (shape) shape = await sharedSections(shape, textAt, newest[from]!, newest.filter((_, i) => i !== from).slice(0, 10));
  // a folder of reStructuredText records (more of them than markdown) gets one more, shaped like its newest
  const rstFiles = inDir.filter((a) => order(a.file) >= 0 && /\.rst$/i.test(a.file)).sort((a, b) => nested(a.file) - nested(b.file) || order(b.file) - order(a.file) || (a.file < b.file ? 1 : -1));
  let rstShape: RstShape | undefined;
  for (let i = 0; rstFiles.length > newest.length && i < rstFiles.length && !rstShape; i++) {
    const text = await textOf(rstFiles[i]!);
    if (text === undefined) continue;
    rstShape = learnRstShape(text, (await Promise.all(rstFiles.filter((_, j) => j !== i).slice(0, 3).map(textOf))).filter((t): t is string => t !== undefined));
  }
  // a folder of AsciiDoc records (more of them than markdown or rst) gets one more, shaped like its newest (DEC-128)
  const adocFiles = inDir.filter((a) => order(a.file) >= 0 && ADOC_FILE.test(a.file)).sort((a, b) => nested(a.file) - nested(b.file) || order(b.file) - order(a.file) || (a.file < b.file ? 1 : -1));
  const adocFolder = !rstShape && adocFiles.length > newest.length && adocFiles.length > rstFiles.length;
  let adocShape: AdocShape | undefined;
  for (let i = 0; adocFolder && i < adocFiles.length && !adocShape; i++) {
    const text = await textOf(adocFiles[i]!);
    if (text === undefined) continue;
    adocShape = learnAdocShape(text, (await Promise.all(adocFiles.filter((_, j) => j !== i).slice(0, 3).map(textOf))).filter((t): t is string => t !== undefined));
  }
  if (adocFolder) adocShape ??= DEFAULT_ADOC_SHAPE;
  const names = rstShape ? { ...namePattern(rstFiles[0]!.file.replace(/\.rst$/i, '.md')), ext: 'rst' } : adocShape ? { ...namePattern(adocFiles[0]!.file.replace(ADOC_FILE, '.md')), ext: adocFiles[0]!.file.replace(/^.*\./, '') } : namePattern(newest[0]?.file);
  // the team's template, when it keeps one, is how it wants a new record to look (DEC-093)
  const template = rstShape || adocShape ? undefined : await findTemplate(root, dir);
  const madr = shape ? shape.style === 'madr' : inDir.some((a) => splitFrontmatter(a.body).hasFrontmatter || /^[*-][ \t]+Status:/im.test(a.body));
  const title = o.title.trim() || 'Untitled decision';
  // in the folder's own marks ("✅ Accepted" where its records write them so)
  const status = withFolderMark(o.status?.trim() || 'Proposed', inDir.map((a) => a.statusText));
  // the case the folder's records write their status in, for a template whose placeholder does not say (`{{ STATUS }}`)
  const written = inDir.map((a) => a.statusText ?? a.status).filter((x): x is string => !!x && /[a-z]/i.test(x));
  const statusLower = written.length ? written.filter((x) => x === x.toLowerCase()).length * 2 > written.length : undefined;
  for (let n = max + 1; n < max + 20; n++) {
    // a dated folder names the record by its date; another record of that day and title gets -2, -3, …
    const num = names.dated !== undefined ? o.date.replace(/-/g, names.dated) : String(n).padStart(width || 4, '0');
    const again = names.dated !== undefined && n > max + 1 ? `${names.words}${n - max}` : '';
    const name = `${names.prefix}${num}${names.sep}${slug(title, names.words)}${again}`;
    const file = names.page ? `${dir}/${name}/${names.page}` : `${dir}/${name}.${names.ext}`;
    const c = o.content ?? {};
    const para = (t: string | undefined) => (t?.trim() ? `${t.trim()}\n\n` : '');
    const list = (k: string, v: string[] | undefined) => (v?.length ? `${k}: [${v.map((x) => JSON.stringify(x)).join(', ')}]\n` : '');
    // the number in the title as the folder writes it there: adr-tools `# 14.`, or padded like the file
    const titleNumber = shape?.titlePadded ? num : String(n);
    const fromTemplate = template && fillTemplate(template.text, { number: titleNumber, title, status, date: o.date, statusLower, titlePrefix: shape?.titlePrefix.replace('{n}', titleNumber), context: c.context, decision: c.decision, consequences: c.consequences, paths: c.paths, keywords: c.keywords });
    const text = fromTemplate
      ? fromTemplate.text
      : adocShape
      ? renderAdoc(adocShape, { number: String(n), fileNumber: num, title, status, date: o.date, context: c.context, decision: c.decision, consequences: c.consequences })
      : rstShape
      ? renderRst(rstShape, { number: String(n), fileNumber: num, title, status, context: c.context, decision: c.decision, consequences: c.consequences })
      : shape
      ? renderShape(shape, { number: titleNumber, fileNumber: num, stem: name, title, status, date: o.date, context: c.context, decision: c.decision, consequences: c.consequences, paths: c.paths, keywords: c.keywords })
      : madr
        ? `---\nstatus: ${status.toLowerCase()}\ndate: ${o.date}\ndeciders: []\n${list('paths', c.paths)}${list('keywords', c.keywords)}---\n# ${title}\n\n## Context and Problem Statement\n\n${para(c.context)}## Considered Options\n\n## Decision Outcome\n\n${para(c.decision)}### Consequences\n${c.consequences?.trim() ? `\n${c.consequences.trim()}\n` : ''}`
        : `# ${names.dated !== undefined ? '' : `${n}. `}${title}\n\nDate: ${o.date}\n\n## Status\n\n${status}\n\n## Context\n\n${para(c.context)}## Decision\n\n${para(c.decision)}## Consequences\n${c.consequences?.trim() ? `\n${c.consequences.trim()}\n` : ''}`;
    // the record's own style: MADR 4 keeps Confirmation under Decision Outcome (DEC-052)
    const style = fromTemplate ? fromTemplate.madr : madr;
    const confirmation = c.confirm?.length ? `\n${adocShape && !fromTemplate ? adocConfirmation(confirmationSection(c.confirm, 2)) : confirmationSection(c.confirm, style ? 3 : 2)}` : '';
    const abs = path.join(root, ...file.split('/'));
    // contained (SPEC-HOSTILE-001): a linked records folder must not write outside the work tree
    await containedPath(root, abs);
    // a folder whose records carry their file name as frontmatter id gives the new one its own
    const ownId = !fromTemplate && shape?.frontmatter?.some((l) => /^id:\s*["']?\{stem\}/.test(l));
    const result = { id: ownId ? name : adrIdFor(file, src.prefix), file, abs, style: adocShape ? ('adoc' as const) : rstShape ? ('rst' as const) : style ? ('madr' as const) : ('nygard' as const), text: text + confirmation, ...(template ? { template: template.file } : {}), ...(fromTemplate && fromTemplate.guidance.length ? { guidance: fromTemplate.guidance } : {}) };
    if (o.dryRun) {
      if (existsSync(abs)) continue;
      return result;
    }
    await mkdirContained(root, path.dirname(abs));
    try {
      await writeFileAtomic(abs, text + confirmation, { createOnly: true });
      const log = await updateDecisionLog(root, dir, { number: names.dated !== undefined ? num : String(n), file, title }, (name) => inDir.find((a) => path.posix.basename(a.file) === name)?.title);
      return log ? { ...result, log } : result;
    } catch (e) {
      if (!(e instanceof CtxError && e.code === 'EXISTS')) throw e;
    }
  }
  throw new CtxError('EXISTS', `could not find a free number in ${dir}`);
}

/**
 * The learned shape without the sections only its own record had (DEC-109): a record's own
 * discussion ("## Memory Savings" of a quantisation record) is no part of how the folder writes
 * records. A section another of the newest records also has stays, and so do the record's own
 * parts (context, decision, consequences, status); with no other record to compare, all stay.
 * A record with the model's title is not compared: it is the same record rewritten under
 * another number (gardenlinux's 0037 and the 0031 it supersedes both have "## 2. Metadata
 * Assembly"), and their sections are still that record's own.
 */
async function sharedSections(shape: RecordShape, textAt: (file: string) => Promise<string | undefined>, model: Artifact, others: Artifact[]): Promise<RecordShape> {
  const seen = new Set<string>();
  let compared = 0;
  const same = (t: string) => t.trim().toLowerCase();
  for (const a of others) {
    if (same(a.title) === same(model.title)) continue;
    const text = await textAt(a.file);
    if (text === undefined) continue;
    compared++;
    for (const m of text.matchAll(/^#{2,6}[ \t]+(.+?)[ \t#]*$/gm)) seen.add(m[1]!.trim().toLowerCase());
  }
  if (!compared) return shape;
  return { ...shape, sections: shape.sections.filter((x) => x.role !== 'other' || seen.has(x.title.trim().toLowerCase())) };
}
