#!/usr/bin/env node
// Would a pure-JavaScript token counter do instead of @dqbd/tiktoken (DEC-065)? For each
// candidate installed in a scratch folder (`npm install gpt-tokenizer js-tiktoken` there; never
// in the project), this prints its installed size, the CPU time to load an encoding and count
// one text (a fresh process each time, best of N, Node's compile cache on as the CLI has it),
// and every count that differs from @dqbd/tiktoken's encode_ordinary — the project's counter —
// on a corpus: this repository's tracked text files, the text files of any git directories
// given with --mirror (e.g. the workplace's ADR mirrors), and generated edge cases (whitespace
// and format characters, emoji, CJK, special-token text, long runs).
// Usage: node bench/token-counters.mjs --dir /tmp/candidates [--mirror GITDIR]... [--runs 5] [--per-mirror 500]
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, arg, seeded } from './lib/common.mjs';

const argv = process.argv.slice(2);
const DIR = argv[argv.indexOf('--dir') + 1];
if (!argv.includes('--dir') || !DIR) {
  console.error('usage: node bench/token-counters.mjs --dir FOLDER-WITH-CANDIDATES [--mirror GITDIR]... [--runs N]');
  process.exit(2);
}
const RUNS = arg('--runs', 5);
const PER_MIRROR = arg('--per-mirror', 500);
const mirrors = argv.flatMap((a, i) => (a === '--mirror' ? [argv[i + 1]] : []));
const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'];

// How each library is loaded and asked for encode_ordinary's count (special-token text counted as text).
const CANDIDATES = {
  '@dqbd/tiktoken': { from: ROOT, load: `const { get_encoding } = await import(R('@dqbd/tiktoken')); const e = get_encoding(ENC); count = (t) => e.encode_ordinary(t).length;` },
  'gpt-tokenizer': { from: DIR, load: `const m = await import(R('gpt-tokenizer/encoding/' + ENC)); const o = { disallowedSpecial: new Set() }; count = (t) => m.countTokens(t, o);` },
  'js-tiktoken': { from: DIR, load: `const { Tiktoken } = await import(R('js-tiktoken/lite')); const e = new Tiktoken((await import(R('js-tiktoken/ranks/' + ENC))).default); count = (t) => e.encode(t, [], []).length;` },
};
const resolver = (from) => createRequire(path.join(from, 'noop.js'));
// (their exports maps hide package.json from require.resolve: look for the folder itself)
const pkgDir = (n) => path.join(CANDIDATES[n].from, 'node_modules', n);
const installed = Object.keys(CANDIDATES).filter((n) => existsSync(path.join(pkgDir(n), 'package.json')));
const du = (dir) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) / 1024;

// start-up: a fresh process per run, CPU of the load and the first count
const cache = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-tokens-'));
const probe = (name, enc) => `
  import { createRequire } from 'node:module';
  import { enableCompileCache } from 'node:module';
  enableCompileCache(${JSON.stringify(cache)});
  const req = createRequire(${JSON.stringify(pathToFileURL(path.join(CANDIDATES[name].from, 'noop.js')).href)});
  const R = (s) => ${JSON.stringify('file://')} + req.resolve(s);
  const ENC = ${JSON.stringify(enc)};
  const c0 = process.cpuUsage();
  let count;
  ${CANDIDATES[name].load}
  count('warm up the encoder');
  const c = process.cpuUsage(c0);
  console.log((c.user + c.system) / 1000);`;
const startup = (name, enc) => {
  const cpus = [];
  for (let i = 0; i <= RUNS; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe(name, enc)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
    if (i > 0) cpus.push(Number(r.stdout)); // the first run fills the compile cache
  }
  return Math.min(...cpus);
};

