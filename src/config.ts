import { isDeepStrictEqual } from 'node:util';
import { CtxError } from './errors.js';
import { cacheFile as cachePath } from './git/git-dir.js';
import { readKeyedCache, writeKeyedCache } from './util/cache-file.js';
import { sha256 } from './util/hash.js';
import { loadJsYaml } from './util/js-yaml.js';
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

export interface Config {
  /** artifact root inside the repository */
  dir: string;
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
  staleness: { proposed_shipped_days: number };
  hook: { drift: 'warn' | 'block' };
  check: { task_stale_days: number };
  /** per-slot caps of retrieval (`git ctx for|search`) and how many link hops slot 3 follows */
  retrieval: { declared: number; fused: number; links: number; link_depth: number };
  /** retrieval's semantic slot: embedder (`default` offline word vectors, `off`) and cosine threshold (default per embedder) */
  semantic: { provider: string; threshold?: number };
  /** keys written in config.yaml that we did not recognise (reported, kept) */
  unknownKeys: string[];
}

const DECISION_STATUSES = ['proposed', 'accepted', 'deprecated', 'superseded', 'rejected'];

/** Documented defaults. Every key here may be overridden in .contextia/config.yaml. */
export function defaultConfig(): Config {
  const t = (prefix: string, dir: string, statuses: string[], inactive: string[] = []): TypeConfig => ({ prefix, dir, statuses, inactive });
  return {
    dir: '.contextia',
    types: {
      identity: t('IDENTITY', '', []),
      task: t('TASK', 'work/tasks', ['todo', 'active', 'in_progress', 'blocked', 'done', 'cancelled'], ['done', 'cancelled']),
      spec: t('SPEC', 'system/specs', ['draft', 'active', 'stable', 'deprecated', 'superseded'], ['deprecated', 'superseded']),
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
    tags: ['spec', 'decision', 'norm', 'task'],
    global: false,
    assemble: { encoding: 'o200k_base', depth: 'full' },
    anchors: { strict_bidirectional: false, include: [], exclude: ['node_modules/**', 'dist/**', 'vendor/**'] },
    staleness: { proposed_shipped_days: 90 },
    hook: { drift: 'warn' },
    check: { task_stale_days: 30 },
    retrieval: { declared: 10, fused: 5, links: 3, link_depth: 1 },
    semantic: { provider: 'default' },
    unknownKeys: [],
  };
}

export const CONFIG_FILE = 'config.yaml';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);

/** Merge a parsed config.yaml over the defaults, validating as it goes. */
export function mergeConfig(raw: unknown, file = '.contextia/config.yaml'): Config {
  const cfg = defaultConfig();
  if (raw === undefined || raw === null) return cfg;
  if (!isRecord(raw)) throw new CtxError('CONFIG', 'config must be a mapping', { file });
  const bad = (msg: string) => new CtxError('CONFIG', msg, { file });
  for (const [k, v] of Object.entries(raw)) {
    switch (k) {
      case 'dir':
        if (typeof v !== 'string') throw bad('dir must be a string');
        cfg.dir = v.replace(/\/+$/, '');
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
        cfg.global = v === true || v === 'true';
        break;
      case 'assemble':
      case 'anchors':
      case 'staleness':
      case 'hook':
      case 'check':
      case 'retrieval':
      case 'semantic': {
        if (!isRecord(v)) throw bad(`${k} must be a mapping`);
        const target = cfg[k] as unknown as Record<string, unknown>;
        for (const [sk, sv] of Object.entries(v)) {
          const cur = target[sk];
          if (typeof cur === 'number' || (cur === undefined && /budget|depth|days|threshold/.test(sk))) {
            const n = Number(sv);
            if (!Number.isFinite(n)) throw bad(`${k}.${sk} must be a number`);
            target[sk] = n;
          } else if (typeof cur === 'boolean') target[sk] = sv === true || sv === 'true';
          else if (Array.isArray(cur)) {
            if (!Array.isArray(sv)) throw bad(`${k}.${sk} must be a list`);
            target[sk] = sv.map(String);
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

/** Read `.contextia/config.yaml` from a snapshot; defaults when absent. */
export async function loadConfig(snapshot: Snapshot, dir = '.contextia'): Promise<Config> {
  const file = `${dir}/${CONFIG_FILE}`;
  const buf = await snapshot.read(file);
  if (!buf) {
    const c = defaultConfig();
    c.dir = dir;
    return c;
  }
  const raw = await parseConfigYaml(snapshot.root, buf, file);
  const cfg = mergeConfig(raw, file);
  if (!(raw && typeof raw === 'object' && 'dir' in raw)) cfg.dir = dir;
  return cfg;
}

/**
 * The YAML of a config file, remembered by content under `<git-dir>/ctx/cache/config.json`:
 * a warm run then never loads the YAML parser (js-yaml, ~10 ms of start-up). A value that
 * JSON cannot carry exactly (.inf, .nan) is parsed every time instead.
 */
async function parseConfigYaml(root: string, buf: Buffer, file: string): Promise<unknown> {
  const cacheFile = cachePath(root, 'config.json');
  const key = `${CONFIG_CACHE_VERSION}:${sha256(buf)}`;
  const cached = readKeyedCache(cacheFile, key);
  if (cached !== undefined) return cached;
  // js-yaml rather than eemeli/yaml: the hook's start-up budget cannot afford loading both
  const jsYaml = await loadJsYaml();
  let raw: unknown;
  try {
    raw = jsYaml.load(buf.toString('utf8'), { schema: jsYaml.CORE_SCHEMA, filename: file });
  } catch (e) {
    const err = e as { reason?: string; message: string; mark?: { line: number } };
    throw new CtxError('CONFIG', `invalid YAML: ${err.reason ?? err.message.split('\n')[0]}`, { file, line: (err.mark?.line ?? 0) + 1 });
  }
  // undefined (an empty file) is never remembered: it reads as a miss
  if (raw !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(raw)), raw)) writeKeyedCache(cacheFile, key, raw);
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
