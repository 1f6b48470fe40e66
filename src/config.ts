import { isDeepStrictEqual } from 'node:util';
import { CtxError } from './errors.js';
import { memo } from './cache/memo.js';
import { sha256 } from './util/hash.js';
import { loadJsYaml } from './util/js-yaml.js';
import { checkYamlBounds, YAML_LIMITS } from './util/yaml-bounds.js';
import type { Snapshot } from './snapshot/types.js';

export type Severity = 'error' | 'warning' | 'info' | 'off';

export interface TypeConfig {
  /** id prefix used by `git ctx new` (e.g. DEC) */
  prefix: string;
  /** folder under .contextia/ for new files */
  dir: string;
  /** allowed statuses; empty = any */
  statuses: string[];
  /** statuses that count as no longer in force */
  inactive: string[];
}

/** A folder of records read in place (`sources:` in config.yaml). */
export interface SourceConfig {
  /** repository-relative folder, read recursively */
  dir: string;
  /** contextia: YAML frontmatter; adr: decision records without it (Nygard, MADR, log4brains, rst, AsciiDoc, hand-written) */
  format: 'contextia' | 'adr';
  /** id prefix for numbered files (adr; default ADR-): 0048-x.md → ADR-0048 */
  prefix: string;
  /** artifact type of its records (adr; default decision) */
  type: string;
}

/**
 * A folder of records in another repository (`sources:` with `git:`), read at the commit
 * `.contextia/sources.lock` pins (DEC-061).
 */
export interface GitSourceConfig {
  /** how the source is named in messages, files (`~name@commit/…`) and the lock; default: the upstream's base name */
  name: string;
  /** a URL git can fetch, or a path (relative to the repository's top level) */
  git: string;
  /** branch, tag or commit that `git ctx sources update` pins (default: the upstream's HEAD) */
  ref: string;
  /** folder inside the upstream, read recursively ('' for its top level) */
  dir: string;
  format: 'contextia' | 'adr';
  prefix: string;
  type: string;
}

export interface Config {
  /** artifact root inside the repository */
  dir: string;
  /** further folders of records beside `dir` (which is always a source, format contextia) */
  sources: SourceConfig[];
  /** folders of records in other repositories (`sources:` entries with `git:`), pinned by `.contextia/sources.lock` */
  gitSources: GitSourceConfig[];
  /** status text (lower case) → status of the type's vocabulary; merged over the defaults */
  status_map: Record<string, string>;
  types: Record<string, TypeConfig>;
  /** severity overrides by rule id */
  severities: Record<string, Severity>;
  /** findings at or above this severity make `check` exit 1 */
  fail_on: Exclude<Severity, 'off'>;
  /** kind order used by assembly */
  order: string[];
  /** annotation tag names → meaning */
  tags: string[];
  /** include global artifacts from the user's config dir */
  global: boolean;
  assemble: { budget?: number; encoding: string; max_depth?: number; depth: 'meta' | 'summary' | 'full' };
  anchors: { strict_bidirectional: boolean; include: string[]; exclude: string[] };
  /**
   * glob_ignore: files a glob or directory anchor leaves out of its fingerprint (test files
   * by default), unless everything it matches is such a file
   */
  staleness: { proposed_shipped_days: number; glob_ignore: string[]; fail_on?: string };
  hook: { drift: 'warn' | 'block' };
  check: { task_stale_days: number; proposal_unconfirmed_days: number };
  /** bounds on per-file work (SPEC-HOSTILE-001): larger source files are skipped with a finding */
  limits: { max_file_bytes: number };
  /** globs of files no record can govern, beside the built-in ones (lockfiles, generated, vendored, binaries, snapshots): a change's retrieval and the PR report count them, never score them (DEC-060) */
  ungovernable: { paths: string[] };
  /** agents' rule files (`git ctx rules export`; `rules:` is the severities alias): formats (empty = AGENTS.md plus those present), record types, token budget per file, the decision-records meta-record (left out unless true), per-tool character limits of what loads (`rules verify`; defaults in src/rules/limits.ts) */
  rule_files: { formats: string[]; types: string[]; budget: number; include_meta: boolean; limits: Record<string, number> };
  /** per-slot caps of retrieval (`git ctx for|search`), how many link hops slot 3 follows, and whether feedback reorders records within their slot (off by default) */
  retrieval: { declared: number; fused: number; links: number; link_depth: number; feedback_ranking: boolean };
  /** retrieval's semantic slot: embedder (`default` offline word vectors, `openai`, `gemini`, `onnx`, `off`), its endpoint and model, cosine threshold (default per embedder), batching and time bounds of model providers */
  semantic: { provider: string; threshold?: number; url?: string; model?: string; batch_size?: number; timeout_ms?: number; retries?: number; conflict_threshold?: number };
  /** record retrieval episodes in the evidence store (GIT_CTX_NO_RECORD=1 turns it off too) */
  record: boolean;
  /** evidence store retention: episodes kept at most (by count and age; episodes with feedback are always kept) */
  evidence: { max_episodes: number; max_age_days: number };
  /** keys written in config.yaml that we did not recognise (reported, kept) */
  unknownKeys: string[];
  /** set by loadConfig when the repository has no config file: its sources are then detected (applyZeroConfig, src/artifacts/sources/zero-config.ts) */
  noFile?: true;
  /** with no config file: the records folders detected and read, and where they were found (the front ends say so in one line) */
  zeroConfig?: ZeroConfig;
}

