#!/usr/bin/env node
// Builds dist/cli.cjs: the CLI of dist/ (after tsc) as one CommonJS file, which bin/git-ctx.js
// loads through V8's code cache (src/cache/compile-cache.ts). Node 20 keeps no code cache for
// ES modules: a warm `git ctx for <file>` resolved, read and compiled ~90 modules on every run,
// a third of its CPU time (DEC-031). Packages stay external (loaded from node_modules as
// before); commands loaded with import() stay lazy (esbuild wraps each module in an init
// function that runs on first import). `import.meta.url` of each module becomes the URL of its
// own file in dist/, so paths relative to a module (data/, hooks/, workers) resolve as before.
import { build, transform } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const require = createRequire(import.meta.url);

let rewritten = 0;
const metaUrl = {
  name: 'import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + path.sep)) return undefined;
      const text = (await readFile(args.path, 'utf8')).replace(INLINE_REQUIRE, (_m, _q, name) => {
        inlined++;
        return `require('${name}')`;
      });
      const rel = path.relative(dist, args.path).split(path.sep).join('/');
      // import() of a package, a builtin or a computed specifier (hidden from bundlers on
      // purpose) goes through __gitCtxImport: code compiled by vm.Script has no import() of its
      // own in Node 20 (bin/git-ctx.js lends its), and a relative specifier resolves against the
      // module's own file, as it would unbundled. import('./x.js') is bundled by esbuild.
      const contents = text
        .replace(/(^|[^\w$.])import\((?!\s*(['"]\.|\)))/gm, (_m, before) => {
          rewritten++;
          return `${before}__gitCtxImport(${JSON.stringify(rel)}, `;
        })
        .replaceAll('import.meta.url', () => {
          rewritten++;
          return `__gitCtxModuleUrl(${JSON.stringify(rel)})`;
        });
      if (contents.includes('import.meta')) throw new Error(`${rel}: import.meta other than import.meta.url; the CommonJS bundle cannot carry it`);
      return { contents, loader: 'js' };
    });
  },
};

