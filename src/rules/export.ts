// @spec SPEC-RULES-001

import { isInactive } from '../artifacts/in-force.js';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import type { TokenCounter } from '../assemble/tokens.js';
import type { Config } from '../config.js';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';
import type { Snapshot } from '../snapshot/types.js';
import { compilePaths } from '../util/path-set.js';
import { plural } from '../util/plural.js';
import {
  BEGIN_MARKER,
  END_MARKER,
  FILE_FORMATS,
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
import { Counts, fit, roomFor, type Fitted, type Room } from './budget.js';
import { isMetaRecord, recordIndex, relinkText, ruleText, type RecordIndex, type RuleText } from './text.js';

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
  /** export the decision-records meta-record too (default: config `rule_files.include_meta`) */
  includeMeta?: boolean;
  /** the intended content only: the files now are not read (`current` undefined, no removals); what rules verify needs */
  intendedOnly?: boolean;
  /** tokens each file may hold (`rules export --budget`); default: config `rule_files.budget` */
  budget?: number;
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
  /** the record a generated per-record file carries */
  record?: string;
  /** records written in full, shortened to their summary, and left out for the budget */
  ids: string[];
  lowered: string[];
  dropped: string[];
  /** a managed section's bytes, when the file's agent reads only so much of it (the rest of the file counted) */
  room?: number;
}

export interface RulesPlan {
  formats: RuleFormat[];
  /** the records exported, in order */
  ids: string[];
  files: RuleFile[];
  /** tokens each file may hold */
  budget: number;
  /** records left out as the decision-records meta-record */
  meta: string[];
  /** records left out because they are still proposals (status proposed or draft) */
  pending: string[];
}

/**
 * A proposal is not yet a rule: rule files tell agents to follow what they hold, and an agent's
 * own `add --propose` would otherwise steer every agent before a person confirmed it (DEC-081).
 */
const PENDING_STATUSES: ReadonlySet<string> = new Set(['proposed', 'draft']);

