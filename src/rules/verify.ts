// @spec SPEC-RULES-001

import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import type { TokenCounter } from '../assemble/tokens.js';
import type { Snapshot } from '../snapshot/types.js';
import { compilePaths } from '../util/path-set.js';
import { picomatch, scanGlob } from '../util/picomatch.js';
import { FILE_FORMATS, SECTION_FILES, isGeneratedFile, type RuleFormat } from './formats.js';
import type { RulesPlan } from './export.js';
import { TOOLS, limitFor, type Tool, type ToolLimit } from './limits.js';

/**
 * `git ctx rules verify`: does each path-scoped rule file load where it should? Each tool
 * reads its scoping field in its own dialect, and a rule it misreads fails silently (the
 * file sits in the repository, the agent never sees it). Here every rule file is read as its
 * tool reads it and matched against the repository's files, beside what its author meant.
 */

/** A frontmatter value as written: a scalar (raw text, quotes included) or a list. */
export type Raw = { scalar: string } | { list: string[] };

/** How one tool reads the field that scopes a rule file (DEC-051 has the sources). */
export interface Dialect {
  tool: Tool;
  format: RuleFormat;
  field: string;
  /** the patterns the tool takes from the field */
  read(v: Raw): string[];
  /** brace alternatives ({ts,tsx}) understood */
  braces: boolean;
  /** matched without regard to case */
  nocase: boolean;
  /** whether the file loads on every request (its other fields decide) */
  always(fm: Map<string, Raw>): boolean;
  /** where the reading is documented */
  source: string;
}

const unquote = (s: string) => s.trim().replace(/^"(.*)"$|^'(.*)'$/, (_m, a?: string, b?: string) => a ?? b ?? '');
const scalar = (v: Raw | undefined) => (v && 'scalar' in v ? v.scalar : undefined);
const listOrNone = (v: Raw) => ('list' in v ? v.list : undefined);

export const DIALECTS: Dialect[] = [
  {
    tool: 'cursor',
    format: 'cursor',
    field: 'globs',
    // one comma-separated string, no quotes or brackets; each piece used as written (a space after a comma is part of the glob)
    read: (v) => listOrNone(v) ?? (v as { scalar: string }).scalar.split(',').filter((g) => g !== ''),
    braces: false,
    nocase: false,
    always: (fm) => scalar(fm.get('alwaysApply'))?.trim() === 'true',
    source: 'cursor.com/docs/rules (globs: comma-separated, no quotes or brackets); brace globs and spaces after commas reported not to match (Cursor forum)',
  },
  {
    tool: 'copilot',
    format: 'copilot',
    field: 'applyTo',
    read: (v) => ('list' in v ? [] : unquote(v.scalar).split(',').map((g) => g.trim()).filter(Boolean)),
    braces: true,
    nocase: true,
    always: () => false,
    source: 'docs.github.com custom instructions (applyTo: comma-separated globs in one string); VS Code matches applyTo ignoring case (microsoft/vscode#274284)',
  },
  {
    tool: 'claude',
    format: 'claude-rules',
    field: 'paths',
    read: (v) => ('list' in v ? v.list : [unquote(v.scalar)]).filter(Boolean),
    braces: true,
    nocase: false,
    always: (fm) => !fm.has('paths'),
    source: 'code.claude.com/docs memory (.claude/rules: paths is a YAML list of globs, brace expansion supported; a rule without paths always loads)',
  },
  {
    tool: 'kiro',
    format: 'kiro',
    field: 'fileMatchPattern',
    // one pattern, or a list; a comma-separated string is one pattern that matches nothing (kirodotdev/Kiro#11095)
    read: (v) => ('list' in v ? v.list : [unquote(v.scalar)]).filter(Boolean),
    braces: true,
    nocase: false,
    always: (fm) => {
      const inc = unquote(scalar(fm.get('inclusion')) ?? 'always');
      return inc === 'always';
    },
    source: 'kiro.dev/docs/steering (inclusion: always | fileMatch | manual; fileMatchPattern a string or an array)',
  },
  {
    tool: 'windsurf',
    format: 'windsurf',
    field: 'globs',
    read: (v) => ('list' in v ? v.list : unquote(v.scalar).split(',').map((g) => g.trim()).filter(Boolean)),
    braces: false,
    nocase: false,
    always: (fm) => unquote(scalar(fm.get('trigger')) ?? '') === 'always_on',
    source: 'docs.windsurf.com Memories & Rules (trigger: always_on | glob | model_decision | manual; globs as one string)',
  },
];

