#!/usr/bin/env node
// The git-ctx command: the CLI is one esbuild bundle, dist/cli.cjs (npm run build), and Node's
// compile cache keeps the compiled code of it and of its packages between runs (DEC-043).
'use strict';
const fs = require('node:fs');
const { enableCompileCache } = require('node:module');
const path = require('node:path');

// Per user: V8 runs compiled code as given, so a folder other users can write is never used
// (DEC-039); one not there yet Node creates. GIT_CTX_NO_CACHE=1 turns every cache off.
const home = process.env.XDG_CACHE_HOME || path.join(require('node:os').homedir(), '.cache');
const dir = path.join(home, 'git-ctx', 'compile');
const st = fs.statSync(dir, { throwIfNoEntry: false });
const trusted = !st || process.platform === 'win32' || (st.isDirectory() && st.uid === process.getuid() && (st.mode & 0o002) === 0);
if (enableCompileCache && trusted && process.env.GIT_CTX_NO_CACHE !== '1') enableCompileCache(dir);

const bundle = path.join(__dirname, '..', 'dist', 'cli.cjs');
let cli;
try {
  cli = require(bundle);
} catch (e) {
  // a checkout (or a git dependency: npm runs no prepack for those) never built, or a broken install
  process.stderr.write(`git-ctx: cannot load ${bundle} (build a checkout with npm run build): ${e.message.split('\n')[0]}\n`);
  process.exitCode = 2;
}
cli?.main(process.argv).then((code) => {
  process.exitCode = code;
});