/** The records folders a repository without a config file is read from (what `git ctx init` would pin in `sources:`). */
export interface ZeroConfig {
  /** each folder as `sources:` would list it, its record count and what named it (`.adr-dir`, `.log4brains.yml`, `folder name`); `missing`: a named folder with no file in the tree */
  sources: (SourceConfig & { records: number; from: string; missing?: boolean })[];
  /** the distinct `from` of the sources, joined with "and" */
  from: string;
  /** ADR-named files at the top of the repository, which no source reads (topLevelRecords) */
  unreadTop?: string[];
}

const DECISION_STATUSES = ['proposed', 'accepted', 'deprecated', 'superseded', 'rejected'];

/** Documented defaults. Every key here may be overridden in .contextia/config.yaml. */
/** Test files, which a glob anchor leaves out by default (staleness.glob_ignore). */
export const DEFAULT_GLOB_IGNORE: readonly string[] = ['**/*.test.*', '**/*.spec.*', '**/*_test.*', '**/test_*.py', '**/__tests__/**', '**/__snapshots__/**', '**/test/**', '**/tests/**'];

export function defaultConfig(): Config {
  const t = (prefix: string, dir: string, statuses: string[], inactive: string[] = []): TypeConfig => ({ prefix, dir, statuses, inactive });
  return {
    dir: '.contextia',
    sources: [],
    gitSources: [],
    status_map: {},
    types: {
      identity: t('IDENTITY', '', []),
      task: t('TASK', 'work/tasks', ['todo', 'active', 'in_progress', 'blocked', 'done', 'cancelled'], ['done', 'cancelled']),
      spec: t('SPEC', 'system/specs', ['draft', 'active', 'current', 'stable', 'deprecated', 'superseded'], ['deprecated', 'superseded']),
      decision: t('DEC', 'system/rationale', DECISION_STATUSES, ['deprecated', 'superseded', 'rejected']),
      norm: t('NORM', 'system/norms', ['draft', 'active', 'deprecated', 'superseded'], ['deprecated', 'superseded']),
      principle: t('PRIN', 'docs/principles', [], []),
      concept: t('CONCEPT', 'docs/concepts', [], []),
      policy: t('POLICY', 'docs/policies', [], []),
      procedure: t('PROC', 'docs/procedures', [], []),
      design: t('DESIGN', 'docs/design', [], []),
    },
    severities: {},
    fail_on: 'error',
    order: ['identity', 'task', 'spec', 'norm', 'decision', 'principle', 'concept', 'policy', 'procedure', 'design'],
    // adr: teams with a records folder write `@adr 5` (DEC-093)
    tags: ['spec', 'decision', 'norm', 'task', 'adr'],
    global: false,
    assemble: { encoding: 'o200k_base', depth: 'full' },
    anchors: { strict_bidirectional: false, include: [], exclude: ['node_modules/**', 'dist/**', 'vendor/**'] },
    staleness: { proposed_shipped_days: 90, glob_ignore: [...DEFAULT_GLOB_IGNORE] },
    hook: { drift: 'warn' },
    check: { task_stale_days: 30, proposal_unconfirmed_days: 14 },
    limits: { max_file_bytes: 2 * 1024 * 1024 },
    ungovernable: { paths: [] },
    rule_files: { formats: [], types: ['norm', 'decision'], budget: 8000, include_meta: false, limits: {} },
    retrieval: { declared: 10, fused: 5, links: 3, link_depth: 1, feedback_ranking: false },
    semantic: { provider: 'default' },
    record: true,
    evidence: { max_episodes: 100_000, max_age_days: 180 },
    unknownKeys: [],
  };
}

export const CONFIG_FILE = 'config.yaml';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);