/** Whether a rule file is scoped by its field (rather than always, manual or on the model's decision). */
function isScoped(d: Dialect, fm: Map<string, Raw>): boolean {
  if (d.tool === 'kiro') return unquote(scalar(fm.get('inclusion')) ?? '') === 'fileMatch';
  if (d.tool === 'windsurf') return unquote(scalar(fm.get('trigger')) ?? '') === 'glob';
  if (d.tool === 'cursor') return !d.always(fm) && fm.has('globs') && (scalar(fm.get('globs')) ?? 'x').trim() !== '';
  return fm.has(d.field);
}

/** Frontmatter read line by line, values kept as written: Cursor's is not YAML (`globs: **\/*.ts`). */
export function readFrontmatter(text: string): { fields: Map<string, Raw>; body: string } {
  const fields = new Map<string, Raw>();
  const m = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!m) return { fields, body: text };
  const lines = m[1]!.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const kv = /^([A-Za-z_][\w-]*):[ \t]?(.*)$/.exec(lines[i]!);
    if (!kv) continue;
    const value = kv[2]!.replace(/\s+#.*$/, '');
    if (value.trim() === '' && /^\s+-\s/.test(lines[i + 1] ?? '')) {
      const list: string[] = [];
      while (/^\s+-\s/.test(lines[i + 1] ?? '')) list.push(unquote(lines[++i]!.replace(/^\s+-\s+/, '')));
      fields.set(kv[1]!, { list });
    } else if (/^\s*\[.*\]\s*$/.test(value)) {
      const inner = value.trim().slice(1, -1);
      fields.set(kv[1]!, { list: (inner.match(/"[^"]*"|'[^']*'|[^,]+/g) ?? []).map(unquote).filter(Boolean) });
    } else fields.set(kv[1]!, { scalar: value });
  }
  return { fields, body: text.slice(m[0].length) };
}

/** What the author of a hand-written rule meant: list items, or a string split at commas outside braces, trimmed, `./` dropped. */
export function intendedPatterns(v: Raw): string[] {
  const items = 'list' in v ? v.list : splitTopLevel(unquote(v.scalar));
  return items.map((g) => g.trim().replace(/^\.\//, '')).filter(Boolean);
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** Matching patterns against the repository's files, each (pattern, dialect options) once. */
class Matcher {
  private readonly cache = new Map<string, string[]>();
  private readonly files: string[];
  /** the files by their lower-case form, for tools that ignore case */
  private readonly lowerKeys: string[];
  private readonly lowerFiles: string[];
  constructor(files: string[]) {
    this.files = [...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const lower = this.files.map((file) => ({ key: file.toLowerCase(), file })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.lowerKeys = lower.map((x) => x.key);
    this.lowerFiles = lower.map((x) => x.file);
  }
  /** the files whose (lower-cased) path is the base or below it, found by binary search */
  private under(base: string, nocase: boolean): string[] {
    const keys = nocase ? this.lowerKeys : this.files;
    const all = nocase ? this.lowerFiles : this.files;
    if (!base) return all;
    const from = lowerBound(keys, base);
    const out: string[] = [];
    for (let i = from; i < keys.length && keys[i]!.startsWith(base); i++) if (keys[i] === base || keys[i]![base.length] === '/') out.push(all[i]!);
    return out;
  }
  match(pattern: string, o: { braces: boolean; nocase: boolean; literalDotSlash: boolean }): string[] {
    const key = `${+o.braces}${+o.nocase}${+o.literalDotSlash}\0${pattern}`;
    let hit = this.cache.get(key);
    if (hit) return hit;
    // no tool documents dropping a leading "./": it is part of the pattern, and no path starts with it
    if (o.literalDotSlash && pattern.startsWith('./')) hit = [];
    else {
      const p = pattern.replace(/^\.\//, '');
      const scan = scanGlob(p);
      const base = scan.isGlob ? scan.base : p;
      const candidates = this.under(o.nocase ? base.toLowerCase() : base, o.nocase);
      if (scan.isGlob) {
        const isMatch = picomatch(p, { dot: true, nocase: o.nocase, nobrace: !o.braces });
        hit = candidates.filter((f) => isMatch(f));
      } else hit = candidates;
    }
    this.cache.set(key, hit);
    return hit;
  }
  union(patterns: string[], o: { braces: boolean; nocase: boolean; literalDotSlash: boolean }): Set<string> {
    const s = new Set<string>();
    for (const p of patterns) for (const f of this.match(p, o)) s.add(f);
    return s;
  }
}

function lowerBound(keys: string[], prefix: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export type VerifyKind = 'never-loads' | 'misread' | 'exclusion' | 'scope-differs' | 'over-limit';

export interface VerifyFinding {
  kind: VerifyKind;
  /** errors make `rules verify` exit 1 */
  severity: 'error' | 'warning';
  tool: Tool;
  file?: string;
  record?: string;
  message: string;
}

export interface VerifiedRule {
  file: string;
  tool: Tool;
  format: RuleFormat;
  /** written by git ctx (from a record) or by hand */
  generated: boolean;
  record?: string;
  /** the patterns as the tool reads them */
  patterns: string[];
  /** files the tool would load it for */
  matches: number;
  /** files its author (or its record) means */
  intended: number;
}

export interface ToolCost {
  tool: Tool;
  /** rule files (and sections) loaded on every request */
  alwaysFiles: string[];
  alwaysChars: number;
  alwaysTokens?: number;
  scopedRules: number;
  /** the file that loads the most scoped rules (by characters), with what loads for it on top of the always part */
  heaviest?: { path: string; rules: number; chars: number; tokens?: number };
  limit?: ToolLimit;
}

export interface VerifyReport {
  files: number;
  rules: VerifiedRule[];
  findings: VerifyFinding[];
  costs: ToolCost[];
}

export interface VerifyOptions {
  snapshot: Snapshot;
  set: ArtifactSet;
  /** the export plan: the generated files' intended content */
  plan: RulesPlan;
  /** counts the tokens of what loads; without it, characters only */
  counter?: TokenCounter;
  /** per-tool character limits from config (rule_files.limits) */
  limits?: Record<string, number>;
}

const TOOL_OF: Record<RuleFormat, Tool> = { agents: 'agents', claude: 'claude', gemini: 'gemini', cursor: 'cursor', copilot: 'copilot', 'claude-rules': 'claude', kiro: 'kiro', windsurf: 'windsurf' };

/**
 * Verify the rule files of the plan's formats as they will be after export (generated files
 * as planned, hand-written ones as they are), against the snapshot's files.
 */
export async function verifyRuleFiles(opts: VerifyOptions): Promise<VerifyReport> {
  const { snapshot, set, plan } = opts;
  const ruleDirs = new Set(Object.values(FILE_FORMATS).map((s) => s.dir));
  const listing = (await snapshot.list()).map((e) => e.path);
  // the rule files themselves are not what rules are written for
  const files = listing.filter((p) => !ruleDirs.has(path.posix.dirname(p)));
  const matcher = new Matcher(files);
  const byPath = new Map(plan.files.map((f) => [f.path, f]));
  const byId = set.byId;

  const contents = new Map<string, { text: string; generated: boolean; record?: string; format: RuleFormat; section?: boolean }>();
  for (const f of plan.formats) {
    const spec = FILE_FORMATS[f];
    const section = f === 'claude' && plan.formats.includes('claude-rules') ? undefined : SECTION_FILES[f];
    if (section) {
      const planned = byPath.get(section);
      const text = planned ? planned.content : (await snapshot.read(section))?.toString('utf8');
      if (text) contents.set(section, { text, generated: false, format: f, section: true });
    }
    // the single-file rules Cursor and Windsurf still read on every request
    const legacy = f === 'cursor' ? '.cursorrules' : f === 'windsurf' ? '.windsurfrules' : undefined;
    const legacyText = legacy ? (await snapshot.read(legacy))?.toString('utf8') : undefined;
    if (legacy && legacyText) contents.set(legacy, { text: legacyText, generated: false, format: f, section: true });
    if (!spec) continue;
    if (f === 'claude-rules' && SECTION_FILES.claude) {
      const planned = byPath.get(SECTION_FILES.claude);
      if (planned?.content) contents.set(SECTION_FILES.claude, { text: planned.content, generated: false, format: 'claude', section: true });
    }
    // the files export does not write: hand-written ones (those it writes are in the plan)
    const present = listing.filter((p) => p.startsWith(spec.dir + '/') && p.endsWith(spec.ext) && !p.slice(spec.dir.length + 1).includes('/') && !byPath.has(p));
    const texts = await snapshot.readMany(present);
    present.forEach((p, i) => {
      const t = texts[i]?.toString('utf8');
      if (t !== undefined && !isGeneratedFile(t)) contents.set(p, { text: t, generated: false, format: f });
    });
    for (const pf of plan.files) if (pf.format === f && pf.content !== null && pf.path.startsWith(spec.dir + '/')) contents.set(pf.path, { text: pf.content, generated: true, record: pf.record, format: f });
  }

  const rules: VerifiedRule[] = [];
  const findings: VerifyFinding[] = [];
  const scopes = new Map<string, { format: RuleFormat; set: Set<string> }[]>();
  const costs = new Map<Tool, { always: string[]; scoped: { file: string; chars: number; set: Set<string> }[] }>();
  const cost = (t: Tool) => {
    let c = costs.get(t);
    if (!c) costs.set(t, (c = { always: [], scoped: [] }));
    return c;
  };
  const sample = (s: Iterable<string>) => [...s].slice(0, 3).join(', ');
  // what a record's paths mean, the same for each of its rule files
  const meantOf = new Map<object, { ps: ReturnType<typeof compilePaths>; files: Set<string> }>();

  for (const [file, c] of [...contents].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const tool = TOOL_OF[c.format];
    const dialect = DIALECTS.find((d) => d.format === c.format);
    if (!dialect || c.section) {
      // a section file: read whole on every request
      cost(tool).always.push(file);
      continue;
    }
    const { fields } = readFrontmatter(c.text);
    if (dialect.always(fields)) {
      cost(tool).always.push(file);
      continue;
    }
    if (!isScoped(dialect, fields)) continue;
    const raw = fields.get(dialect.field) ?? { scalar: '' };
    const patterns = dialect.read(raw);
    const got = matcher.union(patterns, { braces: dialect.braces, nocase: dialect.nocase, literalDotSlash: true });
    let meant: Set<string>;
    const rec = c.record ? byId.get(c.record) : undefined;
    if (rec) {
      let m = meantOf.get(rec);
      if (!m) {
        const paths = compilePaths(rec.paths);
        // git-ctx's own reading of paths: a file, a folder (everything below it) or a glob
        meantOf.set(rec, (m = { ps: paths, files: matcher.union(paths.includes.map((e) => e.replace(/\/+$/, '')), { braces: true, nocase: false, literalDotSlash: false }) }));
      }
      const ps = m.ps;
      meant = m.files;
      const excluded = [...got].filter((f) => meant.has(f) && !ps.covers(f));
      if (ps.excludes.length && excluded.length) findings.push({ kind: 'exclusion', severity: 'warning', tool, file, record: rec.id, message: `${file}: ${tool} cannot express the exclusion ${ps.excludes.map((e) => '!' + e).join(', ')} of ${rec.id}; it also loads for ${excluded.length} excluded file(s) (${sample(excluded)})` });
      let list = scopes.get(rec.id);
      if (!list) scopes.set(rec.id, (list = []));
      list.push({ format: c.format, set: got });
    } else meant = matcher.union(intendedPatterns(raw), { braces: true, nocase: false, literalDotSlash: false });
    rules.push({ file, tool, format: c.format, generated: c.generated, record: c.record, patterns, matches: got.size, intended: meant.size });
    cost(tool).scoped.push({ file, chars: c.text.length, set: got });
    const shown = `${dialect.field}: ${JSON.stringify(patterns)}`;
    if (!got.size) {
      findings.push({ kind: 'never-loads', severity: 'error', tool, file, record: c.record, message: `${file} would never load: ${tool} reads ${shown}, which matches no file${meant.size ? ` (meant: ${meant.size} file(s), e.g. ${sample(meant)})` : ''}` });
      continue;
    }
    const missing = [...meant].filter((f) => !got.has(f));
    const extra = [...got].filter((f) => !meant.has(f));
    if (missing.length || extra.length)
      findings.push({
        kind: 'misread',
        severity: 'error',
        tool,
        file,
        record: c.record,
        message: `${file}: ${tool} misreads it as ${shown} and would load it for ${got.size} file(s) instead of ${meant.size}${missing.length ? `; never for ${sample(missing)}` : ''}${extra.length ? `; also for ${sample(extra)}` : ''}`,
      });
  }

  // the same record scoped differently by two formats
  for (const [id, list] of scopes) {
    const first = list[0]!.set;
    const same = (x: Set<string>) => x === first || (x.size === first.size && [...x].every((f) => first.has(f)));
    if (!list.every((x) => same(x.set)))
      findings.push({ kind: 'scope-differs', severity: 'warning', tool: TOOL_OF[list[0]!.format], record: id, message: `${id} loads for different files by format: ${list.map((x) => `${x.format} ${x.set.size}`).join(', ')}` });
  }

  // what each tool loads: always, and at most for one file
  const out: ToolCost[] = [];
  const texts: string[] = [];
  for (const tool of TOOLS) {
    const c = costs.get(tool);
    if (!c) continue;
    const alwaysChars = c.always.reduce((n, f) => n + contents.get(f)!.text.length, 0);
    const perFile = new Map<string, { chars: number; rules: string[] }>();
    for (const s of c.scoped)
      for (const f of s.set) {
        let e = perFile.get(f);
        if (!e) perFile.set(f, (e = { chars: 0, rules: [] }));
        e.chars += s.chars;
        e.rules.push(s.file);
      }
    let heaviest: ToolCost['heaviest'];
    let rulesOf: string[] = [];
    for (const [f, e] of perFile)
      if (!heaviest || e.chars > heaviest.chars || (e.chars === heaviest.chars && f < heaviest.path)) {
        heaviest = { path: f, rules: e.rules.length, chars: e.chars };
        rulesOf = e.rules;
      }
    const limit = limitFor(tool, opts.limits ?? {});
    out.push({ tool, alwaysFiles: c.always, alwaysChars, scopedRules: c.scoped.length, heaviest, limit });
    texts.push(...c.always.map((f) => contents.get(f)!.text), ...rulesOf.map((f) => contents.get(f)!.text));
    if (limit?.of === 'always' && alwaysChars > limit.chars)
      findings.push({ kind: 'over-limit', severity: 'warning', tool, message: `${tool} loads ${alwaysChars} characters on every request (${c.always.join(', ')}), above ${limit.chars}: ${limit.source}` });
    if (limit?.of === 'file')
      for (const f of [...c.always, ...c.scoped.map((s) => s.file)]) {
        const n = contents.get(f)!.text.length;
        if (n > limit.chars) findings.push({ kind: 'over-limit', severity: 'warning', tool, file: f, message: `${f} has ${n} characters, above ${limit.chars}: ${limit.source}` });
      }
  }
  if (opts.counter && texts.length) {
    const uniq = [...new Set(texts)];
    const n = await opts.counter.count(uniq);
    const tokens = new Map(uniq.map((t, i) => [t, n[i]!]));
    for (const o of out) {
      const c = costs.get(o.tool)!;
      o.alwaysTokens = c.always.reduce((s, f) => s + tokens.get(contents.get(f)!.text)!, 0);
      if (o.heaviest) {
        const rulesOf = c.scoped.filter((s) => s.set.has(o.heaviest!.path));
        o.heaviest.tokens = rulesOf.reduce((s, r) => s + tokens.get(contents.get(r.file)!.text)!, 0);
      }
    }
  }
  const order: Record<VerifyKind, number> = { 'never-loads': 0, misread: 1, exclusion: 2, 'scope-differs': 3, 'over-limit': 4 };
  findings.sort((a, b) => order[a.kind] - order[b.kind] || ((a.file ?? a.record ?? '') < (b.file ?? b.record ?? '') ? -1 : 1));
  return { files: files.length, rules, findings, costs: out };
}
