// @spec SPEC-SEMANTIC-001

import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CtxError } from '../../errors.js';
import { plainSpace, type Embedder, type VectorSpace } from '../embedder.js';
import { clip } from './openai.js';

/** The optional package that runs ONNX models; never a dependency of git-ctx itself. */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';
export const ONNX_INSTALL = `ONNXRUNTIME_NODE_INSTALL=skip npm install ${TRANSFORMERS_PACKAGE}`;

interface Tensor {
  dims: number[];
  data: ArrayLike<number>;
}
type Extractor = (texts: string[], o: { pooling: 'mean'; normalize: boolean }) => Promise<Tensor>;
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(task: 'feature-extraction', model: string, o: { dtype?: string; local_files_only?: boolean }): Promise<Extractor>;
}

/** What a model directory lacks to be loaded, or the ONNX weights' dtype when it has it all. */
export function inspectModelDir(dir: string): { missing: string[]; dtype?: 'fp32' | 'q8' } {
  const missing: string[] = [];
  if (!existsSync(path.join(dir, 'config.json'))) missing.push('config.json');
  if (!existsSync(path.join(dir, 'tokenizer.json'))) missing.push('tokenizer.json');
  let onnx: string[] = [];
  try {
    onnx = readdirSync(path.join(dir, 'onnx'));
  } catch {
    // no onnx/ folder
  }
  const dtype = onnx.includes('model.onnx') ? 'fp32' : onnx.includes('model_quantized.onnx') ? 'q8' : undefined;
  if (!dtype) missing.push('onnx/model.onnx (or onnx/model_quantized.onnx)');
  return dtype ? { missing, dtype } : { missing };
}

/**
 * A local sentence-embedding model directory (Hugging Face layout: config.json,
 * tokenizer.json, onnx/model.onnx) run by transformers.js, mean-pooled and normalised.
 * Nothing is downloaded: remote models are off and the directory must be complete.
 */
export class OnnxEmbedder implements Embedder {
  readonly provider = 'onnx';
  readonly model: string;
  private readonly dir: string;
  readonly batchSize: number;
  private extractor?: Promise<Extractor>;
  private learned = 0;

  /** `model` is the model directory, relative to the repository root or absolute. */
  constructor(opts: { model?: string; root: string; batchSize?: number }) {
    if (!opts.model) throw new CtxError('CONFIG', 'the onnx provider needs a model directory: set semantic.model (or GIT_CTX_EMBED_MODEL) to a folder with config.json, tokenizer.json and onnx/model.onnx');
    this.model = opts.model;
    this.dir = path.resolve(opts.root, opts.model);
    this.batchSize = Math.max(1, Math.floor(opts.batchSize ?? 16));
  }

  get dims(): number {
    return this.learned;
  }

  private async load(): Promise<Extractor> {
    let isDir = false;
    try {
      isDir = statSync(this.dir).isDirectory();
    } catch {
      // absent
    }
    if (!isDir) throw new CtxError('CONFIG', `onnx model directory ${this.dir} does not exist (semantic.model or GIT_CTX_EMBED_MODEL: ${JSON.stringify(this.model)}); models are never downloaded: put the model's files there`);
    const { missing, dtype } = inspectModelDir(this.dir);
    if (missing.length) throw new CtxError('CONFIG', `onnx model directory ${this.dir} is incomplete: missing ${missing.join(', ')} (expected a Hugging Face model folder exported to ONNX)`);
    let mod: TransformersModule;
    try {
      mod = (await import(TRANSFORMERS_PACKAGE)) as TransformersModule;
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new CtxError('CONFIG', `the onnx provider needs the optional package ${TRANSFORMERS_PACKAGE}, which is not installed: install it beside git-ctx with \`${ONNX_INSTALL}\` (CPU only; drop ONNXRUNTIME_NODE_INSTALL=skip for GPU support)`);
      throw new CtxError('CONFIG', `${TRANSFORMERS_PACKAGE} failed to load: ${(e as Error).message}`, { cause: e });
    }
    mod.env.allowRemoteModels = false;
    mod.env.allowLocalModels = true;
    mod.env.localModelPath = path.dirname(this.dir) + path.sep;
    try {
      return await mod.pipeline('feature-extraction', path.basename(this.dir), { dtype: dtype!, local_files_only: true });
    } catch (e) {
      throw new CtxError('CONFIG', `onnx model directory ${this.dir} could not be loaded: ${(e as Error).message}`, { cause: e });
    }
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.extractor ??= this.load();
    const run = await this.extractor.catch((e: unknown) => {
      this.extractor = undefined;
      throw e;
    });
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize).map(clip);
      const t = await run(batch, { pooling: 'mean', normalize: true });
      const [n, d] = t.dims;
      if (n !== batch.length || !d) throw new CtxError('IO', `onnx model ${this.dir} returned a tensor of shape [${t.dims.join(', ')}] for ${batch.length} texts: expected a sentence-embedding (feature-extraction) model`);
      this.learned ||= d;
      for (let j = 0; j < n; j++) out.push(Float32Array.from(Array.prototype.slice.call(t.data, j * d, (j + 1) * d) as number[]));
    }
    return out;
  }

  space(): VectorSpace {
    return plainSpace();
  }
}
