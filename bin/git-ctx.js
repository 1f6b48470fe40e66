#!/usr/bin/env node
// Piping into a reader that stops early (`git ctx list | head`) closes stdout: end quietly,
// as other Unix tools do, instead of printing a stack for EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

// `git ctx --version` alone needs no command table: answer before loading the CLI (DEC-025)
const only = process.argv.length === 3 ? process.argv[2] : undefined;
if (only === '--version' || only === '-V') {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await loadCli();
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
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
    const { statSync } = await import('node:fs');
    const bundle = new URL('../dist/cli.cjs', import.meta.url);
    let fresh = false;
    try {
      fresh = statSync(bundle).mtimeMs >= statSync(new URL('../dist/cli/main.js', import.meta.url)).mtimeMs;
    } catch {
      /* no bundle: the ES modules */
    }
    if (fresh) {
      const [{ fileURLToPath }, { requireWithCodeCache }] = await Promise.all([import('node:url'), import('../dist/cache/compile-cache.js')]);
      // code compiled through vm.Script has no import() of its own in Node 20: lend it ours
      // (the bundle's import() of packages and builtins goes through this)
      globalThis[Symbol.for('git-ctx.import')] = (specifier) => import(specifier);
      return requireWithCodeCache(fileURLToPath(bundle), commandOf(process.argv));
    }
  }
  return import('../dist/cli/main.js');
}

/**
 * The code cache a command uses: its own for the commands run often (by agents, hooks and
 * people), one shared by the rest, so the number of cache files stays bounded.
 */
function commandOf(argv) {
  const [first, second] = argv.slice(2).filter((a) => !a.startsWith('-'));
  if (first === 'hook' && (second === 'agent-read' || second === 'pre-commit')) return `hook_${second}`;
  return ['for', 'trace', 'search', 'check', 'context', 'show', 'list', 'stale', 'impact', 'mcp'].includes(first) ? first : 'other';
}
