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
//
// The bundle is kept ASCII (DEC-067): one non-ASCII character makes V8 hold the whole 1.4 MB
// source as two-byte characters, which costs every start ~4 ms of CPU (reading, the compile
// cache's check, compiling the functions a run calls). esbuild escapes strings; a character
// in a regular expression or a comment it keeps (a class member's) is written `\u2014` or in
// ASCII in the source instead, and the build names any that is not.
//
// It runs after tsc (npm run build, the tests' global setup) and leaves dist/ holding only what
// this build wrote: another .cjs (the per-command bundles of old) or a module tsc wrote for a
// source file since removed would otherwise be packed and shipped.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, rmdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { srcBuildId } from './build-id.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli.cjs',
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  // the build identity every persistent cache is kept under (src/version.ts, DEC-117)
  define: { 'import.meta.url': '__gitCtxBundleUrl', __GIT_CTX_BUILD_ID__: JSON.stringify(srcBuildId(root)) },
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

// ASCII, or the source line that is not
const text = readFileSync(path.join(root, 'dist/cli.cjs'), 'utf8');
if (/[\u0080-\uffff]/.test(text)) {
  let from = '?';
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const m = /^\/\/ (src\/\S+)$/.exec(line);
    if (m) from = m[1];
    else if (/[\u0080-\uffff]/.test(line)) console.error(`dist/cli.cjs:${i + 1} (from ${from}): ${line.trim().slice(0, 120)}`);
  }
  console.error('dist/cli.cjs is not ASCII (see above): write the character as \\uXXXX in a regular expression, in ASCII in a comment');
  process.exit(1);
}

// what no build writes any more
const removed = [];
const dist = path.join(root, 'dist');
for (const e of readdirSync(dist, { withFileTypes: true })) {
  if (!e.isFile() || !e.name.endsWith('.cjs') || e.name === 'cli.cjs') continue;
  rmSync(path.join(dist, e.name));
  removed.push(path.join(dist, e.name));
}
(function prune(dir, rel) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      prune(abs, r);
      if (!readdirSync(abs).length) rmdirSync(abs);
      continue;
    }
    // tsc's outputs of src/<m>.ts: <m>.js, <m>.d.ts and their maps
    const m = /^(.*?)\.(js|d\.ts)(\.map)?$/.exec(r);
    if (m && !existsSync(path.join(root, 'src', `${m[1]}.ts`))) {
      rmSync(abs);
      removed.push(abs);
    }
  }
})(dist, '');
if (removed.length) console.error(`dist/: removed ${removed.length} files no build writes any more (${removed.slice(0, 3).map((f) => path.relative(root, f)).join(', ')}${removed.length > 3 ? ', …' : ''})`);
console.error(`dist/cli.cjs: ${(out.bytes / 1024).toFixed(0)} KiB from ${Object.keys(result.metafile.inputs).length} modules`);
