import { checkEncoding } from '../assemble/tokens.js';

type Encoder = { encode_ordinary(text: string): Uint32Array; free(): void };

const CACHE_LIMIT = 100_000;

/**
 * Token counts for response budgets, with the same tokenizer and encoding as assembly
 * (src/assemble/tokens.ts, @dqbd/tiktoken). A server is long-lived, so unlike the CLI it
 * keeps one encoder for its whole life (building the o200k table costs ~0.7 s) and
 * remembers counts by text: a warm call re-counts nothing. The encoder is not even
 * loaded while everything fits by the byte bound (a token covers at least one UTF-8
 * byte), which is the common case for small repositories.
 */
export class TokenMeter {
  private encoder: Promise<Encoder> | undefined;
  private readonly counts = new Map<string, number>();

  constructor(readonly encoding: string) {
    checkEncoding(encoding);
  }

  /** An upper bound that needs no tokenizer: the UTF-8 byte length. */
  static upperBound(text: string): number {
    return Buffer.byteLength(text, 'utf8');
  }

  /** Exact counts, cached by text. */
  async count(texts: string[]): Promise<number[]> {
    const res = new Array<number>(texts.length);
    let enc: Encoder | undefined;
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i]!;
      let n = this.counts.get(t);
      if (n === undefined) {
        enc ??= await this.load();
        n = enc.encode_ordinary(t).length;
        if (this.counts.size >= CACHE_LIMIT) this.counts.clear();
        this.counts.set(t, n);
      }
      res[i] = n;
    }
    return res;
  }

  /** Exact count of one text. */
  async countOne(text: string): Promise<number> {
    return (await this.count([text]))[0]!;
  }

  private load(): Promise<Encoder> {
    this.encoder ??= import('@dqbd/tiktoken').then(({ get_encoding }) => get_encoding(this.encoding as Parameters<typeof get_encoding>[0]) as Encoder);
    // a failed load (e.g. WASM unavailable) must not poison later calls
    this.encoder.catch(() => (this.encoder = undefined));
    return this.encoder;
  }

  /** Free the encoder's WASM memory. */
  dispose(): void {
    const e = this.encoder;
    this.encoder = undefined;
    void e?.then((x) => x.free()).catch(() => undefined);
  }
}
