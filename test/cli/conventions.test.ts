import { createServer, connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import type { Command } from '../../src/cli/commander.js';
import { setIo } from '../../src/cli/shared.js';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { gitEnv, makeRepo, tempDir } from '../helpers/git-repo.js';
import { connect, fixtureRepo as mcpRepo } from '../mcp/helpers.js';

const dec = (id: string, extra = '') => `---\nid: ${id}\ntype: decision\ntitle: ${id}\nstatus: accepted\n${extra}---\n# ${id}\n`;

function repoWith(files: Record<string, string>) {
  const repo = makeRepo(files);
  repo.commit('fixture');
  return repo;
}

// git runs `man git-ctx` for `git ctx --help`; CI installs man-db (.ci/run), elsewhere it is optional
const hasMan = spawnSync('sh', ['-c', 'command -v man'], { encoding: 'utf8' }).status === 0;
const ci = !!process.env.CI && process.env.CI !== 'false';

describe('CLI conventions', () => {
  it('piping into a reader that stops early ends quietly (EPIPE), without a stack', async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 400; i++) files[`.contextia/system/rationale/DEC-${String(i).padStart(4, '0')}.md`] = dec(`DEC-${String(i).padStart(4, '0')}`);
    const repo = repoWith(files);
    // `git ctx list | head -1`, for real: the reader exits after one line
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" list | head -1; "${process.execPath}" "${BIN}" --help | head -1`], { cwd: repo.dir, encoding: 'utf8', env: gitEnv({ NO_COLOR: '1' }) });
    expect(r.stdout.split('\n')[0]).toContain('DEC-0001');
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).not.toMatch(/\bat \S+ \(/);
    // and the writer itself exits 0 when the pipe closes
    const child = spawn(process.execPath, [BIN, 'list'], { cwd: repo.dir, env: gitEnv({ NO_COLOR: '1' }) });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).not.toContain('EPIPE');
    expect(code, err).toBe(0);
    // a reader on a socket that resets the connection: the writer sees ECONNRESET, not EPIPE
    const server = createServer();
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const sock = connectTcp(port, '127.0.0.1');
    sock.on('error', () => undefined);
    await new Promise((resolve) => sock.once('connect', resolve));
    const peer = await accepted;
    const late = spawn(process.execPath, [BIN, 'list'], { cwd: repo.dir, env: gitEnv({ NO_COLOR: '1' }), stdio: ['ignore', sock, 'pipe'] });
    let lateErr = '';
    late.stderr!.on('data', (d: Buffer) => (lateErr += d.toString()));
    const lateClosed = new Promise<number | null>((resolve) => late.on('close', resolve));
    sock.destroy();
    peer.resetAndDestroy();
    server.close();
    const lateCode = await lateClosed;
    expect(lateErr).not.toMatch(/ECONNRESET|EPIPE/);
    expect(lateCode, lateErr).toBe(0);
  });

  it.runIf(!hasMan && ci)('man is installed in CI (apt-get install -y man-db)', () => {
    expect.fail('CI is set but man is not on PATH: install man-db so `git ctx --help` is tested');
  });

  it.skipIf(!hasMan)('`git ctx --help` opens the man page shipped with the package (git runs `man git-ctx`)', () => {
    const repo = makeRepo();
    // git-ctx on PATH as npm links it, MANPATH as npm's global prefix sets it up
    const bin = tempDir('git-ctx-bin-');
    writeFileSync(path.join(bin, 'git-ctx'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(bin + '/git-ctx', 0o755);
    const env = gitEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH}`, MANPATH: path.join(ROOT, 'man'), MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '100' });
    const r = spawnSync('git', ['ctx', '--help'], { cwd: repo.dir, encoding: 'utf8', env });
    expect(r.stderr).not.toContain('No manual entry');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('GIT-CTX(1)');
    expect(r.stdout).toContain('git ctx hooks install');
    expect(r.stdout).toContain('Examples:');
    // the subcommand form still prints commander's help
    expect(spawnSync('git', ['ctx', 'check', '--help'], { cwd: repo.dir, encoding: 'utf8', env }).stdout).toContain('Usage: git-ctx check');
  });

  it('every command and subcommand has examples in its --help', async () => {
    let out = '';
    setIo({ out: (s) => (out += s), color: false });
    const program = await buildProgram();
    const missing: string[] = [];
    const walk = (cmd: Command, prefix: string) => {
      for (const sub of cmd.commands) {
        const name = `${prefix} ${sub.name()}`.trim();
        out = '';
        sub.outputHelp();
        if (!out.includes('Examples:')) missing.push(name);
        walk(sub, name);
      }
    };
    walk(program, '');
    expect(missing).toEqual([]);
  });

  it('check --rule: comma-separated ids; an unknown id is a usage error with a suggestion, not a pass', () => {
    const repo = repoWith({ '.contextia/a.md': dec('DEC-001', 'links: [DEC-404]\n') });
    const one = runCli(['check', '--rule', 'broken-link,duplicate-id', '--json'], { cwd: repo.dir });
    expect(one.code).toBe(1);
    expect((JSON.parse(one.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule)).toEqual(['broken-link']);
    const typo = runCli(['check', '--rule', 'broken-lnk'], { cwd: repo.dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown rule id: broken-lnk');
    expect(typo.stderr).toContain('did you mean broken-link?');
    const two = runCli(['check', '--rule', 'broken-link', '--rule', 'nope,neither'], { cwd: repo.dir });
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('unknown rule ids: nope, neither');
  });

  it('MCP check with an unknown rule id is an error result naming the close match', async () => {
    const repo = mcpRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('check', { rules: ['duplicate-ids'] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('unknown rule id: duplicate-ids');
    expect(r.text).toContain('did you mean duplicate-id?');
  });

  it('unknown config keys and misspelled rule ids are findings with file, line and a suggestion', () => {
    const config = ['fail_on: error', 'rules:', '  broken-lnk: off', 'assemble:', '  budgett: 4000', 'tagz: [spec]', ''].join('\n');
    const repo = repoWith({ '.contextia/config.yaml': config, '.contextia/a.md': dec('DEC-001') });
    const r = runCli(['check', '--json'], { cwd: repo.dir });
    const findings = (JSON.parse(r.stdout) as { findings: { rule: string; file: string; line: number; message: string }[] }).findings.filter((f) => f.rule === 'config-unknown-key');
    expect(findings.map((f) => [f.line, f.message])).toEqual([
      [3, 'rules: broken-lnk is not a rule id (did you mean broken-link?); its severity is ignored (git ctx check --list-rules)'],
      [5, 'unknown config key assemble.budgett (did you mean budget?); it is ignored'],
      [6, 'unknown config key tagz (did you mean tags?); it is ignored'],
    ]);
    expect(findings.every((f) => f.file === '.contextia/config.yaml')).toBe(true);
    // the generated config (every default key written out) has none
    const fresh = makeRepo();
    expect(runCli(['init'], { cwd: fresh.dir }).code).toBe(0);
    const clean = runCli(['check', '--json'], { cwd: fresh.dir });
    expect(clean.stdout).not.toContain('config-unknown-key');
  });

  it('list --type: an unknown type is an error with a suggestion; comma-separated types work', () => {
    const repo = repoWith({ '.contextia/a.md': dec('DEC-001'), '.contextia/s.md': '---\nid: SPEC-001\ntype: spec\ntitle: S\nstatus: active\n---\n# S\n' });
    const bad = runCli(['list', '--type', 'decisions'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown artifact type: decisions');
    expect(bad.stderr).toContain('did you mean decision?');
    const both = runCli(['list', '--type', 'decision,spec', '--json'], { cwd: repo.dir });
    expect(both.code).toBe(0);
    expect((JSON.parse(both.stdout) as { artifacts: { id: string }[] }).artifacts.map((a) => a.id).sort()).toEqual(['DEC-001', 'SPEC-001']);
  });

  it('near-miss ids get a suggestion: ADR-32 → ADR-0032', () => {
    const repo = repoWith({ '.contextia/adr.md': '---\nid: ADR-0032\ntype: decision\ntitle: T\nstatus: accepted\n---\n# T\n' });
    const r = runCli(['show', 'ADR-32'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean ADR-0032?');
  });

  it('plurals are right: 1 artifact, 1 error', () => {
    const repo = repoWith({ '.contextia/a.md': dec('DEC-001', 'links: [DEC-404]\n') });
    const r = runCli(['check'], { cwd: repo.dir });
    expect(r.stdout).toContain('1 artifact checked: 1 error, 0 warnings, 0 info');
  });

  it('stale does not count the identity as unanchored', () => {
    const repo = repoWith({ '.contextia/identity.md': '---\nid: ACME\ntype: identity\ntitle: Acme\n---\n# Acme\n', '.contextia/a.md': dec('DEC-001') });
    mkdirSync(path.join(repo.dir, 'src'), { recursive: true });
    const r = runCli(['stale', '--json'], { cwd: repo.dir });
    const report = JSON.parse(r.stdout) as { artifacts: { id: string }[]; counts: { unanchored: number } };
    expect(report.artifacts.map((a) => a.id)).toEqual(['DEC-001']);
    expect(report.counts.unanchored).toBe(1);
    expect(runCli(['stale'], { cwd: repo.dir }).stdout).toContain('1 artifact: 0 stale');
  });
});
