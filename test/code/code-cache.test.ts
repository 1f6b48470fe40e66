import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';

const temp = () => tempDir('git-ctx-v8-');

/** Load a CommonJS file through the code cache in a fresh process (the cache is written at exit). */
function loadIn(file: string, env: NodeJS.ProcessEnv): unknown {
  const lib = pathToFileURL(path.join(ROOT, 'dist/cache/compile-cache.js')).href;
  const script = `import { requireWithCodeCache } from ${JSON.stringify(lib)};
const m = requireWithCodeCache(${JSON.stringify(file)});
const again = requireWithCodeCache(${JSON.stringify(file)});
console.log(JSON.stringify({ value: m.value, name: m.name(), dep: m.dep(), same: m === again }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

describe('V8 code cache for large CommonJS modules', () => {
  const moduleText = `const path = require('node:path');
const helper = require('./helper.cjs');
module.exports = { value: 42, name: () => path.basename(__filename), dep: () => helper.x };\n`;
  const expected = { value: 42, name: 'big.cjs', dep: 'helped', same: true };
  /** the module (with a dependency of its own) in a fresh directory, and an empty cache home */
  const fixture = () => {
    const src = temp();
    const file = path.join(src, 'big.cjs');
    writeFileSync(file, moduleText);
    writeFileSync(path.join(src, 'helper.cjs'), "exports.x = 'helped';\n");
    return { file, cacheHome: temp() };
  };

  it('loads the module as require would, writes the cache once, then reuses it', () => {
    const { file, cacheHome } = fixture();
    const env = { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '' };

    expect(loadIn(file, env)).toEqual(expected);
    const dir = path.join(cacheHome, 'git-ctx', 'v8');
    const written = readdirSync(dir);
    expect(written).toHaveLength(1);
    const cacheFile = path.join(dir, written[0]!);
    const first = statSync(cacheFile).mtimeMs;

    // accepted: not written again
    expect(loadIn(file, env)).toEqual(expected);
    expect(statSync(cacheFile).mtimeMs).toBe(first);

    // garbage in the cache is rejected by V8, the module still loads, and the cache is rewritten
    writeFileSync(cacheFile, Buffer.alloc(64, 7));
    expect(loadIn(file, env)).toEqual(expected);
    expect(readFileSync(cacheFile).equals(Buffer.alloc(64, 7))).toBe(false);
  });

  it('keys the cache by the file: an edited module is compiled afresh, never served stale', () => {
    const { file, cacheHome } = fixture();
    const env = { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '' };
    expect(loadIn(file, env)).toEqual(expected);
    writeFileSync(file, moduleText.replace('value: 42', 'value: 43, extra: 1'));
    expect(loadIn(file, env)).toEqual({ ...expected, value: 43 });
    expect(readdirSync(path.join(cacheHome, 'git-ctx', 'v8'))).toHaveLength(2);
  });

  it('keeps only the newest few caches of a module (installations and upgrades each have a key)', () => {
    const { file, cacheHome } = fixture();
    const dir = path.join(cacheHome, 'git-ctx', 'v8');
    mkdirSync(dir, { recursive: true });
    const now = Date.now() / 1000;
    for (let i = 0; i < 6; i++) {
      const f = path.join(dir, `big.cjs-old${i}.bin`);
      writeFileSync(f, 'x');
      utimesSync(f, now - 1000 * (i + 1), now - 1000 * (i + 1));
    }
    writeFileSync(path.join(dir, 'other-module.bin'), 'x');
    expect(loadIn(file, { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '' })).toEqual(expected);
    const left = readdirSync(dir).sort();
    expect(left.filter((f) => f.startsWith('big.cjs-'))).toHaveLength(4);
    expect(left).toContain('big.cjs-old0.bin');
    expect(left).not.toContain('big.cjs-old5.bin');
    expect(left).toContain('other-module.bin');
  });

  it('keeps a separate cache per variant, pruned per variant only', () => {
    const { file, cacheHome } = fixture();
    const dir = path.join(cacheHome, 'git-ctx', 'v8');
    const lib = pathToFileURL(path.join(ROOT, 'dist/cache/compile-cache.js')).href;
    const load = (variant: string) => {
      const script = `import { requireWithCodeCache } from ${JSON.stringify(lib)};
console.log(requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(variant)}).value);`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '' } });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('42\n');
    };
    mkdirSync(dir, { recursive: true });
    const now = Date.now() / 1000;
    for (let i = 0; i < 3; i++) {
      const f = path.join(dir, `big.cjs-hook_agent-read.old${i}.bin`);
      writeFileSync(f, 'x');
      utimesSync(f, now - 1000 * (i + 1), now - 1000 * (i + 1));
    }
    load('hook');
    load('for');
    load('for');
    const left = readdirSync(dir).sort();
    expect(left.filter((f) => f.startsWith('big.cjs-hook.'))).toHaveLength(1);
    expect(left.filter((f) => f.startsWith('big.cjs-for.'))).toHaveLength(1);
    // another variant's files are not this variant's to prune
    expect(left.filter((f) => f.startsWith('big.cjs-hook_agent-read.'))).toHaveLength(3);
    load('hook_agent-read');
    expect(readdirSync(dir).filter((f) => f.startsWith('big.cjs-hook_agent-read.'))).toHaveLength(2);
  });

  it('writes nothing with GIT_CTX_NO_CACHE=1', () => {
    const { file, cacheHome } = fixture();
    expect(loadIn(file, { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '1' })).toEqual(expected);
    expect(readdirSync(cacheHome)).toEqual([]);
  });
});