/** Keys of the nested sections that have no default value (so are absent from defaultConfig). */
export const OPTIONAL_KEYS: ReadonlySet<string> = new Set(['assemble.budget', 'assemble.max_depth', 'staleness.fail_on', 'semantic.threshold', 'semantic.url', 'semantic.model', 'semantic.batch_size', 'semantic.timeout_ms', 'semantic.retries', 'semantic.conflict_threshold']);

/** Every key config.yaml accepts: top-level names and `section.key` for the nested sections. */
export function knownConfigKeys(): string[] {
  const d = defaultConfig() as unknown as Record<string, unknown>;
  const keys = ['rules', ...Object.keys(d).filter((k) => k !== 'unknownKeys' && k !== 'gitSources')];
  for (const [k, v] of Object.entries(d)) {
    if (k === 'types' || k === 'severities' || typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    for (const sk of Object.keys(v)) keys.push(`${k}.${sk}`);
  }
  return [...keys, ...OPTIONAL_KEYS];
}

/** Merge a parsed config.yaml over the defaults, validating as it goes. */
export function mergeConfig(raw: unknown, file = '.contextia/config.yaml'): Config {
  const cfg = defaultConfig();
  if (raw === undefined || raw === null) return cfg;
  if (!isRecord(raw)) throw new CtxError('CONFIG', 'config must be a mapping', { file });
  const bad = (msg: string) => new CtxError('CONFIG', msg, { file });
  // YAML true/false, or the same words quoted; anything else (yes, 1, "on") is an error, never silently false
  const bool = (key: string, v: unknown): boolean => {
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw bad(`${key} must be true or false (got ${JSON.stringify(v)})`);
  };
  for (const [k, v] of Object.entries(raw)) {
    switch (k) {
      case 'dir':
        if (typeof v !== 'string') throw bad('dir must be a string');
        cfg.dir = v.replace(/\/+$/, '');
        break;
      case 'sources': {
        const all = parseSources(v, bad);
        cfg.sources = all.filter((x): x is SourceConfig => !('git' in x));
        cfg.gitSources = all.filter((x): x is GitSourceConfig => 'git' in x);
        break;
      }
      case 'status_map':
        if (v === null) break;
        if (!isRecord(v)) throw bad('status_map must be a mapping of status text → status (e.g. adopted: accepted)');
        for (const [from, to] of Object.entries(v)) {
          if (typeof to !== 'string' || !to.trim()) throw bad(`status_map.${from} must name a status (got ${JSON.stringify(to)})`);
          cfg.status_map[from.trim().toLowerCase()] = to.trim();
        }
        break;
      case 'types':
        if (!isRecord(v)) throw bad('types must be a mapping of type name → settings');
        for (const [name, tv] of Object.entries(v)) {
          const base = cfg.types[name] ?? { prefix: name.toUpperCase(), dir: `docs/${name}`, statuses: [], inactive: [] };
          if (tv !== null && !isRecord(tv)) throw bad(`types.${name} must be a mapping`);
          const o = (tv ?? {}) as Record<string, unknown>;
          const list = (key: string): string[] | undefined => {
            if (o[key] === undefined) return undefined;
            if (!Array.isArray(o[key])) throw bad(`types.${name}.${key} must be a list`);
            return (o[key] as unknown[]).map(String);
          };
          cfg.types[name] = {
            prefix: o.prefix === undefined ? base.prefix : String(o.prefix),
            dir: o.dir === undefined ? base.dir : String(o.dir),
            statuses: list('statuses') ?? base.statuses,
            inactive: list('inactive') ?? base.inactive,
          };
        }
        break;
      case 'severities':
      case 'rules':
        if (!isRecord(v)) throw bad(`${k} must be a mapping of rule id → error|warning|info|off`);
        for (const [rule, sev] of Object.entries(v)) {
          if (!SEVERITIES.has(String(sev))) throw bad(`severity for ${rule} must be error, warning, info or off (got ${String(sev)})`);
          cfg.severities[rule] = String(sev) as Severity;
        }
        break;
      case 'fail_on':
        if (!['error', 'warning', 'info'].includes(String(v))) throw bad('fail_on must be error, warning or info');
        cfg.fail_on = String(v) as Config['fail_on'];
        break;
      case 'order':
        if (!Array.isArray(v)) throw bad('order must be a list of types');
        cfg.order = v.map(String);
        break;
      case 'tags':
        if (!Array.isArray(v)) throw bad('tags must be a list of annotation tag names');
        cfg.tags = v.map((x) => String(x).replace(/^@/, ''));
        break;
      case 'global':
        cfg.global = bool('global', v);
        break;
      case 'record':
        cfg.record = bool('record', v);
        break;
      case 'assemble':
      case 'anchors':
      case 'staleness':
      case 'hook':
      case 'limits':
      case 'check':
      case 'rule_files':
      case 'retrieval':
      case 'evidence':
      case 'ungovernable':
      case 'semantic': {
        if (!isRecord(v)) throw bad(`${k} must be a mapping`);
        const target = cfg[k] as unknown as Record<string, unknown>;
        for (const [sk, sv] of Object.entries(v)) {
          const cur = target[sk];
          // reported by the config-unknown-key rule (with a suggestion), and kept
          if (!(sk in target) && !OPTIONAL_KEYS.has(`${k}.${sk}`)) cfg.unknownKeys.push(`${k}.${sk}`);
          if (typeof cur === 'number' || (cur === undefined && /budget|depth|days|threshold|batch_size|timeout_ms|retries/.test(sk))) {
            const n = Number(sv);
            if (!Number.isFinite(n)) throw bad(`${k}.${sk} must be a number`);
            target[sk] = n;
          } else if (typeof cur === 'boolean') target[sk] = bool(`${k}.${sk}`, sv);
          else if (isRecord(cur)) {
            // a name → number mapping (rule_files.limits)
            if (!isRecord(sv)) throw bad(`${k}.${sk} must be a mapping`);
            const m: Record<string, number> = {};
            for (const [mk, mv] of Object.entries(sv)) {
              const n = Number(mv);
              if (!Number.isFinite(n) || n < 0) throw bad(`${k}.${sk}.${mk} must be a number`);
              m[mk] = n;
            }
            target[sk] = m;
          }
          else if (Array.isArray(cur)) {
            if (!Array.isArray(sv)) throw bad(`${k}.${sk} must be a list`);
            target[sk] = sv.map(String);
            if (k === 'ungovernable' && sk === 'paths') checkRepoGlobs(`${k}.${sk}`, sv, bad);
          } else target[sk] = String(sv);
        }
        break;
      }
      default:
        cfg.unknownKeys.push(k);
    }
  }
  return cfg;
}

/** A list of repository-relative globs: strings, not empty, inside the repository. */
function checkRepoGlobs(key: string, v: unknown[], bad: (msg: string) => CtxError): void {
  v.forEach((g, i) => {
    if (typeof g !== 'string' || !g.trim()) throw bad(`${key}[${i}] must be a non-empty glob (got ${JSON.stringify(g)})`);
    if (g.startsWith('/') || g.split('/').includes('..')) throw bad(`${key}[${i}] must be a repository-relative glob (got ${JSON.stringify(g)})`);
    if (g.startsWith('!')) throw bad(`${key}[${i}]: negated globs are not supported (got ${JSON.stringify(g)}); list only what is never governed`);
  });
}

function parseSources(v: unknown, bad: (msg: string) => CtxError): (SourceConfig | GitSourceConfig)[] {
  if (v === null) return [];
  if (!Array.isArray(v)) throw bad('sources must be a list of { dir, format } entries');
  const out: (SourceConfig | GitSourceConfig)[] = [];
  v.forEach((e, i) => {
    const o: Record<string, unknown> = typeof e === 'string' ? { dir: e } : isRecord(e) ? e : {};
    const remote = o.git !== undefined;
    if (remote && (typeof o.git !== 'string' || !o.git.trim())) throw bad(`sources[${i}].git must be a URL or a path of a git repository`);
    // a git source's folder may be the upstream's top level
    if (typeof o.dir !== 'string' || (!remote && !o.dir.trim())) {
      if (!(remote && o.dir === undefined)) throw bad(`sources[${i}].dir must be a ${remote ? 'folder of the upstream repository' : 'repository-relative folder'}`);
    }
    // `.` is a git source's top level; `./x` is `x`
    const written = String(o.dir ?? '').trim();
    const dir = written === '.' ? '' : written.replace(/^\.\//, '').replace(/\/+$/, '');
    if ((!dir && !remote) || dir.startsWith('/') || dir.split('/').includes('..')) throw bad(`sources[${i}].dir must stay inside the repository (got ${JSON.stringify(o.dir)})`);
    const format = o.format === undefined ? 'adr' : String(o.format);
    if (format !== 'adr' && format !== 'contextia') throw bad(`sources[${i}].format must be adr or contextia (got ${JSON.stringify(o.format)})`);
    const keys = remote ? ['git', 'ref', 'name', 'dir', 'format', 'prefix', 'type'] : ['dir', 'format', 'prefix', 'type'];
    for (const k of Object.keys(o)) if (!keys.includes(k)) throw bad(`sources[${i}] has unknown key ${JSON.stringify(k)} (expected ${keys.join(', ')})`);
    const base = { dir, format, prefix: o.prefix === undefined ? 'ADR-' : String(o.prefix), type: o.type === undefined ? 'decision' : String(o.type) } as const;
    if (!remote) {
      out.push(base);
      return;
    }
    const git = String(o.git).trim();
    const name = o.name === undefined ? git.replace(/\/+$/, '').replace(/\.git$/, '').split(/[/\\:]/).pop() || 'source' : String(o.name).trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw bad(`sources[${i}].name must be letters, digits, dots, dashes or underscores (got ${JSON.stringify(name)})`);
    if (out.some((x) => 'git' in x && x.name === name)) throw bad(`sources[${i}]: two git sources are named ${JSON.stringify(name)}; give one a name:`);
    const ref = o.ref === undefined ? 'HEAD' : String(o.ref).trim();
    if (!ref || /\s|^-/.test(ref)) throw bad(`sources[${i}].ref must name a branch, tag or commit (got ${JSON.stringify(o.ref)})`);
    out.push({ name, git, ref, ...base });
  });
  return out;
}

/** Read `.contextia/config.yaml` from a snapshot; defaults when absent. */
export async function loadConfig(snapshot: Snapshot, dir = '.contextia'): Promise<Config> {
  const file = `${dir}/${CONFIG_FILE}`;
  const buf = await snapshot.read(file);
  if (!buf) {
    const c = defaultConfig();
    c.dir = dir;
    // no configuration: the defaults, marked so that loading the records detects the folders
    // `git ctx init` would configure (src/artifacts/sources/zero-config.ts, a layer above)
    c.noFile = true;
    return c;
  }
  const raw = await parseConfigYaml(snapshot.root, buf, file);
  const cfg = mergeConfig(raw, file);
  if (!(raw && typeof raw === 'object' && 'dir' in raw)) cfg.dir = dir;
  return cfg;
}

/**
 * The YAML of a config file, remembered by content in the config memo:
 * a warm run then never loads the YAML parser (js-yaml, ~10 ms of start-up). A value that
 * JSON cannot carry exactly (.inf, .nan) is parsed every time instead.
 */
async function parseConfigYaml(root: string, buf: Buffer, file: string): Promise<unknown> {
  const parsed = memo<unknown>(root, 'config');
  const key = `${CONFIG_CACHE_VERSION}:${sha256(buf)}`;
  const cached = parsed.get(key);
  if (cached !== undefined) return cached;
  // js-yaml rather than eemeli/yaml: the hook's start-up budget cannot afford loading both
  const jsYaml = await loadJsYaml();
  let raw: unknown;
  if (buf.length > YAML_LIMITS.maxBytes) throw new CtxError('CONFIG', `config is ${Math.ceil(buf.length / 1024)} KB; over the ${YAML_LIMITS.maxBytes / 1024} KB bound`, { file, line: 1 });
  const text = buf.toString('utf8');
  try {
    raw = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, filename: file, maxDepth: YAML_LIMITS.maxDepth } as Parameters<typeof jsYaml.load>[1]);
  } catch (e) {
    const err = e as { reason?: string; message: string; mark?: { line: number } };
    throw new CtxError('CONFIG', `invalid YAML: ${err.reason ?? err.message.split('\n')[0]}`, { file, line: (err.mark?.line ?? 0) + 1 });
  }
  // aliases are shared objects after loading; bound what they expand to before anything copies them
  const bound = checkYamlBounds(raw);
  if (!bound.ok) {
    const at = bound.key === undefined ? -1 : text.split('\n').findIndex((l) => l.startsWith(`${bound.key}:`));
    throw new CtxError('CONFIG', `invalid YAML: ${bound.message}`, { file, line: at >= 0 ? at + 1 : 1 });
  }
  // undefined (an empty file) is never remembered: it reads as a miss
  if (raw !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(raw)), raw)) parsed.set(key, raw);
  return raw;
}
const CONFIG_CACHE_VERSION = 2;

/** The type whose prefix matches an id (DEC-… → decision). */
export function typeForId(cfg: Config, id: string): string | undefined {
  let best: string | undefined;
  let len = 0;
  for (const [name, t] of Object.entries(cfg.types)) {
    if (t.prefix && id.startsWith(t.prefix + '-') && t.prefix.length > len) {
      best = name;
      len = t.prefix.length;
    }
  }
  return best;
}
