// @spec SPEC-RETRIEVE-001

/**
 * The two scoring loops a search runs once per process, over thousands of numbers: BM25
 * over a term's postings and the cosine of the query with every record's vector (DEC-042).
 * Run once, in JavaScript they stay in the interpreter, which boxes every intermediate
 * double (~1.7 MB of garbage for 15,000 postings, ~1 MB for 5,000 cosines) and is slow;
 * here they are a small WebAssembly module assembled below (no build step, no dependency).
 *
 * The results are bit for bit those of the JavaScript loops (searchKeywords, the semantic
 * lane's planned scores, kept as the fallback): the same IEEE double operations in the same
 * order, float32 values widened exactly as JavaScript reads them, and WebAssembly neither
 * fuses nor reorders floating-point operations. GIT_CTX_WASM=0 turns the module off.
 */

/** What the module computes, on arrays it owns. */
export interface ScoringKernels {
  /**
   * Room for `bytes` bytes from offset 0 of the module's memory: its buffer (views made
   * before a call to this may be void), or undefined past MAX_BYTES or when it cannot grow.
   */
  reserve(bytes: number): ArrayBuffer | undefined;
  /**
   * BM25 over one term's postings at `post` (`pairs` × [doc u32, tf u32]):
   * `scores[doc] += w × (tf × k1 / (tf + dens[doc]))`, each document reached for the first
   * time marked in `reached` (u8) and appended to `docs` (u32) after `count` others. Returns
   * the new count, or -1 when a posting names a document ≥ n (a damaged index).
   */
  bm25(post: number, pairs: number, w: number, k1: number, dens: number, scores: number, reached: number, docs: number, count: number, n: number): number;
  /**
   * For each of `n` records: the dot product of the query (`dims` f32 at `q`) with its row
   * (`rows[i]`, u32) of the vectors (f32 at `vecs`), summed in index order, divided by
   * `norms[i]` (f64) when that is above 0, else 0; written to `out` (f64).
   */
  cosines(q: number, vecs: number, rows: number, norms: number, n: number, dims: number, out: number): void;
}

/**
 * Every planned record's cosine with the query (see ScoringKernels.cosines) computed in the
 * kernel, or undefined when there is none or its memory cannot hold the vectors.
 */
export function planCosines(q: Float32Array, vectors: Float32Array, rows: Uint32Array, norms: Float64Array, dims: number, kernels = scoringKernels()): Float64Array | undefined {
  if (!kernels || q.length !== dims || rows.length !== norms.length) return undefined;
  const n = rows.length;
  const qAt = 0;
  const vAt = (dims * 4 + 7) & ~7;
  const rowsAt = (vAt + vectors.length * 4 + 7) & ~7;
  const normsAt = (rowsAt + n * 4 + 7) & ~7;
  const outAt = normsAt + n * 8;
  const buffer = kernels.reserve(outAt + n * 8);
  if (!buffer) return undefined;
  new Float32Array(buffer, qAt, dims).set(q);
  new Float32Array(buffer, vAt, vectors.length).set(vectors);
  new Uint32Array(buffer, rowsAt, n).set(rows);
  new Float64Array(buffer, normsAt, n).set(norms);
  kernels.cosines(qAt, vAt, rowsAt, normsAt, n, dims, outAt);
  return new Float64Array(buffer.slice(outAt, outAt + n * 8));
}

// ---- a minimal WebAssembly assembler: just what the two functions need ----

const I32 = 0x7f;
const F64 = 0x7c;
const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  i32load: 0x28,
  f32load: 0x2a,
  f64load: 0x2b,
  i32load8u: 0x2d,
  i32store: 0x36,
  f64store: 0x39,
  i32store8: 0x3a,
  i32const: 0x41,
  f64const: 0x44,
  i32eqz: 0x45,
  i32geu: 0x4f,
  f64gt: 0x64,
  i32add: 0x6a,
  i32mul: 0x6c,
  i32and: 0x71,
  i32shl: 0x74,
  f64add: 0xa0,
  f64mul: 0xa2,
  f64div: 0xa3,
  f64fromU32: 0xb8,
  f64fromF32: 0xbb,
  void: 0x40,
} as const;

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** A vector: its length, then its items. */
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
/** A memory access: alignment (log2) and offset 0. */
const mem = (code: number, align: number): number[] => [code, align, 0];
const get = (i: number): number[] => [op.get, i];
const set = (i: number): number[] => [op.set, i];
const i32 = (v: number): number[] => [op.i32const, v & 0x7f]; // small non-negative constants only
const f64zero = [op.f64const, 0, 0, 0, 0, 0, 0, 0, 0];
/** `base + (index << shift)` */
const at = (base: number, index: number, shift: number): number[] => [...get(base), ...get(index), ...i32(shift), op.i32shl, op.i32add];

