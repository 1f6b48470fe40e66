import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tiktokenCounter } from '../../src/assemble/tokens.js';
import { defaultConfig } from '../../src/config.js';
import { TokenMeter } from '../../src/mcp/tokens.js';
import { hasCountCache, rulesCounter } from '../../src/rules/counter.js';

// Where a token counter may differ from tiktoken's own (Rust) one (DEC-065): in the published
// JavaScript ports, `\s` is JavaScript's whitespace (U+FEFF in, U+0085 out) rather than
// Unicode's White_Space, and gpt-tokenizer 4.0 also loses the tokens that start with a BOM
// ("\uFEFFusing", C#'s first line) when it decodes bytes back to text. The counts below are
// tiktoken's encode_ordinary (as Python's tiktoken gives them); gpt-tokenizer 4.0 gives
// 5, 4, 2, 4, 4 for the first five in o200k_base. Every place that counts tokens — assembly,
// rule files, the MCP server — must give them, so a cheaper counter that is not exact fails here.
const TEXTS = [
  '\uFEFFusing System;\n',
  'x\uFEFFbom',
  '\uFEFF',
  'value \u00851',
  '\u0085.Bar',
  // special-token text is counted as the plain text it is
  '<|endoftext|> and <|fim_prefix|>',
  ' '.repeat(1000) + 'x',
  '\u{1F600}'.repeat(10),
  '日本語のテキスト',
];
const COUNTS: Record<string, number[]> = {
  o200k_base: [3, 3, 1, 5, 3, 14, 10, 10, 6],
  cl100k_base: [3, 4, 1, 5, 3, 14, 10, 20, 8],
};

describe('the token counter is tiktoken’s, exactly', () => {
  for (const [encoding, want] of Object.entries(COUNTS)) {
    it(`assembly's counter, ${encoding}`, { timeout: 30_000 }, async () => {
      expect(await tiktokenCounter(encoding).count(TEXTS)).toEqual(want);
    });

    it(`the MCP server's meter, ${encoding}`, { timeout: 30_000 }, async () => {
      const meter = new TokenMeter(encoding);
      try {
        expect(await meter.count(TEXTS)).toEqual(want);
      } finally {
        meter.dispose();
      }
    });

    it(`the rule files' counter, through its count cache, ${encoding}`, { timeout: 30_000 }, async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'git-ctx-tokens-'));
      execFileSync('git', ['init', '-q'], { cwd: root });
      const config = defaultConfig();
      config.assemble.encoding = encoding;
      // the count cache is what this case is about: on even where a shell turned caches off
      const saved = process.env.GIT_CTX_NO_CACHE;
      delete process.env.GIT_CTX_NO_CACHE;
      try {
        const first = rulesCounter(root, config);
        expect(await first.count(TEXTS)).toEqual(want);
        first.free();
        expect(hasCountCache(root, encoding)).toBe(true);
        // a second process's counter answers from the cache with the same counts
        const second = rulesCounter(root, config);
        expect(await second.count([...TEXTS].reverse())).toEqual([...want].reverse());
        second.free();
      } finally {
        if (saved !== undefined) process.env.GIT_CTX_NO_CACHE = saved;
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