// commander and picomatch load on every run (dispatch, path globs): bundled, so that their code
// is cached with ours. src/ requires them with createRequire(import.meta.url)('…') (cheaper
// than importing CommonJS from ESM); here that becomes a plain require esbuild follows.
const INLINE = ['commander', 'picomatch'];
const INLINE_REQUIRE = new RegExp(`createRequire\\(import\\.meta\\.url\\)\\((['"])(${INLINE.join('|')})\\1\\)`, 'g');
let inlined = 0;
const inline = {
  name: 'inline-packages',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${INLINE.join('|')})$`) }, (args) => ({ path: require.resolve(args.path) }));
  },
};

// Builtins that most runs never use, required at module load by the modules that spawn git
// (and by commander, for executable subcommands): child_process brings net, dgram and the
// stream machinery, ~4 ms of a start-up that spawns nothing (the warm agent-read hook, DEC-038).
// Each is only ever used as `x.name`, which the lazy object serves.
const LAZY = ['node:child_process', 'node:fs/promises', 'node:crypto'];

/**
 * One CommonJS bundle of dist/ from `entry`, written to dist/`out`. `inlineNames`: packages
 * that must be bundled in (the CLI's commander and picomatch); the build fails if they are not.
 */
async function bundle(entry, out, inlineNames) {
  const rewrittenBefore = rewritten;
  inlined = 0;
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: `dist/${out}`,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    banner: {
      js: [
        "'use strict';",
        "const __gitCtxModuleUrl = (rel) => require('node:url').pathToFileURL(require('node:path').join(__dirname, rel)).href;",
        'const __gitCtxImport = (rel, specifier) => {',
        "  const target = /^\\.\\.?\\//.test(specifier) ? new URL(specifier, __gitCtxModuleUrl(rel)).href : specifier;",
        "  const host = globalThis[Symbol.for('git-ctx.import')];",
        '  return host ? host(target) : import(target);',
        '};',
        // builtins loaded on first use (LAZY below): a property read on the object loads the module
        'const __gitCtxLazy = (id) => {',
        '  let m;',
        '  return new Proxy({}, { get: (_t, k) => (m ??= require(id))[k] });',
        '};',
        // one default-import view per builtin, not one per importing module (77 of node:path)
        'const __gitCtxEsmViews = new Map();',
        'const __gitCtxEsm = (id) => {',
        '  let v = __gitCtxEsmViews.get(id);',
        '  if (!v) __gitCtxEsmViews.set(id, (v = __toESM(require(id), 1)));',
        '  return v;',
        '};',
      ].join('\n'),
    },
    // readable stack traces in bug reports: names and layout kept
    minify: false,
    legalComments: 'none',
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [inline, metaUrl],
  });
  if (result.warnings.length) {
    console.error(`dist/${out}: esbuild warnings are errors here (see above)`);
    process.exit(1);
  }
  const inputs = Object.keys(result.metafile.inputs);
  const missing = inlineNames.filter((name) => !inputs.some((i) => i.includes(`node_modules/${name}/`)));
  if (inlineNames.length && (missing.length || inlined < inlineNames.length)) {
    console.error(`dist/${out}: ${missing.join(', ') || 'a package'} not bundled (src/cli/commander.ts or src/util/picomatch.ts changed?); update scripts/build-cli-bundle.mjs`);
    process.exit(1);
  }
  let text = await readFile(path.join(dist, out), 'utf8');
  for (const id of LAZY) {
    const direct = new RegExp(`(=\\s*)require\\("${id}"\\);`, 'g');
    const before = text;
    text = text.replace(direct, (_m, eq) => `${eq}__gitCtxLazy("${id}");`);
    if (text === before || text.includes(`require("${id}")`)) {
      console.error(`dist/${out}: ${id} is not required as \`x = require("${id}");\` only; update LAZY in scripts/build-cli-bundle.mjs`);
      process.exit(1);
    }
    // and each binding is only read as `x.name` (a spread, `in` or passing it on would see the empty target)
    for (const [, name] of text.matchAll(new RegExp(`([\\w$]+) = __gitCtxLazy\\("${id}"\\)`, 'g'))) {
      for (const m of text.matchAll(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])(?!\\.)`, 'g'))) {
        const line = text.slice(text.lastIndexOf('\n', m.index) + 1, text.indexOf('\n', m.index));
        if (/^\s*var /.test(line) || line.includes(`${name} = __gitCtxLazy(`)) continue;
        console.error(`dist/${out}: ${name} (${id}) is used other than as ${name}.x: ${line.trim()}; remove ${id} from LAZY`);
        process.exit(1);
      }
    }
  }
  // `import path from 'node:path'` is `__toESM(require("node:path"), 1)` in each of ~80 modules:
  // a fresh object with a getter per export each time. Builtins are never mutated through these
  // views, so one view per builtin serves every module (__toESM is defined before any module runs).
  text = text.replace(/__toESM\(require\("(node:[\w/]+)"\), 1\)/g, (_m, id) => `__gitCtxEsm("${id}")`);
  // ASCII only, so that bin/git-ctx.js reads it as latin1 (a one-byte string without UTF-8
  // decoding: ~2.5 ms less per run, DEC-038). esbuild escapes non-ASCII characters in strings and
  // templates but leaves them in comments and regular expressions: each becomes a \uXXXX escape,
  // which means the same character there (a surrogate pair, in a /u expression, one code point).
  // Proof that the code is unchanged: minified (comments dropped), the original with the same
  // escapes applied afterwards equals the escaped text minified.
  const escapeNonAscii = (s) => s.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const ascii = escapeNonAscii(text);
  if (ascii !== text) {
    const strip = async (code) => (await transform(code, { minifyWhitespace: true, format: 'cjs', platform: 'node', target: 'node20' })).code;
    // (a backslash before the character would turn the escape into a literal `\u…`: refused)
    if (/\\[\u0080-\uffff]/.test(text) || escapeNonAscii(await strip(text)) !== (await strip(ascii))) {
      console.error(`dist/${out}: escaping its non-ASCII characters changed the code; bin/git-ctx.js reads the bundle as latin1`);
      process.exit(1);
    }
    text = ascii;
  }
  await writeFile(path.join(dist, out), text);
  // every import() left must be the helper's own (a bundled module's import() would throw)
  const stray = text.split('\n').filter((l) => /(^|[^\w$.])import\(/.test(l) && !l.includes('host ? host(target) : import(target)'));
  if (stray.length) {
    console.error(`dist/${out}: import() left outside __gitCtxImport:\n  ${stray.join('\n  ')}`);
    process.exit(1);
  }
  const built = result.metafile.outputs[`dist/${out}`];
  console.error(`dist/${out}: ${(built.bytes / 1024).toFixed(0)} KiB from ${Object.keys(result.metafile.inputs).length} modules (${rewritten - rewrittenBefore} import.meta.url and computed import() rewritten)`);
}

/** Commands with a bundle of their own (src/cli/only/<name>.ts); bin/git-ctx.js runs dist/cli-<name>.cjs when it exists. */
const ONLY = ['for', 'trace', 'search'];
await bundle('dist/cli/main.js', 'cli.cjs', INLINE);
// exactly `git ctx hook agent-read`, run on every file an agent reads: its own bundle, a third
// of the CLI's code to load (bin/git-ctx.js picks it; DEC-041)
await bundle('dist/cli/agent-read-hook.js', 'hook-agent-read.cjs', []);
// the one-place and search commands agents run most: each alone (with commander), same reason
for (const name of ONLY) await bundle(`dist/cli/only/${name}.js`, `cli-${name}.cjs`, INLINE);