// the corpus
const texts = [];
for (const f of execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n')) {
  try {
    const b = readFileSync(path.join(ROOT, f));
    if (!b.includes(0) && b.length < 2e6) texts.push(b.toString('utf8'));
  } catch {
    // a file deleted in the work tree
  }
}
for (const gd of mirrors) {
  const rows = execFileSync('git', ['--git-dir', gd, 'ls-tree', '-r', '-l', 'HEAD'], { encoding: 'utf8', maxBuffer: 1 << 28 }).trim().split('\n');
  const blobs = rows.map((l) => l.split(/\s+/)).filter((p) => p[1] === 'blob' && Number(p[3]) < 300_000 && /\.(md|rst|txt|ts|tsx|js|rb|py|json|ya?ml|css|html|erb|sh)$/.test(p.slice(4).join(' ')));
  for (const p of blobs.slice(0, PER_MIRROR)) {
    const b = execFileSync('git', ['--git-dir', gd, 'cat-file', 'blob', p[2]], { maxBuffer: 1 << 26 });
    if (!b.includes(0)) texts.push(b.toString('utf8'));
  }
}
const corpusFiles = texts.length;
const edge = ['', ' '.repeat(10_000), '\t'.repeat(3000) + 'x', '\n'.repeat(5000), ' \n '.repeat(2000), '😀'.repeat(500), '👍🏽👨‍👩‍👧‍👦🏳️‍🌈', '日本語と中文와 한국어', '<|endoftext|> <|fim_prefix|><|im_start|>', "I'm it's DON'T", 'x'.repeat(100_000), '\uFEFFusing System;\n', 'a\u0085b \u0085 c', '\uD800 lone'];
const { rand, pick } = seeded(65);
const alphabet = [' ', ' ', '\n', '\t', '\r\n', '\u0085', '\uFEFF', '\u00A0', '\u3000', '\u2028', '\u180E', '\u200B', 'a', 'Bc', '1', '23', '.', "'s", 'é', '😀', '中'];
for (let i = 0; i < 5000; i++) edge.push(Array.from({ length: 1 + Math.floor(rand() * 12) }, () => pick(alphabet)).join(''));
texts.push(...edge);

console.log(`token counters beside @dqbd/tiktoken (the project's) — start-up: CPU of loading an encoding and counting one text, best of ${RUNS} fresh processes`);
console.log(`corpus: ${corpusFiles} files (${(texts.reduce((n, t) => n + t.length, 0) / 1e6).toFixed(1)} M characters) and ${edge.length} edge cases`);
const reference = new Map();
for (const enc of ENCODINGS) {
  const { get_encoding } = await import(pathToFileURL(resolver(ROOT).resolve('@dqbd/tiktoken')).href);
  const e = get_encoding(enc);
  reference.set(enc, texts.map((t) => e.encode_ordinary(t).length));
  e.free();
}
for (const name of installed) {
  console.log(`\n${name}: installed ${du(pkgDir(name)).toFixed(0)} MB; start-up o200k_base ${startup(name, 'o200k_base').toFixed(0)} ms, cl100k_base ${startup(name, 'cl100k_base').toFixed(0)} ms`);
  if (name === '@dqbd/tiktoken') continue;
  for (const enc of ENCODINGS) {
    let count;
    const R = (s) => pathToFileURL(resolver(CANDIDATES[name].from).resolve(s)).href;
    const ENC = enc;
    await new Function('R', 'ENC', 'set', `return (async () => { let count; ${CANDIDATES[name].load} set(count); })()`)(R, ENC, (c) => (count = c));
    const ref = reference.get(enc);
    const bad = [];
    texts.forEach((t, i) => {
      let n;
      try {
        n = count(t);
      } catch (e) {
        n = `error: ${e.message}`;
      }
      if (n !== ref[i]) bad.push(i);
    });
    const chars = new Map();
    for (const i of bad) for (const c of ['\uFEFF', '\u0085']) if (texts[i].includes(c)) chars.set(c, (chars.get(c) ?? 0) + 1);
    const other = bad.filter((i) => !texts[i].includes('\uFEFF') && !texts[i].includes('\u0085'));
    console.log(`  ${enc.padEnd(12)} ${bad.length} of ${texts.length} texts counted differently${bad.length ? ` (with U+FEFF ${chars.get('\uFEFF') ?? 0}, with U+0085 ${chars.get('\u0085') ?? 0}, other ${other.length}${other.length ? ': ' + JSON.stringify(texts[other[0]].slice(0, 60)) : ''})` : ''}`);
  }
}
rmSync(cache, { recursive: true, force: true });
