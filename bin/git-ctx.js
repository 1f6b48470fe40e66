#!/usr/bin/env node
// CommonJS (bin/package.json): an ES module entry point makes Node set up its ES module loader
// and import each builtin through it before any work is done, ~5-10 ms of every run (DEC-038).
'use strict';

// Piping into a reader that stops early (`git ctx list | head`) closes stdout: end quietly,
// as other Unix tools do, instead of printing a stack for EPIPE. Attached when a stream is
// first used, not here: creating process.stdout on a pipe loads net and the streams, which a
// run writing through its descriptor (src/util/stdio.ts) never needs (DEC-038).
const quietOnEpipe = (stream) => {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
};
/** Whether process.stdout or process.stderr was created (written through a stream, not the descriptor). */
let streamsUsed = false;
for (const name of ['stdout', 'stderr']) {
  const d = Object.getOwnPropertyDescriptor(process, name);
  if (!d || !d.get || !d.configurable) {
    streamsUsed = true;
    quietOnEpipe(process[name]);
    continue;
  }
  let guarded = false;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: d.enumerable,
    get() {
      const stream = d.get.call(process);
      if (!guarded) {
        guarded = true;
        streamsUsed = true;
        quietOnEpipe(stream);
      }
      return stream;
    },
  });
}

// `git ctx --version` alone needs no command table: answer before loading the CLI (DEC-025)
const only = process.argv.length === 3 ? process.argv[2] : undefined;
if (only === '--version' || only === '-V') {
  // package.json as dist/version.js reads it, without the ES module loader that importing it would set up
  let version = '0.0.0';
  try {
    version = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8')).version;
  } catch {
    /* as dist/version.js: an unreadable package.json reads as 0.0.0 */
  }
  process.stdout.write(`${version}\n`);
} else {
  loadCli().then((cli) =>
    cli.main(process.argv).then((code) => {
      process.exitCode = code;
      // A bundle whose main resolves only when all its work is done (exitWhenDone: the hook,
      // for, trace, search) ends here rather than through Node's teardown of the heap, ~5 ms
      // (DEC-041): only when every byte went out through the descriptors (written
      // synchronously), never through a stream that could still hold some.
      if (cli.exitWhenDone === true && !streamsUsed) process.exit(code);
    }),
  );
}

/**
 * The CLI from dist/cli.cjs (one CommonJS file, scripts/build-cli-bundle.mjs) through V8's
 * code cache, one cache per command: Node 20 caches no compiled code for ES modules, and
 * resolving, reading and compiling ~90 of them was a third of a warm `git ctx for`
 * (DEC-031). The ES modules of dist/ serve when the bundle is missing, older than the last
 * tsc build (dist/cli/main.js), or GIT_CTX_BUNDLE=0.
 */
async function loadCli() {
  if (process.env.GIT_CTX_BUNDLE !== '0') {
    const fs = require('node:fs');
    const path = require('node:path');
    let tscAt;
    const built = (name) => {
      try {
        const st = fs.statSync(path.join(__dirname, '..', 'dist', name));
        tscAt ??= fs.statSync(path.join(__dirname, '..', 'dist', 'cli', 'main.js')).mtimeMs;
        return st.mtimeMs < tscAt ? undefined : st;
      } catch {
        return undefined;
      }
    };
    // exactly `git ctx hook agent-read` (run on every file an agent reads): the hook's own
    // bundle, without the command table and the other commands (DEC-041); its main takes the
    // same argv. Anything more (--help, other arguments) is the full CLI's.
    // A command with a bundle of its own as the first argument (dist/cli-<command>.cjs, built
    // from src/cli/only/<command>.ts for the commands scripts/build-cli-bundle.mjs lists; the
    // full CLI registers only the command it runs too, so the two answer alike).
    const hookOnly = process.argv.length === 4 && process.argv[2] === 'hook' && process.argv[3] === 'agent-read';
    const own = hookOnly ? 'hook-agent-read.cjs' : /^[a-z]+$/.test(process.argv[2] ?? '') ? `cli-${process.argv[2]}.cjs` : undefined;
    let bundle = path.join(__dirname, '..', 'dist', 'cli.cjs');
    let st = own ? built(own) : undefined;
    if (st) bundle = path.join(__dirname, '..', 'dist', own);
    else st = built('cli.cjs');
    if (st) {
      // code compiled through vm.Script has no import() of its own in Node 20: lend it ours
      // (the bundle's import() of packages and builtins goes through this)
      globalThis[Symbol.for('git-ctx.import')] = (specifier) => import(specifier);
      return requireWithCodeCache(fs, path, bundle, st, commandOf(process.argv));
    }
  }
  return import('../dist/cli/main.js');
}

