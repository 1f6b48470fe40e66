import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { RACY_MS } from '../../src/place/kept.js';

const rec = (id: string, type: string, fm: string, body = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\n${fm}---\n\n# ${id}\n\n${body}\n`;

/** Timings vary between runs; everything else must not. */
const stable = (s: string) => s.replace(/"ms": [\d.]+/g, '"ms": 0');

/** The CLI from tsc's ES modules (dist/cli/main.js) rather than the bundle, as the bin would run it. */
function runModules(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }) {
  const main = pathToFileURL(path.join(ROOT, 'dist/cli/main.js')).href;
  const script = `const { main } = await import(${JSON.stringify(main)}); process.exitCode = await main([process.argv[0], "git-ctx", ...process.argv.slice(1)]);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, '--', ...args], {
    cwd: opts.cwd,
    encoding: 'utf8',
    input: opts.input,
    env: { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', ...opts.env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('the bundle of the CLI (dist/cli.cjs, DEC-043)', () => {
  it('is built, and the bin is a shim of at most 30 lines that runs it', () => {
    expect(existsSync(path.join(ROOT, 'dist/cli.cjs'))).toBe(true);
    expect(readFileSync(path.join(ROOT, 'bin/git-ctx.js'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(30);
    // a copy whose bundle is ours: the bin runs it with the arguments and exits with its answer
    const dir = tempDir('git-ctx-bin-');
    cpSync(path.join(ROOT, 'bin'), path.join(dir, 'bin'), { recursive: true });
    cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const run = () => spawnSync(process.execPath, [path.join(dir, 'bin/git-ctx.js'), 'list', '--json'], { cwd: dir, encoding: 'utf8' });
    const missing = run();
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`git-ctx: cannot load ${path.join(dir, 'dist', 'cli.cjs')}`);
    cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
    writeFileSync(path.join(dir, 'dist/cli.cjs'), "exports.main = async (argv) => { process.stdout.write(argv.slice(2).join(' ') + '\\n'); return 3; };\n");
    const r = run();
    expect(r.stdout).toBe('list --json\n');
    expect(r.status).toBe(3);
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
      { args: ['--version'] },
    ];
    for (const c of cases) {
      // the bundle twice (the second run reads the compile cache the first one wrote), then the ES modules
      const env = { GIT_CTX_NO_RECORD: '1', XDG_CACHE_HOME: tempDir('git-ctx-compile-') };
      const a = runCli(c.args, { cwd: r.dir, input: c.input?.replace('bundle-test-a', 'bundle-1'), env });
      const b = runCli(c.args, { cwd: r.dir, input: c.input?.replace('bundle-test-a', 'bundle-2'), env });
      const esm = runModules(c.args, { cwd: r.dir, input: c.input?.replace('bundle-test-a', 'esm'), env });
      expect(esm.code, c.args.join(' ')).toBe(0);
      expect(esm.stdout.length, c.args.join(' ')).toBeGreaterThan(0);
      for (const x of [a, b]) {
        expect(x.code, c.args.join(' ')).toBe(esm.code);
        expect(x.stderr, c.args.join(' ')).toBe(esm.stderr);
        expect(stable(x.stdout), c.args.join(' ')).toBe(stable(esm.stdout));
      }
    }
  });

  it('keeps its compiled code in the per-user cache folder, and none with GIT_CTX_NO_CACHE=1', () => {
    const r = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    r.commit('fixture');
    const cacheHome = tempDir('git-ctx-compile-');
    expect(runCli(['list'], { cwd: r.dir, env: { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '', GIT_CTX_NO_RECORD: '1' } }).code).toBe(0);
    expect(readdirSync(path.join(cacheHome, 'git-ctx', 'compile')).length).toBeGreaterThan(0);
    const none = tempDir('git-ctx-compile-none-');
    expect(runCli(['list'], { cwd: r.dir, env: { XDG_CACHE_HOME: none, GIT_CTX_NO_CACHE: '1', GIT_CTX_NO_RECORD: '1' } }).code).toBe(0);
    expect(readdirSync(none)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('never reads nor writes compiled code in a folder other users can write (DEC-039)', () => {
    const r = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    r.commit('fixture');
    const cacheHome = tempDir('git-ctx-compile-shared-');
    const dir = path.join(cacheHome, 'git-ctx', 'compile');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const env = { XDG_CACHE_HOME: cacheHome, GIT_CTX_NO_CACHE: '', GIT_CTX_NO_RECORD: '1' };
    const out = runCli(['list'], { cwd: r.dir, env });
    expect(out.code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    expect(out.stdout).toBe(runCli(['list'], { cwd: r.dir, env: { ...env, GIT_CTX_NO_CACHE: '1' } }).stdout);
    // the user's own folder is used
    chmodSync(dir, 0o755);
    expect(runCli(['list'], { cwd: r.dir, env }).code).toBe(0);
    expect(readdirSync(dir).length).toBeGreaterThan(0);
  });

  it('loads no perf_hooks in a warm agent-read hook, for, trace or search (DEC-041 item 4: timings read process.uptime), nor node:crypto, picomatch or the git runner for a kept answer (DEC-067)', async () => {
    const r = makeRepo({
      'src/a.ts': '// @spec SPEC-A\nexport function a() {\n  return 1;\n}\n',
      '.contextia/system/specs/SPEC-A.md': rec('SPEC-A', 'spec', 'status: active\nkeywords: [alpha]\n', 'The a function.'),
    });
    r.commit('fixture');
    // an answer that read a file written within RACY_MS is not kept (DEC-062): the measured run must be a kept answer
    await new Promise((res) => setTimeout(res, RACY_MS + 150));
    const out = path.join(tempDir('git-ctx-modules-'), 'modules.txt');
    const preload = path.join(path.dirname(out), 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, [...process.moduleLoadList, ...Object.keys(require.cache)].join('\\n')));\n`);
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
      // a kept answer (DEC-062) names its cache entry by a key digest, not a cryptographic hash,
      // and parses the place without the trace's globs (DEC-067)
      if (c.args[0] !== 'search') expect(loaded.filter((m) => /^NativeModule crypto$|[/\\]picomatch[/\\]/.test(m)), c.args.join(' ')).toEqual([]);
      // the hook starts no git and builds no command line
      if (c.args[0] === 'hook') expect(loaded.filter((m) => /^NativeModule child_process$|[/\\]commander[/\\]/.test(m)), c.args.join(' ')).toEqual([]);
    }
  });

  it('is ASCII, and its build leaves dist/ holding only what the build writes (DEC-067)', () => {
    // the bundle the tests run: one non-ASCII character would make V8 hold all of it as two-byte characters
    expect(/[\u0080-\uffff]/.exec(readFileSync(path.join(ROOT, 'dist/cli.cjs'), 'utf8'))).toBeNull();
    // a copy of the checkout, built with outputs an earlier build left
    const dir = tempDir('git-ctx-build-');
    for (const f of ['src', 'scripts', 'package.json', 'tsconfig.json']) cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    mkdirSync(path.join(dir, 'dist/cache'), { recursive: true });
    const stale = ['dist/cli-for.cjs', 'dist/hook-agent-read.cjs', 'dist/cache/compile-cache.js', 'dist/cache/compile-cache.d.ts', 'dist/cache/compile-cache.js.map'];
    const live = ['dist/errors.js', 'dist/errors.d.ts', 'dist/cache/memo.js'];
    for (const f of [...stale, ...live]) writeFileSync(path.join(dir, f), '// an earlier build\n');
    const build = () => spawnSync(process.execPath, [path.join(dir, 'scripts/build-cli-bundle.mjs')], { cwd: dir, encoding: 'utf8' });
    const b = build();
    expect(b.status, b.stderr).toBe(0);
    expect(b.stderr).toContain('dist/: removed 5 files no build writes any more');
    for (const f of stale) expect(existsSync(path.join(dir, f)), f).toBe(false);
    for (const f of [...live, 'dist/cli.cjs']) expect(existsSync(path.join(dir, f)), f).toBe(true);
    // a character the bundle would keep as it is: the build fails and names its source
    const adr = path.join(dir, 'src/artifacts/sources/adr-title.ts');
    const source = readFileSync(adr, 'utf8');
    // the escaped pattern must be there to unescape (it moved with the title code once, and the test then built clean)
    expect(source).toContain('[-\\u2013\\u2014:|]');
    writeFileSync(adr, source.replace('[-\\u2013\\u2014:|]', '[-\u2013\u2014:|]'));
    const bad = build();
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/dist\/cli\.cjs:\d+ \(from src\/artifacts\/sources\/adr-title\.ts\)/);
    expect(bad.stderr).toContain('dist/cli.cjs is not ASCII');
  });
});
