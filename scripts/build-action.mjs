#!/usr/bin/env node
// Builds action/dist/index.js: one ESM file with every dependency inside, so the Action
// runs on `node20` with no install step. CI rebuilds it and fails on a diff
// (scripts/check-action-dist.sh), so the build must be deterministic: pinned esbuild from the
// lockfile, no timestamps, no absolute paths, no source maps.
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_ID_PLACEHOLDER, outputBuildId } from './build-id.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// Modules the Action must never load: native addons, WASM that is read from disk at import
// time, the embedder and the evidence store. If one becomes reachable from src/action the
// build fails here instead of the Action failing on a runner.
const FORBIDDEN = [/node_modules\/better-sqlite3\//, /node_modules\/libsql\//, /node_modules\/@libsql\//, /node_modules\/@dqbd\/tiktoken\//, /\.node$/, /node_modules\/@huggingface\//, /node_modules\/onnxruntime/];

// src/code loads `ts` from ts-morph. The Action needs only the compiler that ts-morph ships
// (same version, so fingerprints match the CLI's), not ts-morph's project layer (~4 MB).
// A missing named import from this shim fails the build loudly.
const tsMorphShim = {
  name: 'ts-morph-compiler-only',
  setup(b) {
    b.onResolve({ filter: /^ts-morph$/ }, () => ({ path: 'ts-morph-shim', namespace: 'git-ctx-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'git-ctx-shim' }, () => {
      const tsPath = require.resolve('@ts-morph/common/dist/typescript.js', { paths: [path.dirname(require.resolve('ts-morph'))] });
      return { contents: `import ts from ${JSON.stringify(tsPath)};\nexport { ts };\n`, resolveDir: root, loader: 'js' };
    });
  },
};

// src/code loads the compiler with createRequire(import.meta.url)('ts-morph') (cheaper than
// import() of a 9 MB CommonJS module), which a bundler cannot see. In the bundle it becomes a
// plain require('ts-morph') that esbuild follows to the shim above. The rewrite must happen
// exactly where expected, or the build fails: a silently unbundled compiler would only fail
// on a runner, at the first TypeScript file.
let rewrites = 0;
// src/util/picomatch.ts (and the CLI's commander, and src/util/js-yaml.ts's fallback) use the
// same pattern for start-up speed
const LAZY_REQUIRE = /createRequire\(import\.meta\.url\)\((['"])(ts-morph|picomatch|commander|js-yaml)\1\)/g;
const lazyRequire = {
  name: 'bundle-lazy-require',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!LAZY_REQUIRE.test(text)) return undefined;
      LAZY_REQUIRE.lastIndex = 0;
      const contents = text.replace(LAZY_REQUIRE, (_m, _q, name) => {
        rewrites++;
        return `require('${name}')`;
      });
      return { contents, loader: 'ts' };
    });
  },
};

// The decision map inlines cytoscape into its page; the Action has no node_modules to read it
// from, so the bundle carries the library's text (src/map/render.ts reads this constant)
const cytoscapeText = await readFile(require.resolve('cytoscape/dist/cytoscape.min.js'), 'utf8');

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/action/index.ts'],
  outfile: 'action/dist/index.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // CommonJS dependencies (the TypeScript compiler, tunnel, …) call require() and read
  // __filename; ESM output has neither unless the banner defines them
  banner: {
    js: [
      "import { createRequire as __gitCtxCreateRequire } from 'node:module';",
      "import { fileURLToPath as __gitCtxFileURLToPath } from 'node:url';",
      "import { dirname as __gitCtxDirname } from 'node:path';",
      'const require = __gitCtxCreateRequire(import.meta.url);',
      'const __filename = __gitCtxFileURLToPath(import.meta.url);',
      'const __dirname = __gitCtxDirname(__filename);',
    ].join('\n'),
  },
  // the build identity its caches are kept under (src/version.ts, DEC-117): a placeholder here,
  // replaced below by a hash of the output, so it changes exactly when the bundle does
  define: { __GIT_CTX_CYTOSCAPE__: JSON.stringify(cytoscapeText), __GIT_CTX_BUILD_ID__: JSON.stringify(BUILD_ID_PLACEHOLDER) },
  // the rule-file budget rule imports the token counter on first use; tiktoken (WASM read from
  // disk) stays out, so a count that needs it fails that rule, not the Action (src/rules/check.ts)
  external: ['@dqbd/tiktoken'],
  minifyWhitespace: true,
  minifySyntax: true,
  // identifiers are kept so that stack traces from a runner still name functions
  minifyIdentifiers: false,
  legalComments: 'none',
  sourcemap: false,
  metafile: true,
  logLevel: 'warning',
  plugins: [lazyRequire, tsMorphShim],
});

const inputs = Object.keys(result.metafile.inputs);
const bad = inputs.filter((i) => FORBIDDEN.some((re) => re.test(i)));
if (bad.length) {
  console.error(`action bundle reaches modules it must not load:\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
if (!inputs.some((i) => /node_modules\/picomatch\//.test(i))) {
  console.error('action bundle: picomatch was not bundled (src/util/picomatch.ts changed?); update scripts/build-action.mjs');
  process.exit(1);
}
if (!inputs.some((i) => /node_modules\/js-yaml\//.test(i))) {
  console.error('action bundle: js-yaml was not bundled (src/util/js-yaml.ts changed?); update scripts/build-action.mjs');
  process.exit(1);
}
if (!rewrites || !inputs.some((i) => i.endsWith('@ts-morph/common/dist/typescript.js'))) {
  console.error('action bundle: the TypeScript compiler was not bundled (src/code no longer loads it with createRequire(import.meta.url)(\'ts-morph\')?); update scripts/build-action.mjs');
  process.exit(1);
}
const outFile = path.join(root, 'action/dist/index.js');
const built = await readFile(outFile, 'utf8');
if (!built.includes(BUILD_ID_PLACEHOLDER)) {
  console.error('action bundle: the build id placeholder is missing (src/version.ts no longer reads __GIT_CTX_BUILD_ID__?); update scripts/build-action.mjs');
  process.exit(1);
}
await writeFile(outFile, built.replaceAll(BUILD_ID_PLACEHOLDER, outputBuildId(built)));
const out = result.metafile.outputs['action/dist/index.js'];
console.error(`action/dist/index.js: ${(out.bytes / 1024 / 1024).toFixed(2)} MiB from ${inputs.length} modules`);