/**
 * The command's own code cache for the commands run often (by agents, hooks and people), one
 * shared by the rest, so the number of cache files stays bounded.
 */
function commandOf(argv) {
  const [first, second] = argv.slice(2).filter((a) => !a.startsWith('-'));
  if (first === 'hook' && (second === 'agent-read' || second === 'pre-commit')) return `hook_${second}`;
  return ['for', 'trace', 'search', 'check', 'context', 'show', 'list', 'stale', 'impact', 'mcp'].includes(first) ? first : 'other';
}

/**
 * requireWithCodeCache of src/cache/compile-cache.ts, restated with Node's builtins only:
 * importing that module (and the cache helpers it imports) as ES modules cost more than the
 * rest of this loader. Same directory, key, file names (`cli.cjs-<variant>.<key>.bin`) and
 * pruning (two per variant); test/cli/bundle.test.ts checks both agree.
 */
function requireWithCodeCache(fs, path, file, st, variant) {
  const { createRequire, Module } = require('node:module');
  const vm = require('node:vm');
  // the build keeps the bundle ASCII (scripts/build-cli-bundle.mjs): latin1 skips UTF-8 decoding
  const source = fs.readFileSync(file, 'latin1');
  const base =
    process.env.GIT_CTX_NO_CACHE === '1' ? undefined : process.env.XDG_CACHE_HOME || (process.platform === 'win32' ? process.env.LOCALAPPDATA : undefined) || (homeDir() ? path.join(homeDir(), '.cache') : undefined);
  const dir = base ? path.join(base, 'git-ctx', 'v8') : undefined;
  const prefix = `${path.basename(file, '.js')}-${variant}.`;
  let cacheFile;
  let cachedData;
  // V8 trusts the bytes it is given: a directory another user could write (XDG_CACHE_HOME
  // pointed somewhere shared) is never read nor written; one not there yet is created at exit
  // (as trustedCacheDir in src/cache/compile-cache.ts)
  let exists = false;
  let trusted = true;
  if (dir) {
    try {
      const d = fs.statSync(dir);
      exists = true;
      trusted = process.platform === 'win32' || (d.isDirectory() && d.uid === process.getuid() && (d.mode & 0o002) === 0);
    } catch {
      /* not there yet */
    }
  }
  if (dir && trusted) {
    const key = codeCacheKey(`${file}\0${st.ino}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${process.version}\0${process.arch}`);
    cacheFile = path.join(dir, `${prefix}${key}.bin`);
    try {
      if (exists) cachedData = fs.readFileSync(cacheFile);
    } catch {
      /* first run of this command with this bundle: compiled from source, cache written at exit */
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  script.runInThisContext().call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    process.once('exit', () => {
      // the cache only ever saves time: a read-only home (CI sandboxes) skips it
      try {
        fs.mkdirSync(dir, { recursive: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
        const old = fs
          .readdirSync(dir)
          .filter((f) => f.startsWith(prefix) && f.endsWith('.bin'))
          .map((f) => ({ f: path.join(dir, f), t: fs.statSync(path.join(dir, f)).mtimeMs }))
          .sort((a, b) => b.t - a.t);
        for (const { f } of old.slice(2)) if (f !== cacheFile) fs.rmSync(f, { force: true });
      } catch {
        /* housekeeping */
      }
    });
  }
  return mod.exports;
}

/** codeCacheKey of src/cache/compile-cache.ts (no node:crypto at start-up, DEC-041). */
function codeCacheKey(s) {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let c = 0x85ebca6b;
  for (let i = 0; i < s.length; i++) {
    const k = s.charCodeAt(i);
    a = Math.imul(a ^ k, 0x01000193);
    b = Math.imul(b ^ k, 0x5bd1e995);
    b ^= b >>> 15;
    c = Math.imul(c + k, 0xc2b2ae35);
    c ^= c >>> 13;
  }
  return [a, b, c].map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
}

/** os.homedir(), which on POSIX is $HOME when set, without loading node:os for it. */
function homeDir() {
  return (process.platform !== 'win32' && process.env.HOME) || require('node:os').homedir();
}
