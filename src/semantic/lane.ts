// @spec SPEC-SEMANTIC-001

import type { ArtifactSet } from '../artifacts/load.js';
import { readVectorPlan, vectorFile } from '../cache/vectors.js';
import { mark } from '../util/timing.js';
import { CtxError } from '../errors.js';
import type { SemanticLane } from '../retrieve/types.js';
import { useEnglishRanks } from '../retrieve/floor.js';
import { DefaultEmbedder, type Embedder } from './embedder.js';
import { GeminiEmbedder } from './providers/gemini.js';
import { OnnxEmbedder } from './providers/onnx.js';
import { OpenAIEmbedder } from './providers/openai.js';
import { recordVectors } from './vectors.js';
import { loadWordTable } from './word-table.js';

/**
 * A word's frequency rank in general English, from the default embedder's word table (shipped
 * with git-ctx, whatever the provider): retrieval's calibrated floor weighs a question's words
 * by it (src/retrieve/floor.ts). Undefined for a word the table does not list, or when the
 * table cannot be read (then every word counts as rare).
 */
function englishRank(word: string): number | undefined {
  try {
    const t = loadWordTable();
    const r = t.row(word);
    return r === undefined ? undefined : t.rank[r];
  } catch {
    return undefined;
  }
}
useEnglishRanks(englishRank);

/** Cosine below this is not a semantic match (config `semantic.threshold`), for model providers. */
export const DEFAULT_THRESHOLD = 0.3;
/**
 * The default embedder's threshold: its cosines (averaged word vectors, common component
 * removed) run lower than a sentence model's; 0.2 measured best on the paraphrase fixture (DEC-016).
 */
export const DEFAULT_EMBEDDER_THRESHOLD = 0.2;
/** Spread scores over [0, 1] (best hit 1)? Measured on the paraphrase fixture: no gain, so off. */
const RELATIVE = false;
export const PROVIDERS = ['default', 'openai', 'gemini', 'onnx', 'off'] as const;

export interface SemanticSettings {
  provider: string;
  threshold: number;
  /** where the provider was chosen */
  from: 'config' | 'env' | 'default';
  /** endpoint of a model provider (GIT_CTX_EMBED_URL over semantic.url) */
  url?: string;
  /** model name, or the onnx model directory (GIT_CTX_EMBED_MODEL over semantic.model) */
  model?: string;
  batchSize?: number;
  timeoutMs?: number;
  retries?: number;
}

type SemanticConfig = { provider?: string; threshold?: number; url?: string; model?: string; batch_size?: number; timeout_ms?: number; retries?: number };

/** Settings from config `semantic:` with the GIT_CTX_EMBED_* variables over it. */
export function semanticSettings(set: Pick<ArtifactSet, 'config'>, env: NodeJS.ProcessEnv = process.env): SemanticSettings {
  const c = (set.config as { semantic?: SemanticConfig }).semantic ?? {};
  const from = env.GIT_CTX_EMBED_PROVIDER ? 'env' : c.provider ? 'config' : 'default';
  const provider = String(env.GIT_CTX_EMBED_PROVIDER || c.provider || 'default').trim();
  const threshold = c.threshold ?? (provider === 'default' ? DEFAULT_EMBEDDER_THRESHOLD : DEFAULT_THRESHOLD);
  const url = env.GIT_CTX_EMBED_URL || c.url;
  const model = env.GIT_CTX_EMBED_MODEL || c.model;
  return {
    provider,
    threshold,
    from,
    ...(url ? { url: String(url) } : {}),
    ...(model ? { model: String(model) } : {}),
    ...(c.batch_size !== undefined ? { batchSize: c.batch_size } : {}),
    ...(c.timeout_ms !== undefined ? { timeoutMs: c.timeout_ms } : {}),
    ...(c.retries !== undefined ? { retries: c.retries } : {}),
  };
}

/** The API key of a provider: GIT_CTX_EMBED_API_KEY, else the provider's usual variable. Environment only. */
export function apiKeyFor(provider: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const usual = provider === 'openai' ? [env.OPENAI_API_KEY] : provider === 'gemini' ? [env.GEMINI_API_KEY, env.GOOGLE_API_KEY] : [];
  return [env.GIT_CTX_EMBED_API_KEY, ...usual].find((k) => k && k.trim())?.trim();
}

