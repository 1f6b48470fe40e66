import { spawn, spawnSync } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// the built helpers, run in a child process whose stdin / stdout are what the test gives it
const lib = (f: string) => JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/util', f)).href);
const node = (script: string, stdio: { input?: string | Buffer; stdin?: number } = {}) =>
  spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'buffer',
    input: stdio.input,
    stdio: [stdio.stdin ?? 'pipe', 'pipe', 'pipe'],
    maxBuffer: 1 << 26,
  });

describe('standard input and output through their descriptors (DEC-038)', () => {
  it('reads all of stdin from a pipe and from a file, larger than one read, as the stream would', () => {
    const big = Buffer.from(Array.from({ length: 300_000 }, (_, i) => String.fromCharCode(32 + (i % 90)) + (i % 1000 === 0 ? 'é\n' : '')).join(''), 'utf8');
    const script = `import { readAllStdin } from ${lib('stdin.js')};
const b = await readAllStdin();
process.stdout.write(b);`;
    const viaPipe = node(script, { input: big });
    expect(viaPipe.status).toBe(0);
    expect(Buffer.compare(viaPipe.stdout, big)).toBe(0);
    const file = path.join(tempDir('git-ctx-stdin-'), 'payload.json');
    writeFileSync(file, big);
    const viaFile = node(script, { stdin: openSync(file, 'r') });
    expect(Buffer.compare(viaFile.stdout, big)).toBe(0);
    // nothing on stdin (closed at once): empty, no error
    expect(node(script, { input: '' }).stdout.length).toBe(0);
  });

  it('a non-blocking stdin with nothing to read yet (EAGAIN) hands over to process.stdin, keeping what was read', async () => {
    // creating process.stdin on a pipe puts the descriptor in non-blocking mode; the second half comes later
    const script = `import { readAllStdin } from ${lib('stdin.js')};
process.stdin.pause();
const b = await readAllStdin();
process.stdout.write(b);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const first = 'a'.repeat(50_000);
    const second = 'b'.repeat(50_000);
    child.stdin.write(first);
    setTimeout(() => child.stdin.end(second), 400);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe(first + second);
  });

  it('writes through fd 1 and 2 in order, whole, without creating process.stdout or loading net', () => {
    const script = `import { writeStd, fdIsTTY } from ${lib('stdio.js')};
const chunk = 'x'.repeat(100_000) + '\\n';
for (let i = 0; i < 20; i++) writeStd(1, i + ':' + chunk);
writeStd(2, 'to stderr\\n');
writeStd(1, 'tty ' + fdIsTTY(1) + ' ' + fdIsTTY(2) + ' net ' + process.moduleLoadList.some((m) => m === 'NativeModule net') + '\\n');`;
    const r = node(script);
    expect(r.status).toBe(0);
    const lines = r.stdout.toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    lines.slice(0, 20).forEach((l, i) => expect(l).toBe(`${i}:` + 'x'.repeat(100_000)));
    expect(lines[20]).toBe('tty false false net false');
    expect(r.stderr.toString('utf8')).toBe('to stderr\n');
  });

  it('the agent-read hook answers through a pipe as before, with a payload given in a file too', () => {
    const r = makeRepo({
      'src/a.ts': '// @spec SPEC-A\nexport const a = 1;\n',
      '.contextia/system/specs/SPEC-A.md': '---\nid: SPEC-A\ntype: spec\ntitle: The a spec\nstatus: active\n---\n\n# SPEC-A\n',
    });
    r.commit('fixture');
    const payload = (s: string) => JSON.stringify({ session_id: s, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(r.dir, 'src/a.ts') } });
    const piped = runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('stdio-1'), env: { GIT_CTX_NO_RECORD: '1' } });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout).hookSpecificOutput.additionalContext).toContain('SPEC-A');
    const file = path.join(tempDir('git-ctx-payload-'), 'p.json');
    writeFileSync(file, payload('stdio-2'));
    const fromFile = spawnSync(process.execPath, [path.join(ROOT, 'bin/git-ctx.js'), 'hook', 'agent-read'], { cwd: r.dir, stdio: [openSync(file, 'r'), 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, GIT_CTX_NO_RECORD: '1' } });
    expect(fromFile.stdout).toBe(piped.stdout);
  });
});