function bm25Body(): number[] {
  // params: 0 post, 1 pairs, 2 w, 3 k1, 4 dens, 5 scores, 6 reached, 7 docs, 8 count, 9 n
  // locals: 10 i, 11 doc, 12 tf (f64), 13 addr, 14 p
  const [post, pairs, w, k1, dens, scores, reached, docs, count, n, i, doc, tf, addr, p] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
  const code = [
    op.block, op.void,
    op.loop, op.void,
    ...get(i), ...get(pairs), op.i32geu, op.brIf, 1,
    ...at(post, i, 3), ...set(p),
    ...get(p), ...mem(op.i32load, 2), op.tee, doc,
    ...get(n), op.i32geu,
    op.if, op.void, op.i32const, 0x7f /* -1 */, op.return, op.end,
    ...get(p), op.i32load, 2, 4, op.f64fromU32, ...set(tf),
    ...at(scores, doc, 3), op.tee, addr,
    ...get(addr), ...mem(op.f64load, 3),
    ...get(w),
    ...get(tf), ...get(k1), op.f64mul,
    ...get(tf), ...at(dens, doc, 3), ...mem(op.f64load, 3), op.f64add,
    op.f64div,
    op.f64mul,
    op.f64add,
    ...mem(op.f64store, 3),
    ...get(reached), ...get(doc), op.i32add, ...mem(op.i32load8u, 0), op.i32eqz,
    op.if, op.void,
    ...get(reached), ...get(doc), op.i32add, ...i32(1), ...mem(op.i32store8, 0),
    ...at(docs, count, 2), ...get(doc), ...mem(op.i32store, 2),
    ...get(count), ...i32(1), op.i32add, ...set(count),
    op.end,
    ...get(i), ...i32(1), op.i32add, ...set(i),
    op.br, 0,
    op.end,
    op.end,
    ...get(count),
    op.end,
  ];
  return [...vec([[2, I32], [1, F64], [2, I32]]), ...code];
}

function cosinesBody(): number[] {
  // params: 0 q, 1 vecs, 2 rows, 3 norms, 4 n, 5 dims, 6 out
  // locals: 7 i, 8 pv (the row's next float), 9 pq (the query's), 10 qEnd4, 11 qEnd, 12 s (f64), 13 nrm (f64)
  const [q, vecs, rows, norms, n, dims, out, i, pv, pq, qEnd4, qEnd, s, nrm] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  // s = s + q[k] × v[k] for the floats at byte offset `off` of pq and pv (the order JavaScript sums in)
  const term = (off: number): number[] => [...get(s), ...get(pq), op.f32load, 2, off, op.f64fromF32, ...get(pv), op.f32load, 2, off, op.f64fromF32, op.f64mul, op.f64add, ...set(s)];
  const bump = (by: number): number[] => [...get(pq), ...i32(by), op.i32add, ...set(pq), ...get(pv), ...i32(by), op.i32add, ...set(pv)];
  const code = [
    // the query's end, and the end of its whole groups of four floats (the baseline compiler
    // runs this call: fewer instructions per float matter more than in optimised code)
    ...get(q), ...get(dims), ...i32(2), op.i32shl, op.i32add, ...set(qEnd),
    ...get(q), ...get(dims), ...i32(2), op.i32shl, op.i32const, 0x70 /* -16 */, op.i32and, op.i32add, ...set(qEnd4),
    op.block, op.void,
    op.loop, op.void,
    ...get(i), ...get(n), op.i32geu, op.brIf, 1,
    ...get(vecs), ...at(rows, i, 2), ...mem(op.i32load, 2), ...get(dims), op.i32mul, ...i32(2), op.i32shl, op.i32add, ...set(pv),
    ...f64zero, ...set(s),
    ...get(q), ...set(pq),
    op.block, op.void,
    op.loop, op.void,
    ...get(pq), ...get(qEnd4), op.i32geu, op.brIf, 1,
    ...term(0), ...term(4), ...term(8), ...term(12),
    ...bump(16),
    op.br, 0,
    op.end,
    op.end,
    op.block, op.void,
    op.loop, op.void,
    ...get(pq), ...get(qEnd), op.i32geu, op.brIf, 1,
    ...term(0),
    ...bump(4),
    op.br, 0,
    op.end,
    op.end,
    ...at(norms, i, 3), ...mem(op.f64load, 3), ...set(nrm),
    ...at(out, i, 3),
    ...get(nrm), ...f64zero, op.f64gt,
    op.if, F64, ...get(s), ...get(nrm), op.f64div, op.else, ...f64zero, op.end,
    ...mem(op.f64store, 3),
    ...get(i), ...i32(1), op.i32add, ...set(i),
    op.br, 0,
    op.end,
    op.end,
    op.end,
  ];
  return [...vec([[5, I32], [2, F64]]), ...code];
}