/**
 * The embedder a provider name stands for; undefined for `off`. Model providers take their
 * URL, model and bounds from `settings` and their key from the environment; nothing is sent
 * until the first `embed`.
 */
export function embedderFor(
  provider: string,
  from: SemanticSettings['from'] = 'config',
  configFile = '.contextia/config.yaml',
  opts: { settings?: Partial<SemanticSettings>; env?: NodeJS.ProcessEnv; root?: string } = {},
): Embedder | undefined {
  const s = opts.settings ?? {};
  const env = opts.env ?? process.env;
  const where = from === 'env' ? 'GIT_CTX_EMBED_PROVIDER' : 'semantic.provider';
  const bad = (what: string) => (v: number | undefined) => {
    if (v !== undefined && !(Number.isFinite(v) && v >= (what === 'semantic.retries' ? 0 : 1))) throw new CtxError('CONFIG', `${what} must be a ${what === 'semantic.retries' ? 'non-negative' : 'positive'} number, got ${v}`, { file: configFile });
  };
  bad('semantic.batch_size')(s.batchSize);
  bad('semantic.timeout_ms')(s.timeoutMs);
  bad('semantic.retries')(s.retries);
  const remote = { ...(s.url ? { url: s.url } : {}), ...(s.model ? { model: s.model } : {}), batchSize: s.batchSize, timeoutMs: s.timeoutMs, retries: s.retries };
  switch (provider) {
    case 'off':
      return undefined;
    case 'default':
      return new DefaultEmbedder();
    case 'openai':
      return new OpenAIEmbedder({ ...remote, apiKey: apiKeyFor('openai', env) });
    case 'gemini':
      return new GeminiEmbedder({ ...remote, apiKey: apiKeyFor('gemini', env) });
    case 'onnx':
      return new OnnxEmbedder({ model: s.model, root: opts.root ?? process.cwd(), batchSize: s.batchSize });
    default:
      throw new CtxError('CONFIG', `unknown semantic provider ${JSON.stringify(provider)} (${where}): expected ${PROVIDERS.join(', ')}`, from === 'env' ? {} : { file: configFile });
  }
}

/** `openai:text-embedding-3-small`: which embedder produced a score, as results record it. */
export const embedderName = (e: Pick<Embedder, 'provider' | 'model'>) => `${e.provider}:${e.model}`;

/**
 * Slot 5 of retrieval: records similar in meaning to a text, from the record vectors (cached
 * in the vectors cache, embedded on first use) and the query's vector, brute-force
 * cosine. Scores are cosines at or above the threshold.
 */
export class EmbeddingLane implements SemanticLane {
  readonly name: string;
  /** `provider:model`, recorded in every result this lane scored */
  readonly embedder: string;
  constructor(
    private readonly root: string,
    private readonly set: ArtifactSet,
    private readonly model: Embedder,
    private readonly threshold = DEFAULT_THRESHOLD,
    private readonly relative = RELATIVE,
  ) {
    this.name = `${model.provider}/${model.model}`;
    this.embedder = embedderName(model);
  }

  async similar(text: string, ids: readonly string[], limit: number): Promise<{ id: string; score: number }[]> {
    const [qv] = await this.model.embed([text]);
    mark('semantic: query embedded');
    const out = this.planned(qv!, ids, limit) ?? (await this.scored(qv!, ids));
    out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    if (this.relative && out.length) {
      // spread over [0, 1] like the keyword lane (best hit 1): raw cosines of averaged word
      // vectors sit in a narrow band and would add nearly the same to every record
      const best = out[0]!.score;
      const span = best - this.threshold || 1;
      for (const o of out) o.score = Math.max(0, (o.score - this.threshold) / span);
    }
    return out.slice(0, limit);
  }

