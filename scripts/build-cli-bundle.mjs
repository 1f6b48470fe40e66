#!/usr/bin/env node
// Builds dist/cli.cjs: the CLI (src/cli/main.ts) as one CommonJS file, which bin/git-ctx.js
// requires with Node's compile cache on (DEC-043). One file instead of ~250 modules to resolve
// and read on every run; the packages stay in node_modules, where their code is cached alike.
// CommonJS because each module of the bundle then runs, and requires its packages, only when
// it is first imported: a command loaded with import() brings its packages with it, and
// `git ctx for` never loads the MCP SDK. (In an ES module bundle every package import would be
// hoisted to the top and run on every start.) Node >= 22.12 requires ES-module-only packages too.
// esbuild's output is used as it writes it. `import.meta.url` is the bundle's own URL (defined
// below): paths to the package's own files (data/, hooks/, bin/, the token worker) are found
// from the package root (src/package-root.ts), which holds wherever the code runs from: src/
// under the tests, dist/ after tsc, or this bundle.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli.cjs',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  define: { 'import.meta.url': '__gitCtxBundleUrl' },
  banner: { js: "const __gitCtxBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  packages: 'external',
  // readable stack traces in bug reports: names and layout kept
  minify: false,
  legalComments: 'none',
  sourcemap: false,
  metafile: true,
  logLevel: 'warning',
});
if (result.warnings.length) {
  console.error('dist/cli.cjs: esbuild warnings are errors here (see above)');
  process.exit(1);
}
const out = result.metafile.outputs['dist/cli.cjs'];
console.error(`dist/cli.cjs: ${(out.bytes / 1024).toFixed(0)} KiB from ${Object.keys(result.metafile.inputs).length} modules`);
