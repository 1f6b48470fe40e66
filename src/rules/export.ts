// @spec SPEC-RULES-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import type { TokenCounter } from '../assemble/tokens.js';
import type { Config } from '../config.js';
import { CtxError } from '../errors.js';
import type { Snapshot } from '../snapshot/types.js';
import { compilePaths } from '../util/path-set.js';
import { plural } from '../util/plural.js';
import {
  BEGIN_MARKER,
  CURSOR_DIR,
  END_MARKER,
  GENERATED_PREFIX,
  INSTRUCTIONS_DIR,
  PRESENCE,
  RULE_FORMATS,
  SECTION_FILES,
  fileNameForId,
  findManagedSection,
  isGeneratedFile,
  spliceSection,
  type RuleFormat,
} from './formats.js';

export interface RulesExportOptions {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** formats to write; default: config `rule_files.formats`, else AGENTS.md plus every format already present */
  formats?: RuleFormat[];
  /** only formats already carrying git-ctx content (managed sections or generated files): what the drift check compares */
  inUseOnly?: boolean;
  /** counts tokens for the per-file budget; needed only when a file's bytes exceed the budget */
  counter?: TokenCounter;
}

/** One file export would write (or remove). */
export interface RuleFile {
  /** repository-relative path */
  path: string;
  format: RuleFormat;
  /** the whole intended content; null: a generated file that should no longer exist */
  content: string | null;
  /** the content now (undefined: absent) */
  current: string | undefined;
  /** content differs from current */
  changed: boolean;
  /** 1-based line where the managed part starts in the current file (for messages) */
  line?: number;
  /** records written in full, shortened to their summary, and left out for the budget */
  ids: string[];
  lowered: string[];
  dropped: string[];
}

export interface RulesPlan {
  formats: RuleFormat[];
  /** the records exported, in order */
  ids: string[];
  files: RuleFile[];
  budget: number;
}