  /** Every record's cosine at or above the threshold, from the record vectors (embedded when missing). */
  private async scored(qv: Float32Array, ids: readonly string[]): Promise<{ id: string; score: number }[]> {
    const { byId, space } = await recordVectors(this.root, this.set, this.model, { dims: qv.length });
    const q = space.project(qv);
    const out: { id: string; score: number }[] = [];
    for (const id of ids) {
      const v = byId.get(id);
      if (!v) continue;
      const s = space.cosine(q, v);
      if (s >= this.threshold) out.push({ id, score: Math.min(1, s) });
    }
    return out;
  }

  /**
   * The same scores from the vector file's plan for this set (DEC-037): one read, each
   * record's row and divisor stored, one dot product per record; undefined (the caller
   * scores as above) when the set has no key, the file holds no plan for it, the query's
   * length is not the file's, or `ids` are not the set's records in order.
   */
  private planned(qv: Float32Array, ids: readonly string[], limit: number): { id: string; score: number }[] | undefined {
    const arts = this.set.artifacts;
    const file = this.set.key ? vectorFile(this.root, this.model.provider, this.model.model) : undefined;
    if (!file || ids.length !== arts.length) return undefined;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== arts[i]!.id) return undefined;
    const p = readVectorPlan(file, this.set.key!);
    if (!p || p.provider !== this.model.provider || p.model !== this.model.model || p.dims !== qv.length || p.plan.rows.length !== arts.length) return undefined;
    const space = this.model.space([], p.state);
    if (!space.norm) return undefined;
    const q = space.project(qv);
    const { rows, norms } = p.plan;
    const vectors = p.vectors;
    const dims = p.dims;
    // every record's score (NaN: below the threshold), then objects for the best only
    const scores = new Float64Array(rows.length);
    let passing = 0;
    for (let i = 0; i < rows.length; i++) {
      const n = norms[i]!;
      // cosine(q, v) = n > 0 ? dot(q, v) / n : 0 (VectorSpace.norm): the same sum in the same order
      const s = n > 0 ? dotAt(q, vectors, rows[i]! * dims) / n : 0;
      if (s >= this.threshold) {
        scores[i] = Math.min(1, s);
        passing++;
      } else scores[i] = NaN;
    }
    // only records at or above the limit-th best score (ties included) can be among the
    // first `limit` of the sort in similar(): the same answer as sorting all of them
    let bar = -Infinity;
    if (limit > 0 && passing > limit * 4) {
      const all = new Float64Array(passing);
      let k = 0;
      for (let i = 0; i < scores.length; i++) if (scores[i] === scores[i]) all[k++] = scores[i]!;
      all.sort();
      bar = all[passing - limit]!;
    }
    const out: { id: string; score: number }[] = [];
    for (let i = 0; i < scores.length; i++) if (scores[i]! >= bar) out.push({ id: ids[i]!, score: scores[i]! });
    mark('semantic scores from the plan');
    return out;
  }
}

/**
 * `q · vectors[base … base + q.length)`, summed in index order (as `dot` and the spaces'
 * cosine sum it). A function of its own: called once per record, it is optimised after a
 * few hundred calls, where the same loop inline waits for on-stack replacement (measured
 * ~35% faster over 5,000 records in a fresh process).
 */
function dotAt(q: Float32Array, vectors: Float32Array, base: number): number {
  let s = 0;
  for (let d = 0; d < q.length; d++) s += q[d]! * vectors[base + d]!;
  return s;
}

/**
 * The semantic lane the configuration asks for (default: the offline embedder), or undefined
 * when it is off. An unknown provider becomes a lane that fails with the config error, so
 * retrieval still answers from the other lanes and reports why slot 5 did not.
 */
export function semanticLaneFor(root: string, set: ArtifactSet, env: NodeJS.ProcessEnv = process.env): SemanticLane | undefined {
  const s = semanticSettings(set, env);
  let embedder: Embedder | undefined;
  try {
    embedder = embedderFor(s.provider, s.from, `${set.config.dir}/config.yaml`, { settings: s, env, root });
  } catch (e) {
    return { name: s.provider, embedder: s.provider, similar: () => Promise.reject(e instanceof Error ? e : new Error(String(e))) };
  }
  return embedder ? new EmbeddingLane(root, set, embedder, s.threshold) : undefined;
}
