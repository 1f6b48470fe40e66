// @spec SPEC-SEMANTIC-001

import { joinPhrasal } from '../retrieve/phrasal.js';
import { ASCII_WORD_BREAK, splitWords } from '../retrieve/text.js';
import { loadWordTable, type WordTable } from './word-table.js';

/** Something that turns texts into vectors; the cache keys its vectors by provider and model. */
export interface Embedder {
  readonly provider: string;
  readonly model: string;
  readonly dims: number;
  /** texts per call that suit it (model providers: one request); callers may pass more */
  readonly batchSize?: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * Turns stored vectors (all of a repository's records) and a query vector into comparable
   * ones: the default embedder removes the common component estimated over the records.
   * `state` is a space's `state` from earlier over the same records (saved in the vector
   * file), which skips estimating it again.
   */
  space(records: readonly Float32Array[], state?: readonly number[]): VectorSpace;
}

export interface VectorSpace {
  /** a vector ready for cosine: post-processed and unit length (zero when empty) */
  project(v: Float32Array): Float32Array;
  /** cosine of a projected query with a raw record vector (projected on the fly, no allocation) */
  cosine(projectedQuery: Float32Array, v: Float32Array): number;
  /**
   * A record vector's part of `cosine`, computed once for many queries: `cosine(q, v)` is
   * exactly `n > 0 ? dot(q, v) / n : 0` with `n = norm(v)` (the same operations in the same
   * order, so the same number), for a projected query as long as v. Absent: no such split.
   */
  norm?(v: Float32Array): number;
  /** what was estimated from the records (the default embedder: its common component), to save */
  readonly state?: number[];
}

/** SIF weight parameter: a / (a + p(w)), p from the word's GloVe frequency rank (Zipf). */
const SIF_A = 3e-4;
/** The common component is estimated on at most this many records (an even stride). */
const COMPONENT_SAMPLE = 500;
/** Fewer records than this: the common component is not estimated (too noisy). */
const MIN_RECORDS_FOR_COMPONENT = 8;

/** Candidate base forms of a word the table lacks: plurals, -ing, -ed, -ly. */
function variants(w: string): string[] {
  const out: string[] = [];
  if (w.endsWith('ies')) out.push(w.slice(0, -3) + 'y');
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  if (w.endsWith('ing')) out.push(w.slice(0, -3), w.slice(0, -3) + 'e');
  if (w.endsWith('ed')) out.push(w.slice(0, -2), w.slice(0, -1));
  if (w.endsWith('ly')) out.push(w.slice(0, -2));
  return out;
}

/**
 * The offline default: a smooth-inverse-frequency weighted average of GloVe word vectors
 * (identifiers split on camelCase/snake_case), with the records' common component removed.
 * Deterministic: no randomness, fixed iteration counts, the same table everywhere.
 */
export class DefaultEmbedder implements Embedder {
  readonly provider = 'default';
  readonly model = 'glove-6b-100d-sif-1';
  private table?: WordTable;
  private zipf = 0;
  private readonly a: number;
  private readonly minRecords: number;

  constructor(opts: { a?: number; minRecordsForComponent?: number } = {}) {
    this.a = opts.a ?? SIF_A;
    this.minRecords = opts.minRecordsForComponent ?? MIN_RECORDS_FOR_COMPONENT;
  }

  get dims(): number {
    return this.words().dims;
  }

  private words(): WordTable {
    if (!this.table) {
      this.table = loadWordTable();
      this.zipf = Math.log(1.78 * this.table.vocabulary);
    }
    return this.table;
  }

  private row(w: string): number | undefined {
    const t = this.words();
    const r = t.row(w);
    if (r !== undefined) return r;
    for (const v of variants(w)) {
      const x = t.row(v);
      if (x !== undefined) return x;
    }
    return undefined;
  }

