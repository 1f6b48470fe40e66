import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { trustedCacheDir } from '../../src/cache/compile-cache.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

const rec = (id: string, type: string, fm: string, body = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\n${fm}---\n\n# ${id}\n\n${body}\n`;

/** Timings vary between runs; everything else must not. */
const stable = (s: string) => s.replace(/"ms": [\d.]+/g, '"ms": 0');

/** bin/git-ctx.js and dist/ copied elsewhere (node_modules linked), to give it a bundle of our choosing. */
function copyOfCli(): string {
  const dir = tempDir('git-ctx-bin-');
  cpSync(path.join(ROOT, 'bin'), path.join(dir, 'bin'), { recursive: true });
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true, preserveTimestamps: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

describe('the CommonJS bundle of the CLI (dist/cli.cjs, DEC-031)', () => {
  it('is built, and newer than the tsc output, so bin/git-ctx.js runs it', () => {
    const bundle = path.join(ROOT, 'dist/cli.cjs');
    expect(existsSync(bundle)).toBe(true);
    expect(statSync(bundle).mtimeMs).toBeGreaterThanOrEqual(statSync(path.join(ROOT, 'dist/cli/main.js')).mtimeMs);
  });

  it('answers for, trace, search, check and the agent-read hook exactly as the ES modules do', () => {
    const r = makeRepo({
      'src/webhooks/limiter.ts': "import { total } from '../billing/invoice';\n// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender + total();\n}\n",
      'src/billing/invoice.ts': '// @spec SPEC-BILLING\nexport function total() {\n  return 1;\n}\n',
      '.contextia/system/rationale/DEC-RATE.md': rec('DEC-RATE', 'decision', 'status: accepted\nsummary: Token bucket per sender.\nkeywords: [rate limit, throttle, webhook]\npaths: [src/webhooks/**]\n', 'Webhook deliveries are throttled; see src/billing/invoice.ts.'),
      '.contextia/system/specs/SPEC-BILLING.md': rec('SPEC-BILLING', 'spec', 'status: active\n', 'Invoices.'),
      '.contextia/work/tasks/TASK-1.md': rec('TASK-1', 'task', 'status: active\npaths: [src/webhooks/limiter.ts]\nlinks:\n  specs: [SPEC-BILLING]\n', 'Tune the limiter.'),
    });
    r.commit('fixture');
    const payload = (session: string) => JSON.stringify({ session_id: session, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(r.dir, 'src/webhooks/limiter.ts') } });
    const cases: { args: string[]; input?: string }[] = [
      { args: ['for', 'src/webhooks/limiter.ts', '--json'] },
      { args: ['for', 'src/billing/invoice.ts'] },
      { args: ['trace', 'src/webhooks/limiter.ts'] },
      { args: ['search', 'webhook', 'throttle', '--json'] },
      { args: ['check', '--json'] },
      { args: ['hook', 'agent-read'], input: payload('bundle-test-a') },
      // import() of packages (the token counter) and builtins from inside the bundle
      { args: ['context', 'TASK-1', '--related', '1', '--json'] },
      { args: ['--help'] },
    ];
    for (const c of cases) {
      // the bundle twice (the second run reads the code cache the first one wrote), then the ES modules
      const env = { GIT_CTX_NO_RECORD: '1' };
      const a = runCli(c.args, { cwd: r.dir, input: c.input?.replace('bundle-test-a', 'bundle-1'), env });
      const b = runCli(c.args, { cwd: r.dir, input: c.input?.replace('bundle-test-a', 'bundle-2'), env });
      const esm = runCli(c.args, { cwd: r.dir, input: c.input?.replace('bundle-test-a', 'esm'), env: { ...env, GIT_CTX_BUNDLE: '0' } });
      expect(esm.code, c.args.join(' ')).toBe(0);
      expect(esm.stdout.length, c.args.join(' ')).toBeGreaterThan(0);
      for (const x of [a, b]) {
        expect(x.code, c.args.join(' ')).toBe(esm.code);
        expect(x.stderr, c.args.join(' ')).toBe(esm.stderr);
        expect(stable(x.stdout), c.args.join(' ')).toBe(stable(esm.stdout));
      }
    }
  });

  it('is used only when newer than dist/cli/main.js, and never with GIT_CTX_BUNDLE=0', () => {
    const dir = copyOfCli();
    const bin = path.join(dir, 'bin/git-ctx.js');
    const bundle = path.join(dir, 'dist/cli.cjs');
    writeFileSync(bundle, "exports.main = async () => { process.stdout.write('from the bundle\\n'); return 0; };\n");
    const run = (env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [bin, 'list', '--help'], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CTX_NO_CACHE: '1', ...env } });
    expect(run().stdout).toBe('from the bundle\n');
    expect(run({ GIT_CTX_BUNDLE: '0' }).stdout).toContain('Usage: git-ctx list');
    // tsc ran after the bundle was built: the bundle is stale, the ES modules serve
    const main = statSync(path.join(dir, 'dist/cli/main.js'));
    const older = new Date(main.mtimeMs - 60_000);
    utimesSync(bundle, older, older);
    expect(run().stdout).toContain('Usage: git-ctx list');
  });

  it('runs exactly `hook agent-read` from its own bundle (dist/hook-agent-read.cjs), and anything more from the CLI', () => {
    expect(statSync(path.join(ROOT, 'dist/hook-agent-read.cjs')).mtimeMs).toBeGreaterThanOrEqual(statSync(path.join(ROOT, 'dist/cli/main.js')).mtimeMs);
    const dir = copyOfCli();
    const bin = path.join(dir, 'bin/git-ctx.js');
    const hookBundle = path.join(dir, 'dist/hook-agent-read.cjs');
    writeFileSync(hookBundle, "exports.main = async () => { process.stdout.write('from the hook bundle\\n'); return 0; };\n");
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', input: '', env: { ...process.env, GIT_CTX_NO_CACHE: '1', ...env } });
    expect(run(['hook', 'agent-read']).stdout).toBe('from the hook bundle\n');
    expect(run(['hook', 'agent-read', '--help']).stdout).toContain('Usage: git-ctx hook agent-read');
    expect(run(['hook', 'agent-read'], { GIT_CTX_BUNDLE: '0' }).stdout).toBe('');
    // for, trace and search as the first argument: their own bundles too
    for (const name of ['for', 'trace', 'search']) {
      const own = path.join(dir, `dist/cli-${name}.cjs`);
      expect(statSync(path.join(ROOT, `dist/cli-${name}.cjs`)).mtimeMs).toBeGreaterThanOrEqual(statSync(path.join(ROOT, 'dist/cli/main.js')).mtimeMs);
      writeFileSync(own, `exports.main = async (argv) => { process.stdout.write('from cli-${name}: ' + argv.slice(2).join(' ') + '\\n'); return 0; };\n`);
      expect(run([name, 'x', '--json']).stdout).toBe(`from cli-${name}: ${name} x --json\n`);
    }
    expect(run(['list', '--help']).stdout).toContain('Usage: git-ctx list');
    expect(run(['--json', 'for', 'x']).stdout).not.toContain('from cli-for');
    // built before the last tsc run: stale, the CLI answers (an empty payload: nothing to add)
    const older = new Date(statSync(path.join(dir, 'dist/cli/main.js')).mtimeMs - 60_000);
    utimesSync(hookBundle, older, older);
    const stale = run(['hook', 'agent-read']);
    expect(stale.status).toBe(0);
    expect(stale.stdout).toBe('');
  });

  it('loads no perf_hooks in a warm agent-read hook, for, trace or search (DEC-041; node:crypto hashes its keys since DEC-044)', () => {
    const r = makeRepo({
      'src/a.ts': '// @spec SPEC-A\nexport function a() {\n  return 1;\n}\n',
      '.contextia/system/specs/SPEC-A.md': rec('SPEC-A', 'spec', 'status: active\nkeywords: [alpha]\n', 'The a function.'),
    });
    r.commit('fixture');
    const out = path.join(tempDir('git-ctx-modules-'), 'modules.txt');
    const preload = path.join(path.dirname(out), 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
    const payload = (s: string) => JSON.stringify({ session_id: s, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(r.dir, 'src/a.ts') } });
    const cases: { args: string[]; input?: (i: number) => string }[] = [
      { args: ['hook', 'agent-read'], input: (i) => payload(`modules-${i}`) },
      { args: ['for', 'src/a.ts'] },
      { args: ['trace', 'src/a.ts'] },
      { args: ['search', 'alpha', 'function'] },
    ];
    for (const c of cases) {
      // cold, warm (caches written by the first run), then the run that is measured
      for (let i = 0; i < 3; i++) expect(runCli(c.args, { cwd: r.dir, input: c.input?.(i) }).code, c.args.join(' ')).toBe(0);
      const last = runCli(c.args, { cwd: r.dir, input: c.input?.(3), env: { NODE_OPTIONS: `--require ${preload}` } });
      expect(last.code, c.args.join(' ')).toBe(0);
      expect(last.stdout, c.args.join(' ')).toContain('SPEC-A');
      const loaded = readFileSync(out, 'utf8').split('\n');
      expect(loaded.filter((m) => /^NativeModule perf_hooks$/.test(m)), c.args.join(' ')).toEqual([]);
    }
  });

  it('keeps one code cache per frequent command, and one for the rest', () => {
    const cacheHome = tempDir('git-ctx-v8home-');
    const r = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    r.commit('fixture');
    const env = { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '', GIT_CTX_NO_RECORD: '1' };
    for (const args of [['for', 'src/a.ts'], ['trace', 'src/a.ts'], ['list'], ['graph', '--help'], ['bundles', '--help']]) expect(runCli(args, { cwd: r.dir, env }).code).toBe(0);
    // for and trace from their own bundles (DEC-041), list and the rest from the CLI's
    const files = readdirSync(path.join(cacheHome, 'git-ctx', 'v8')).filter((f) => f.startsWith('cli'));
    expect(files.map((f) => f.split('.').slice(0, 2).join('.')).sort()).toEqual(['cli-for.cjs-for', 'cli-trace.cjs-trace', 'cli.cjs-list', 'cli.cjs-other']);
    // the bin's loader and src/cache/compile-cache.ts name and key the cache alike: loading the
    // bundle through the latter finds the bin's cache, accepts it and writes nothing
    const dir = path.join(cacheHome, 'git-ctx', 'v8');
    const before = readdirSync(dir).sort();
    const lib = pathToFileURL(path.join(ROOT, 'dist/cache/compile-cache.js')).href;
    const script = `import { requireWithCodeCache } from ${JSON.stringify(lib)};
const m = requireWithCodeCache(${JSON.stringify(path.join(ROOT, 'dist/cli-for.cjs'))}, 'for');
console.log(typeof m.main);`;
    const r2 = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
    expect(r2.stdout).toBe('function\n');
    expect(readdirSync(dir).sort()).toEqual(before);
    // GIT_CTX_NO_CACHE=1: nothing written
    const none = tempDir('git-ctx-v8none-');
    expect(runCli(['for', 'src/a.ts'], { cwd: r.dir, env: { ...env, XDG_CACHE_HOME: none, GIT_CTX_NO_CACHE: '1' } }).code).toBe(0);
    expect(readdirSync(none)).toEqual([]);
  });
  it.skipIf(process.platform === 'win32')('never reads nor writes compiled code in a directory other users can write', () => {
    const cacheHome = tempDir('git-ctx-v8trust-');
    const r = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    r.commit('fixture');
    const env = { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '', GIT_CTX_NO_RECORD: '1' };
    const dir = path.join(cacheHome, 'git-ctx', 'v8');
    expect(runCli(['list'], { cwd: r.dir, env }).code).toBe(0);
    const file = path.join(dir, readdirSync(dir).find((f) => f.startsWith('cli.cjs-list.'))!);
    const junk = Buffer.from('not compiled code');
    // the user's own directory: bytes V8 rejects are read, rejected and replaced at exit
    writeFileSync(file, junk);
    expect(runCli(['list'], { cwd: r.dir, env }).code).toBe(0);
    expect(readFileSync(file).equals(junk)).toBe(false);
    // world-writable: the same bytes are neither read (nor rewritten), and the run is the same
    writeFileSync(file, junk);
    chmodSync(dir, 0o777);
    const out = runCli(['list'], { cwd: r.dir, env });
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(runCli(['list'], { cwd: r.dir, env: { ...env, GIT_CTX_NO_CACHE: '1' } }).stdout);
    expect(readFileSync(file).equals(junk)).toBe(true);
    expect(trustedCacheDir(dir)).toBe(false);
    chmodSync(dir, 0o755);
    expect(trustedCacheDir(dir)).toBe(true);
  });
});
