// @spec SPEC-SEMANTIC-001

import type { ArtifactSet } from '../artifacts/load.js';
import { CtxError } from '../errors.js';
import type { SemanticLane } from '../retrieve/types.js';
import { DefaultEmbedder, type Embedder } from './embedder.js';
import { recordVectors } from './vectors.js';

/** Cosine below this is not a semantic match (config `semantic.threshold`), for model providers. */
export const DEFAULT_THRESHOLD = 0.3;
/**
 * The default embedder's threshold: its cosines (averaged word vectors, common component
 * removed) run lower than a sentence model's; 0.2 measured best on the paraphrase fixture (DEC-016).
 */
export const DEFAULT_EMBEDDER_THRESHOLD = 0.2;
/** Spread scores over [0, 1] (best hit 1)? Measured on the paraphrase fixture: no gain, so off. */
const RELATIVE = false;
export const PROVIDERS = ['default', 'off'] as const;

export interface SemanticSettings {
  provider: string;
  threshold: number;
  /** where the provider was chosen */
  from: 'config' | 'env' | 'default';
}

/** Settings from config `semantic:` with `GIT_CTX_EMBED_PROVIDER` over it. */
export function semanticSettings(set: Pick<ArtifactSet, 'config'>, env: NodeJS.ProcessEnv = process.env): SemanticSettings {
  const c = (set.config as { semantic?: Partial<SemanticSettings> }).semantic ?? {};
  const from = env.GIT_CTX_EMBED_PROVIDER ? 'env' : c.provider ? 'config' : 'default';
  const provider = String(env.GIT_CTX_EMBED_PROVIDER || c.provider || 'default').trim();
  const threshold = c.threshold ?? (provider === 'default' ? DEFAULT_EMBEDDER_THRESHOLD : DEFAULT_THRESHOLD);
  return { provider, threshold, from };
}

/** The embedder a provider name stands for; undefined for `off`. */
export function embedderFor(provider: string, from: SemanticSettings['from'] = 'config', configFile = '.contextia/config.yaml'): Embedder | undefined {
  if (provider === 'off') return undefined;
  if (provider === 'default') return new DefaultEmbedder();
  const where = from === 'env' ? 'GIT_CTX_EMBED_PROVIDER' : 'semantic.provider';
  throw new CtxError('CONFIG', `unknown semantic provider ${JSON.stringify(provider)} (${where}): expected ${PROVIDERS.join(' or ')}`, from === 'env' ? {} : { file: configFile });
}

/**
 * Slot 5 of retrieval: records similar in meaning to a text, from the record vectors (cached
 * under .git/ctx/cache/vectors/, embedded on first use) and the query's vector, brute-force
 * cosine. Scores are cosines at or above the threshold.
 */
export class EmbeddingLane implements SemanticLane {
  readonly name: string;
  constructor(
    private readonly root: string,
    private readonly set: ArtifactSet,
    private readonly embedder: Embedder,
    private readonly threshold = DEFAULT_THRESHOLD,
    private readonly relative = RELATIVE,
  ) {
    this.name = `${embedder.provider}/${embedder.model}`;
  }

  async similar(text: string, ids: readonly string[], limit: number): Promise<{ id: string; score: number }[]> {
    const { byId } = await recordVectors(this.root, this.set, this.embedder);
    const space = this.embedder.space([...byId.values()]);
    const [qv] = await this.embedder.embed([text]);
    const q = space.project(qv!);
    const out: { id: string; score: number }[] = [];
    for (const id of ids) {
      const v = byId.get(id);
      if (!v) continue;
      const s = space.cosine(q, v);
      if (s >= this.threshold) out.push({ id, score: Math.min(1, s) });
    }
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
    embedder = embedderFor(s.provider, s.from, `${set.config.dir}/config.yaml`);
  } catch (e) {
    return { name: s.provider, similar: () => Promise.reject(e instanceof Error ? e : new Error(String(e))) };
  }
  return embedder ? new EmbeddingLane(root, set, embedder, s.threshold) : undefined;
}