/** The records that go into rule files: configured types, active statuses, ordered by type then id. */
export function exportedArtifacts(set: ArtifactSet, config: Config): Artifact[] {
  const types = config.rule_files.types;
  const rank = new Map(types.map((t, i) => [t, i]));
  return set.artifacts
    .filter((a) => a.origin === 'repo' && rank.has(a.type) && !(a.status && (config.types[a.type]?.inactive ?? []).includes(a.status)))
    .filter((a) => set.byId.get(a.id) === a)
    .sort((a, b) => rank.get(a.type)! - rank.get(b.type)! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Which formats are present in a snapshot (their file or folder exists). */
export async function presentFormats(snapshot: Snapshot): Promise<RuleFormat[]> {
  const out: RuleFormat[] = [];
  for (const f of RULE_FORMATS) {
    for (const p of PRESENCE[f]) {
      const hit = p.endsWith('/') ? (await snapshot.listUnder(p.slice(0, -1))).length > 0 : (await snapshot.read(p)) !== undefined;
      if (hit) {
        out.push(f);
        break;
      }
    }
  }
  return out;
}

/** The `paths:` of a record as globs rule files understand: inclusions only, directories as `dir/**`. */
export function globsFor(a: Artifact, dirs: Set<string>): { include: string[]; exclude: string[] } {
  const set = compilePaths(a.paths);
  const asGlob = (e: string) => {
    const p = e.replace(/^\.\//, '');
    if (p.endsWith('/')) return `${p}**`;
    if (!/[*?[{]/.test(p) && dirs.has(p)) return `${p}/**`;
    return p;
  };
  return { include: set.includes.map(asGlob), exclude: set.excludes.map(asGlob) };
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/**
 * The part of a record that says what to do: a section headed Decision, Decision Outcome,
 * Rule(s) or Norm when there is one, else the first section; the record's own title
 * heading is left out and inner headings become bold lines (they would break the
 * surrounding file's outline).
 */
export function decisionText(body: string): string {
  const lines = body.split('\n');
  const heads = lines.map((l, i) => ({ i, m: HEADING.exec(l) })).filter((h) => h.m);
  const wanted = heads.find((h) => /^(decision( outcome)?|rules?|norm|the rule|what we do)\s*:?$/i.test(h.m![2]!));
  let chunk: string[];
  if (wanted) {
    const level = wanted.m![1]!.length;
    const next = heads.find((h) => h.i > wanted.i && h.m![1]!.length <= level);
    chunk = lines.slice(wanted.i + 1, next ? next.i : lines.length);
  } else {
    // first section: skip a leading title heading, stop at the next heading
    let i = 0;
    while (i < lines.length && !lines[i]!.trim()) i++;
    if (i < lines.length && HEADING.test(lines[i]!)) i++;
    const next = heads.find((h) => h.i >= i);
    chunk = lines.slice(i, next ? next.i : lines.length);
  }
  return chunk
    .map((l) => {
      const m = HEADING.exec(l);
      return m ? `**${m[2]}**` : l.replace(/\s+$/, '');
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

interface Entry {
  a: Artifact;
  full: string;
  short: string;
}

function appliesLine(g: { include: string[]; exclude: string[] }): string {
  if (!g.include.length) return '';
  const code = (s: string) => '`' + s.replace(/`/g, "'") + '`';
  return `Applies to ${g.include.map(code).join(', ')}${g.exclude.length ? ` (not ${g.exclude.map(code).join(', ')})` : ''}.`;
}

function oneLine(s: string | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

function entryFor(a: Artifact, dirs: Set<string>, level: string): Entry {
  const head = `${level} ${a.id}: ${oneLine(a.title) || a.id}`;
  const applies = appliesLine(globsFor(a, dirs));
  const summary = oneLine(a.summary);
  const text = decisionText(a.body);
  const pointer = `Full record: \`${a.file}\``;
  const short = [head, [summary, applies].filter(Boolean).join(' '), pointer].filter(Boolean).join('\n\n');
  const useText = text && oneLine(text) !== summary ? text : '';
  const full = [head, [summary, applies].filter(Boolean).join(' '), useText, pointer].filter(Boolean).join('\n\n');
  return { a, full, short };
}

interface Fitted {
  parts: string[];
  ids: string[];
  lowered: string[];
  dropped: string[];
}

/**
 * Token counts for one plan, remembered by text: the same entry goes into AGENTS.md,
 * CLAUDE.md and GEMINI.md, and is counted once. Misses are counted in one call per batch
 * (each call may load the encoder).
 */
class Counts {
  private readonly known = new Map<string, number>();
  constructor(private readonly counter: TokenCounter | undefined) {}
  async ensure(texts: string[]): Promise<void> {
    const miss = [...new Set(texts.filter((t) => !this.known.has(t)))];
    if (!miss.length) return;
    if (!this.counter) throw new CtxError('USAGE', 'a rule file exceeds its token budget and no token counter was given');
    const n = await this.counter.count(miss);
    miss.forEach((t, i) => this.known.set(t, n[i]!));
  }
  get(text: string): number {
    return this.known.get(text)!;
  }
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Fit entries into a token budget, in priority order: each entry in full while the full
 * text fits, then (once one does not) every later entry as its summary while that fits,
 * then the rest left out. A token is at least one byte, so while the bytes fit nothing is
 * counted; past that, entries are counted in batches of about four budgets' worth of
 * bytes, so a 2,000-record repository counts the few hundred entries that can matter.
 */
async function fit(fixed: string[], entries: Entry[], budget: number, counts: Counts): Promise<Fitted> {
  const out: Fitted = { parts: [], ids: [], lowered: [], dropped: [] };
  const totalBytes = fixed.reduce((n, s) => n + bytes(s), 0) + entries.reduce((n, e) => n + bytes(e.full), 0);
  if (totalBytes <= budget) {
    out.parts = entries.map((e) => e.full);
    out.ids = entries.map((e) => e.a.id);
    return out;
  }
  await counts.ensure(fixed);
  let used = fixed.reduce((n, s) => n + counts.get(s), 0);
  let level: 'full' | 'short' = 'full';
  let counted = 0;
  for (let i = 0; i < entries.length; i++) {
    if (i >= counted) {
      // the next batch: entries up to ~4 budgets of bytes (at least one)
      let j = i;
      let b = 0;
      while (j < entries.length && (j === i || b < 4 * budget)) b += bytes(entries[j]!.full) + bytes(entries[j++]!.short);
      await counts.ensure(entries.slice(i, j).flatMap((e) => [e.full, e.short]));
      counted = j;
    }
    const e = entries[i]!;
    if (level === 'full' && used + counts.get(e.full) <= budget) {
      used += counts.get(e.full);
      out.parts.push(e.full);
      out.ids.push(e.a.id);
      continue;
    }
    level = 'short';
    if (used + counts.get(e.short) <= budget) {
      used += counts.get(e.short);
      out.parts.push(e.short);
      out.ids.push(e.a.id);
      out.lowered.push(e.a.id);
      continue;
    }
    out.dropped = entries.slice(i).map((x) => x.a.id);
    break;
  }
  return out;
}

const INTRO =
  'The norms and decisions below are generated from the project\u2019s records by `git ctx rules export`; ' +
  'edit the records (or run `git ctx new`), not this section. Follow them when changing the code they apply to.';

async function sectionFor(title: string, entries: Entry[], budget: number, counts: Counts, extra = ''): Promise<{ text: string; fitted: Fitted }> {
  const head = `${BEGIN_MARKER}\n## ${title}\n\n${INTRO}${extra ? ' ' + extra : ''}`;
  const fitted = await fit([head, END_MARKER], entries, budget, counts);
  const parts = [head, ...fitted.parts];
  if (!entries.length) parts.push('No active norms or decisions yet.');
  if (fitted.dropped.length) parts.push(`${plural(fitted.dropped.length, 'more record', 'more records')} left out for the token budget (${budget}): run \`git ctx list\` to see them all.`);
  return { text: parts.join('\n\n') + '\n' + END_MARKER, fitted };
}

function yamlString(s: string): string {
  return JSON.stringify(s);
}

function generatedLine(a: Artifact): string {
  return `${GENERATED_PREFIX}${a.id} (${a.file}); edit the record, then run it again -->`;
}

async function wholeFile(frontmatter: string[], e: Entry, budget: number, counts: Counts): Promise<{ text: string; fitted: Fitted }> {
  const fm = `---\n${frontmatter.join('\n')}\n---\n${generatedLine(e.a)}\n`;
  const body = { ...e, full: e.full.replace(/^#{1,6} /, '# '), short: e.short.replace(/^#{1,6} /, '# ') };
  const fitted = await fit([fm], [body], budget, counts);
  // a whole file always keeps its record: at worst its summary
  const part = fitted.parts[0] ?? body.short;
  if (!fitted.parts.length) {
    fitted.ids.push(e.a.id);
    fitted.lowered.push(e.a.id);
    fitted.dropped = [];
  }
  return { text: fm + '\n' + part + '\n', fitted };
}

/**
 * What `git ctx rules export` would write: the intended content of every rule file of the
 * selected formats, with the current content beside it. Pure and deterministic (no dates,
 * records in type-then-id order); reads files only through the snapshot.
 */
export async function planRuleFiles(opts: RulesExportOptions): Promise<RulesPlan> {
  const { snapshot, config, set } = opts;
  const budget = config.rule_files.budget;
  const counts = new Counts(opts.counter);
  const listing = await snapshot.list();
  const dirs = new Set<string>();
  for (const e of listing) {
    let p = e.path;
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/')) {
      p = p.slice(0, i);
      if (dirs.has(p)) break;
      dirs.add(p);
    }
  }
  const generatedIn = async (dir: string, ext: string) => {
    const entries = listing.filter((e) => e.path.startsWith(dir + '/') && e.path.endsWith(ext) && !e.path.slice(dir.length + 1).includes('/'));
    const texts = await snapshot.readMany(entries.map((e) => e.path));
    const out = new Map<string, string>();
    entries.forEach((e, i) => {
      const t = texts[i]?.toString('utf8');
      if (t !== undefined && isGeneratedFile(t)) out.set(e.path, t);
    });
    return out;
  };
  const sectionText = async (f: RuleFormat) => (await snapshot.read(SECTION_FILES[f]!))?.toString('utf8');

  let formats: RuleFormat[];
  const oldCursor = await generatedIn(CURSOR_DIR, '.mdc');
  const oldInstr = await generatedIn(INSTRUCTIONS_DIR, '.instructions.md');
  if (opts.inUseOnly) {
    formats = [];
    for (const f of RULE_FORMATS) {
      if (f === 'cursor' ? oldCursor.size > 0 : f === 'copilot' ? oldInstr.size > 0 || !!findManagedSection((await sectionText(f)) ?? '') : !!findManagedSection((await sectionText(f)) ?? '')) formats.push(f);
    }
  } else if (opts.formats?.length) formats = [...new Set(opts.formats)];
  else if (config.rule_files.formats.length) {
    const bad = config.rule_files.formats.filter((f) => !(RULE_FORMATS as readonly string[]).includes(f));
    if (bad.length) throw new CtxError('CONFIG', `rule_files.formats names unknown format(s) ${bad.join(', ')}`, { file: `${config.dir}/config.yaml`, hint: `use ${RULE_FORMATS.join(', ')}` });
    formats = config.rule_files.formats as RuleFormat[];
  } else formats = [...new Set<RuleFormat>(['agents', ...(await presentFormats(snapshot))])];
  formats = RULE_FORMATS.filter((f) => formats.includes(f));

  const arts = exportedArtifacts(set, config);
  const entries = new Map(arts.map((a) => [a.id, entryFor(a, dirs, '###')]));
  const entryOf = (a: Artifact) => entries.get(a.id)!;
  const files: RuleFile[] = [];
  const push = (path: string, format: RuleFormat, content: string | null, current: string | undefined, fitted?: Fitted) => {
    const line = current === undefined ? undefined : (findManagedSection(current)?.line ?? 1);
    files.push({ path, format, content, current, changed: content !== (current ?? null), line, ids: fitted?.ids ?? [], lowered: fitted?.lowered ?? [], dropped: fitted?.dropped ?? [] });
  };
  const scoped = (a: Artifact) => compilePaths(a.paths).includes.length > 0;

  let whole: { text: string; fitted: Fitted } | undefined;
  for (const f of formats) {
    if (f === 'cursor') {
      const want = new Set<string>();
      for (const a of arts) {
        const path = `${CURSOR_DIR}/${fileNameForId(a.id)}.mdc`;
        want.add(path);
        const g = globsFor(a, dirs);
        const fm = [`description: ${yamlString(`${a.id}: ${oneLine(a.title) || a.id}${a.summary ? ' \u2014 ' + oneLine(a.summary) : ''}`)}`];
        // Cursor reads globs as one comma-separated string, written unquoted as its own editor does
        fm.push(`globs: ${g.include.join(',')}`);
        fm.push(`alwaysApply: ${!g.include.length && a.type === 'norm'}`);
        const { text, fitted } = await wholeFile(fm, entryOf(a), budget, counts);
        push(path, f, text, oldCursor.get(path) ?? (await snapshot.read(path))?.toString('utf8'), fitted);
      }
      for (const [p, t] of [...oldCursor].sort()) if (!want.has(p)) push(p, f, null, t);
      continue;
    }
    if (f === 'copilot') {
      const want = new Set<string>();
      for (const a of arts.filter(scoped)) {
        const path = `${INSTRUCTIONS_DIR}/${fileNameForId(a.id)}.instructions.md`;
        want.add(path);
        const { text, fitted } = await wholeFile([`applyTo: ${yamlString(globsFor(a, dirs).include.join(','))}`], entryOf(a), budget, counts);
        push(path, f, text, oldInstr.get(path) ?? (await snapshot.read(path))?.toString('utf8'), fitted);
      }
      for (const [p, t] of [...oldInstr].sort()) if (!want.has(p)) push(p, f, null, t);
      const unscoped = arts.filter((a) => !scoped(a));
      const extra = want.size ? `Records that apply to particular paths are in \`${INSTRUCTIONS_DIR}/\`.` : '';
      const cur = await sectionText(f);
      const { text, fitted } = await sectionFor('Project norms and decisions', unscoped.map(entryOf), budget, counts, extra);
      push(SECTION_FILES[f]!, f, spliceSection(cur, text), cur, fitted);
      continue;
    }
    const cur = await sectionText(f);
    // AGENTS.md, CLAUDE.md and GEMINI.md carry the same section: fitted once
    whole ??= await sectionFor('Project norms and decisions', arts.map(entryOf), budget, counts);
    const { text, fitted } = whole;
    push(SECTION_FILES[f]!, f, spliceSection(cur, text), cur, fitted);
  }
  return { formats, ids: arts.map((a) => a.id), files, budget };
}