/**
 * The module as assembled by kernelModuleBytes, kept as text: assembling it at run time costs
 * ~1 ms of interpreted JavaScript. test/retrieve/kernels.test.ts checks that the two agree;
 * after a change to the assembly, print the new text with
 * `node -e "import('./dist/retrieve/kernels.js').then((m) => console.log(Buffer.from(m.kernelModuleBytes()).toString('base64')))"`.
 */
export const KERNEL_MODULE = 'AGFzbQEAAAABGQJgCn9/fHx/f39/f38Bf2AHf39/f39/fwADAwIAAQUDAQABBxYDAW0CAARibTI1AAAHY29zaW5lcwABCr0DApYBAwJ/AXwCfwJAA0AgCiABTw0BIAAgCkEDdGohDiAOKAIAIgsgCU8EQEF/DwsgDigCBLghDCAFIAtBA3RqIg0gDSsDACACIAwgA6IgDCAEIAtBA3RqKwMAoKOioDkDACAGIAtqLQAARQRAIAYgC2pBAToAACAHIAhBAnRqIAs2AgAgCEEBaiEICyAKQQFqIQoMAAsLIAgLogICBX8CfCAAIAVBAnRqIQsgACAFQQJ0QXBxaiEKAkADQCAHIARPDQEgASACIAdBAnRqKAIAIAVsQQJ0aiEIRAAAAAAAAAAAIQwgACEJAkADQCAJIApPDQEgDCAJKgIAuyAIKgIAu6KgIQwgDCAJKgIEuyAIKgIEu6KgIQwgDCAJKgIIuyAIKgIIu6KgIQwgDCAJKgIMuyAIKgIMu6KgIQwgCUEQaiEJIAhBEGohCAwACwsCQANAIAkgC08NASAMIAkqAgC7IAgqAgC7oqAhDCAJQQRqIQkgCEEEaiEIDAALCyADIAdBA3RqKwMAIQ0gBiAHQQN0aiANRAAAAAAAAAAAZAR8IAwgDaMFRAAAAAAAAAAACzkDACAHQQFqIQcMAAsLCw==';

/** The module's bytes, assembled from the two functions above. */
export function kernelModuleBytes(): Uint8Array {
  const bm25Type = [0x60, ...vec([[I32], [I32], [F64], [F64], [I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([[I32]])];
  const cosType = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([])];
  const bodies = [bm25Body(), cosinesBody()].map((b) => [...uleb(b.length), ...b]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([bm25Type, cosType])),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, 1]])), // one memory, one page to start
    ...section(7, vec([[...name('m'), 0x02, 0], [...name('bm25'), 0x00, 0], [...name('cosines'), 0x00, 1]])),
    ...section(10, [...uleb(bodies.length), ...bodies.flat()]),
  ]);
}

/** The part of the WebAssembly JavaScript API used here (its types are in the DOM library, not Node's). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

/** The most memory the kernels take (addresses stay well inside what an i32 holds). */
const MAX_BYTES = 1 << 30;

let cached: ScoringKernels | null | undefined;

/** The kernels, compiled once per process; undefined where WebAssembly is unavailable or turned off (GIT_CTX_WASM=0). */
export function scoringKernels(env: NodeJS.ProcessEnv = process.env): ScoringKernels | undefined {
  if (env.GIT_CTX_WASM === '0') return undefined;
  if (cached !== undefined) return cached ?? undefined;
  cached = null;
  try {
    const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
    if (!wasm) return undefined;
    const instance = new wasm.Instance(new wasm.Module(Buffer.from(KERNEL_MODULE, 'base64')));
    const x = instance.exports as { m: WasmMemory; bm25: ScoringKernels['bm25']; cosines: ScoringKernels['cosines'] };
    const memory = x.m;
    cached = {
      reserve(bytes) {
        if (!(bytes <= MAX_BYTES)) return undefined;
        const have = memory.buffer.byteLength;
        try {
          if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
        } catch {
          return undefined;
        }
        return memory.buffer;
      },
      bm25: x.bm25,
      cosines: x.cosines,
    };
  } catch {
    cached = null;
  }
  return cached ?? undefined;
}