  /** One text's raw (un-projected) vector. */
  embedOne(text: string): Float32Array {
    const t = this.words();
    const dims = t.dims;
    const out = new Float32Array(dims);
    let n = 0;
    for (const w of joinPhrasal(splitWords(text, ASCII_WORD_BREAK), (c) => this.row(c) !== undefined)) {
      if (w.length < 2 || w.length > 40) continue;
      const r = this.row(w);
      if (r === undefined) continue;
      const p = 1 / (t.rank[r]! * this.zipf);
      const k = (this.a / (this.a + p)) * t.scale[r]!;
      const vec = t.rowVector(r);
      for (let d = 0; d < dims; d++) out[d]! += k * vec[d]!;
      n++;
    }
    if (n) for (let d = 0; d < dims; d++) out[d]! /= n;
    return out;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((t) => this.embedOne(t)));
  }

  space(records: readonly Float32Array[], state?: readonly number[]): VectorSpace {
    let u: Float32Array | undefined;
    if (state && (state.length === 0 || state.length === this.dims)) u = state.length ? Float32Array.from(state) : undefined;
    else if (records.length >= this.minRecords) {
      const step = Math.max(1, Math.ceil(records.length / COMPONENT_SAMPLE));
      u = firstComponent(step === 1 ? records : records.filter((_, i) => i % step === 0));
    }
    return {
      state: u ? Array.from(u) : [],
      cosine(q, v) {
        let qv: number;
        let vu = 0;
        let vv: number;
        if (u && q.length === v.length && v.length === u.length) {
          // the three dot products in one pass over v (a search scores every record): the
          // same products summed in the same order, so the same numbers as three passes
          qv = 0;
          vv = 0;
          for (let i = 0; i < v.length; i++) {
            const x = v[i]!;
            qv += q[i]! * x;
            vu += x * u[i]!;
            vv += x * x;
          }
        } else {
          qv = dot(q, v);
          vu = u ? dot(v, u) : 0;
          vv = dot(v, v);
        }
        const n2 = vv - vu * vu;
        // q is orthogonal to u, so q·(v − (v·u)u) = q·v
        return n2 > 1e-12 ? qv / Math.sqrt(n2) : 0;
      },
      norm(v) {
        // vu and vv as cosine sums them (each its own sum in index order, whichever branch)
        let vu = 0;
        let vv: number;
        if (u && v.length === u.length) {
          vv = 0;
          for (let i = 0; i < v.length; i++) {
            const x = v[i]!;
            vu += x * u[i]!;
            vv += x * x;
          }
        } else {
          vu = u ? dot(v, u) : 0;
          vv = dot(v, v);
        }
        const n2 = vv - vu * vu;
        return n2 > 1e-12 ? Math.sqrt(n2) : 0;
      },
      project(v) {
        const out = Float32Array.from(v);
        if (u) {
          const k = dot(out, u);
          for (let d = 0; d < out.length; d++) out[d]! -= k * u[d]!;
        }
        return normalise(out);
      },
    };
  }
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function normalise(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v));
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** The first right singular vector of the records (uncentred), by power iteration from a fixed start. */
function firstComponent(rows: readonly Float32Array[]): Float32Array {
  const dims = rows[0]!.length;
  let u: Float32Array = new Float32Array(dims);
  // fixed start: the mean, which is close to the answer for SIF vectors
  for (const r of rows) for (let d = 0; d < dims; d++) u[d]! += r[d]!;
  if (dot(u, u) === 0) u.fill(1);
  normalise(u);
  for (let it = 0; it < 12; it++) {
    const next = new Float32Array(dims);
    for (const r of rows) {
      const k = dot(r, u);
      for (let d = 0; d < dims; d++) next[d]! += k * r[d]!;
    }
    if (dot(next, next) === 0) break;
    u = normalise(next);
  }
  return u;
}

/**
 * Plain cosine, for sentence models whose vectors need no post-processing (every model
 * provider): the query unit length, each record divided by its norm.
 */
export function plainSpace(): VectorSpace {
  return {
    cosine(q, v) {
      const n2 = dot(v, v);
      return n2 > 1e-12 ? dot(q, v) / Math.sqrt(n2) : 0;
    },
    norm(v) {
      const n2 = dot(v, v);
      return n2 > 1e-12 ? Math.sqrt(n2) : 0;
    },
    project(v) {
      return normalise(Float32Array.from(v));
    },
  };
}