/** The records that go into rule files: configured types, active statuses, ordered by type then id. */
export function exportedArtifacts(set: ArtifactSet, config: Config): Artifact[] {
  const types = config.rule_files.types;
  const rank = new Map(types.map((t, i) => [t, i]));
  return set.artifacts
    .filter((a) => a.origin === 'repo' && rank.has(a.type) && !isInactive(a, config))
    .filter((a) => set.byId.get(a.id) === a)
    .sort((a, b) => rank.get(a.type)! - rank.get(b.type)! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A rule file that imports AGENTS.md on a line of its own (`@AGENTS.md`, `@./AGENTS.md`), as Claude Code and Gemini CLI read imports. */
export function importsAgents(text: string): boolean {
  return /^[ \t]*@(?:\.\/)?AGENTS\.md[ \t]*$/m.test(text);
}

/** Whether a folder exists in the working tree: git tracks no empty folder, yet an empty `.cursor/rules/` says which agent the team uses. */
async function folderOnDisk(root: string, dir: string): Promise<boolean> {
  try {
    return (await stat(path.join(root, dir))).isDirectory();
  } catch {
    return false;
  }
}

/** Which formats are present in a snapshot (their file or folder exists; in the work tree, an empty folder counts). */
export async function presentFormats(snapshot: Snapshot): Promise<RuleFormat[]> {
  const out: RuleFormat[] = [];
  for (const f of RULE_FORMATS) {
    for (const p of PRESENCE[f]) {
      const dir = p.endsWith('/') ? p.slice(0, -1) : undefined;
      const hit = dir
        ? (await snapshot.listUnder(dir)).length > 0 || (snapshot.kind === 'worktree' && (await folderOnDisk(snapshot.root, dir)))
        : (await snapshot.read(p)) !== undefined;
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

/**
 * A glob with brace alternatives as the plain globs it stands for (`src/*.{ts,tsx}` →
 * `src/*.ts`, `src/*.tsx`): Cursor, Copilot and Windsurf read their globs as one
 * comma-separated string, so a comma inside braces would split one glob into two broken ones.
 */
export function expandBraces(glob: string, limit = 64): string[] {
  const open = glob.indexOf('{');
  if (open < 0) return [glob];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      if (!commas.length) return [glob];
      const head = glob.slice(0, open);
      const tail = glob.slice(i + 1);
      const cuts = [open, ...commas, i];
      const out: string[] = [];
      for (let k = 0; k + 1 < cuts.length && out.length < limit; k++) for (const x of expandBraces(head + glob.slice(cuts[k]! + 1, cuts[k + 1]) + tail, limit)) if (out.length < limit) out.push(x);
      return out;
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  return [glob];
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

/** What an entry of a record says in every rule file, whatever its folder and heading level. */
interface EntryParts {
  title: string;
  applies: string;
  summary: string;
}

function entryParts(a: Artifact, globs: { include: string[]; exclude: string[] }): EntryParts {
  return { title: oneLine(a.title) || a.id, applies: appliesLine(globs), summary: oneLine(a.summary) };
}

/** One record as a rule-file entry, its links working from the rule file's folder. */
function entryFor(a: Artifact, rt: RuleText, parts: EntryParts, level: string, fromDir: string): Entry {
  const head = `${level} ${a.id}: ${parts.title}`;
  const { applies, summary } = parts;
  const text = relinkText(rt.text, fromDir);
  const pointer = `Full record: \`${a.file}\``;
  const short = [head, [summary, applies].filter(Boolean).join(' '), pointer].filter(Boolean).join('\n\n');
  const full = [head, [rt.summary, applies].filter(Boolean).join(' '), text, pointer].filter(Boolean).join('\n\n');
  return { a, full, short };
}

const INTRO =
  'The norms and decisions below are generated from the project\u2019s records by `git ctx rules export`; ' +
  'edit the records (or run `git ctx new`), not this section. Follow them when changing the code they apply to.';

/** Bytes kept for the line naming the records left out, inside a section's room. */
const LEFT_OUT_LINE = 600;
/** Records a left-out line names (the rest by count). */
const LEFT_OUT_NAMED = 25;

async function sectionFor(title: string, entries: Entry[], budget: number, counts: Counts, extra = '', room?: Room): Promise<{ text: string; fitted: Fitted }> {
  const head = `${BEGIN_MARKER}\n## ${title}\n\n${INTRO}${extra ? ' ' + extra : ''}`;
  const fitted = await fit([head, END_MARKER], entries, budget, counts, room ? room.bytes - LEFT_OUT_LINE : Infinity);
  const parts = [head, ...fitted.parts];
  if (!entries.length) parts.push('No active norms or decisions yet.');
  if (fitted.dropped.length) {
    const named = fitted.dropped.slice(0, LEFT_OUT_NAMED).join(', ') + (fitted.dropped.length > LEFT_OUT_NAMED ? ` and ${fitted.dropped.length - LEFT_OUT_NAMED} more` : '');
    const limit = room && fitted.byRoom ? `${room.bytes} bytes, so that ${room.file} stays within the ${room.limit} characters ${room.tool} reads` : `${budget} tokens`;
    parts.push(`${plural(fitted.dropped.length, 'more record', 'more records')} left out for the budget (${limit}): ${named}. Run \`git ctx show <id>\` to read one, \`git ctx list\` to see them all.`);
  }
  return { text: parts.join('\n\n') + '\n' + END_MARKER, fitted };
}

function yamlString(s: string): string {
  return JSON.stringify(s);
}

function generatedLine(a: Artifact): string {
  return `${GENERATED_PREFIX}${a.id} (${a.file}); edit the record, then run it again -->`;
}

async function wholeFile(frontmatter: string[], e: Entry, budget: number, counts: Counts): Promise<{ text: string; fitted: Fitted }> {
  // no frontmatter at all where the format reads none (a Claude rule that always loads)
  const fm = `${frontmatter.length ? `---\n${frontmatter.join('\n')}\n---\n` : ''}${generatedLine(e.a)}\n`;
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
  const budget = opts.budget ?? config.rule_files.budget;
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
    if (opts.intendedOnly) return new Map<string, string>();
    const entries = listing.filter((e) => e.path.startsWith(dir + '/') && e.path.endsWith(ext) && !e.path.slice(dir.length + 1).includes('/'));
    const texts = await snapshot.readMany(entries.map((e) => e.path));
    const out = new Map<string, string>();
    entries.forEach((e, i) => {
      const t = texts[i]?.toString('utf8');
      if (t !== undefined && isGeneratedFile(t)) out.set(e.path, t);
    });
    return out;
  };
  const sectionText = async (file: string) => (await snapshot.read(file))?.toString('utf8');

  const generated = new Map<RuleFormat, Map<string, string>>();
  for (const [f, spec] of Object.entries(FILE_FORMATS) as [RuleFormat, { dir: string; ext: string }][]) generated.set(f, await generatedIn(spec.dir, spec.ext));

  let formats: RuleFormat[];
  if (opts.inUseOnly) {
    formats = [];
    for (const f of RULE_FORMATS) {
      const section = SECTION_FILES[f];
      if ((generated.get(f)?.size ?? 0) > 0 || (section && findManagedSection((await sectionText(section)) ?? ''))) formats.push(f);
    }
  } else if (opts.formats?.length) formats = [...new Set(opts.formats)];
  else if (config.rule_files.formats.length) {
    const bad = config.rule_files.formats.filter((f) => !(RULE_FORMATS as readonly string[]).includes(f));
    if (bad.length) throw new CtxError('CONFIG', `rule_files.formats names unknown format(s) ${bad.join(', ')}`, { file: `${config.dir}/config.yaml`, hint: `use ${RULE_FORMATS.join(', ')}` });
    formats = config.rule_files.formats as RuleFormat[];
  } else {
    formats = [...new Set<RuleFormat>(['agents', ...(await presentFormats(snapshot))])];
    // a CLAUDE.md or GEMINI.md that only points at AGENTS.md (`@AGENTS.md`, Altinn/altinn-studio)
    // gets AGENTS.md's section through it: a second copy loaded the records twice @decision DEC-129
    for (const f of ['claude', 'gemini'] as const) if (importsAgents((await sectionText(SECTION_FILES[f]!)) ?? '') && !findManagedSection((await sectionText(SECTION_FILES[f]!)) ?? '')) formats = formats.filter((x) => x !== f);
  }
  formats = RULE_FORMATS.filter((f) => formats.includes(f));

  const index: RecordIndex = recordIndex(set.artifacts.filter((a) => a.origin === 'repo'));
  const texts = new Map<string, RuleText>();
  const textOf = (a: Artifact) => {
    let t = texts.get(a.id);
    if (!t) texts.set(a.id, (t = ruleText(a, index)));
    return t;
  };
  const includeMeta = opts.includeMeta ?? config.rule_files.include_meta;
  const meta: string[] = [];
  const pending: string[] = [];
  const arts = exportedArtifacts(set, config).filter((a) => {
    if (a.status !== undefined && PENDING_STATUSES.has(a.status)) {
      pending.push(a.id);
      return false;
    }
    if (includeMeta || !isMetaRecord(a, textOf(a).text)) return true;
    meta.push(a.id);
    return false;
  });
  // a record's globs, title and summary are the same in every format: worked out once each
  const globsOf = new Map<Artifact, { include: string[]; exclude: string[] }>();
  const globs = (a: Artifact) => {
    let g = globsOf.get(a);
    if (!g) globsOf.set(a, (g = globsFor(a, dirs)));
    return g;
  };
  const partsOf = new Map<Artifact, EntryParts>();
  const parts = (a: Artifact) => {
    let p = partsOf.get(a);
    if (!p) partsOf.set(a, (p = entryParts(a, globs(a))));
    return p;
  };
  const entries = new Map<string, Entry>();
  const entryOf = (a: Artifact, fromDir: string, level = '###') => {
    const key = `${fromDir}\0${level}\0${a.id}`;
    let e = entries.get(key);
    if (!e) entries.set(key, (e = entryFor(a, textOf(a), parts(a), level, fromDir)));
    return e;
  };
  const files: RuleFile[] = [];
  const push = (path: string, format: RuleFormat, content: string | null, current: string | undefined, fitted?: Fitted, record?: string, room?: Room) => {
    const line = current === undefined ? undefined : (findManagedSection(current)?.line ?? 1);
    const file: RuleFile = { path, format, content, current, changed: content !== (current ?? null), line, record, ids: fitted?.ids ?? [], lowered: fitted?.lowered ?? [], dropped: fitted?.dropped ?? [] };
    if (room) file.room = room.bytes;
    files.push(file);
  };
  const limits = config.rule_files.limits;
  const scoped = (a: Artifact) => globs(a).include.length > 0;
  const description = (a: Artifact) => yamlString(`${a.id}: ${parts(a).title}${a.summary ? ' \u2014 ' + parts(a).summary : ''}`);
  /** globs for a format that reads one comma-separated string: brace alternatives spelled out */
  const commaGlobs = (a: Artifact) => [...new Set(globs(a).include.flatMap((g) => expandBraces(g)))].join(',');

  /** One generated file per record (and removal of generated files no record wants any more). */
  const perRecord = async (f: RuleFormat, recs: Artifact[], frontmatter: (a: Artifact) => string[]) => {
    const { dir, ext } = FILE_FORMATS[f]!;
    const old = generated.get(f)!;
    const want = new Set<string>();
    for (const a of recs) {
      const p = `${dir}/${fileNameForId(a.id)}${ext}`;
      want.add(p);
      const { text, fitted } = await wholeFile(frontmatter(a), entryOf(a, dir, '#'), budget, counts);
      push(p, f, text, opts.intendedOnly ? undefined : (old.get(p) ?? (await snapshot.read(p))?.toString('utf8')), fitted, a.id);
    }
    for (const [p, t] of [...old].sort()) if (!want.has(p)) push(p, f, null, t);
  };
  /** A managed section holding the records a per-record format leaves to its always-read file. */
  const restSection = async (f: RuleFormat, file: string, rest: Artifact[], dir: string) => {
    const extra = rest.length < arts.length ? `Records that apply to particular paths are in \`${dir}/\`.` : '';
    const cur = await sectionText(file);
    const fromDir = path.posix.dirname(file);
    const room = roomFor(f, file, cur, limits);
    const { text, fitted } = await sectionFor('Project norms and decisions', rest.map((a) => entryOf(a, fromDir)), budget, counts, extra, room);
    push(file, f, spliceSection(cur, text), cur, fitted, undefined, room);
  };

  // AGENTS.md, CLAUDE.md and GEMINI.md carry the same section, fitted once per room
  const wholeFor = new Map<string, Promise<{ text: string; fitted: Fitted }>>();
  for (const f of formats) {
    switch (f) {
      case 'cursor':
        // Cursor reads globs as one comma-separated string, written unquoted as its own editor does
        await perRecord(f, arts, (a) => {
          const globs = commaGlobs(a);
          return [`description: ${description(a)}`, `globs: ${globs}`, `alwaysApply: ${!globs && a.type === 'norm'}`];
        });
        continue;
      case 'copilot':
        await perRecord(f, arts.filter(scoped), (a) => [`applyTo: ${yamlString(commaGlobs(a))}`]);
        await restSection(f, SECTION_FILES.copilot!, arts.filter((a) => !scoped(a)), INSTRUCTIONS_DIR);
        continue;
      case 'claude-rules':
        // Claude Code loads a rule without `paths` on every request: those records go to CLAUDE.md's section instead, fitted to the budget
        await perRecord(f, arts.filter(scoped), (a) => ['paths:', ...globs(a).include.map((g) => `  - ${yamlString(g)}`)]);
        await restSection(f, SECTION_FILES.claude!, arts.filter((a) => !scoped(a)), FILE_FORMATS[f]!.dir);
        continue;
      case 'kiro':
        // one pattern as a string, several as a list: Kiro matches a comma-separated string as one pattern (it never loads)
        await perRecord(f, arts, (a) => {
          const g = globs(a).include;
          if (g.length) return ['inclusion: fileMatch', `fileMatchPattern: ${g.length === 1 ? yamlString(g[0]!) : `[${g.map(yamlString).join(', ')}]`}`];
          return a.type === 'norm' ? ['inclusion: always'] : ['inclusion: manual'];
        });
        continue;
      case 'windsurf':
        await perRecord(f, arts, (a) => {
          const globs = commaGlobs(a);
          if (globs) return ['trigger: glob', `description: ${description(a)}`, `globs: ${globs}`];
          return a.type === 'norm' ? ['trigger: always_on'] : ['trigger: model_decision', `description: ${description(a)}`];
        });
        continue;
      case 'claude':
        // with claude-rules, CLAUDE.md carries only the records without paths (written there)
        if (formats.includes('claude-rules')) continue;
        break;
      default:
        break;
    }
    const file = SECTION_FILES[f]!;
    const cur = await sectionText(file);
    const room = roomFor(f, file, cur, limits);
    const key = room ? `${room.bytes}\0${room.file}` : '';
    let whole = wholeFor.get(key);
    if (!whole) wholeFor.set(key, (whole = sectionFor('Project norms and decisions', arts.map((a) => entryOf(a, '.')), budget, counts, '', room)));
    const { text, fitted } = await whole;
    push(file, f, spliceSection(cur, text), cur, fitted, undefined, room);
  }
  return { formats, ids: arts.map((a) => a.id), files, budget, meta, pending };
}
