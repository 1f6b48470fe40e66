import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, fm: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${id} title\nstatus: accepted\n${fm}---\n\n# ${id}\n\n${body}\n`;

function repo() {
  const r = makeRepo({
    'src/billing/invoice.ts': 'export function total() {\n  return 1;\n}\n',
    'src/other.ts': 'export const x = 1;\n',
    '.contextia/system/rationale/DEC-BILL.md': rec('DEC-BILL', 'summary: Totals are kept in cents.\npaths: [src/billing/**]\n', 'Invoices.'),
  });
  r.commit('fixture');
  return r;
}

const payload = (session: string, file: string, event = 'PostToolUse') => JSON.stringify({ session_id: session, hook_event_name: event, tool_name: 'Read', tool_input: { file_path: file }, cwd: '' });

describe('git ctx hook agent-read (spawned, as agents run it)', () => {
  it('injects the governing records once per session, then one line', () => {
    const r = repo();
    const abs = path.join(r.dir, 'src/billing/invoice.ts');
    const first = runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', abs) });
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    const ctx: string = out.hookSpecificOutput.additionalContext;
    expect(ctx).toContain('## DEC-BILL — DEC-BILL title (decision, accepted; declared)');
    expect(ctx).toContain('Totals are kept in cents.');
    const again = JSON.parse(runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', 'src/billing/invoice.ts') }).stdout);
    expect(again.hookSpecificOutput.additionalContext).toContain('- DEC-BILL (decision, accepted) — DEC-BILL title: shown earlier in this session.');
    expect(again.hookSpecificOutput.additionalContext).not.toContain('Totals are kept in cents.');
    // another session sees it in full; Gemini's event name is echoed back
    const other = JSON.parse(runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s2', abs, 'AfterTool') }).stdout);
    expect(other.hookSpecificOutput).toMatchObject({ hookEventName: 'AfterTool' });
    expect(other.hookSpecificOutput.additionalContext).toContain('Totals are kept in cents.');
  });

  it('adds nothing and never fails for files nothing governs, non-repository paths or bad input', () => {
    const r = repo();
    const nothing = runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', 'src/other.ts') });
    expect(nothing).toMatchObject({ code: 0, stdout: '' });
    expect(runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', '/etc/hostname') })).toMatchObject({ code: 0, stdout: '' });
    // Cursor's beforeReadFile (wired by hand): JSON on every path, always allow, nothing added
    const cursorRead = JSON.stringify({ hook_event_name: 'beforeReadFile', conversation_id: 'c1', generation_id: 'g1', workspace_roots: [r.dir], file_path: path.join(r.dir, 'src/billing/invoice.ts'), content: 'export function total() {}', attachments: [] });
    expect(runCli(['hook', 'agent-read'], { cwd: r.dir, input: cursorRead })).toMatchObject({ code: 0, stdout: '{"permission":"allow"}\n' });
    // Codex's hooks see shell commands, not file reads: nothing to add, never a failure
    const codexShell = JSON.stringify({ session_id: 's9', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'cat src/billing/invoice.ts' }, cwd: r.dir });
    expect(runCli(['hook', 'agent-read'], { cwd: r.dir, input: codexShell })).toMatchObject({ code: 0, stdout: '' });
    const bad = runCli(['hook', 'agent-read'], { cwd: r.dir, input: 'not json' });
    expect(bad.code).toBe(0);
    expect(bad.stderr).toContain('stdin is not JSON');
  });
});

describe('git ctx hooks install --agent', () => {
  it('merges into existing Claude settings, keeps other hooks and indentation, never twice, uninstalls only its own', () => {
    const r = repo();
    mkdirSync(path.join(r.dir, '.claude'), { recursive: true });
    const file = path.join(r.dir, '.claude/settings.json');
    writeFileSync(file, JSON.stringify({ model: 'x', hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'npm run lint' }] }] } }, null, 4) + '\n');
    const i = runCli(['hooks', 'install', '--agent', 'claude'], { cwd: r.dir });
    expect(i.code).toBe(0);
    expect(i.stdout).toBe('added the file-read hook to .claude/settings.json\n');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^ {4}"model"/m);
    const s = JSON.parse(text);
    expect(s.model).toBe('x');
    expect(s.hooks.PostToolUse).toEqual([
      { matcher: 'Edit', hooks: [{ type: 'command', command: 'npm run lint' }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'git-ctx hook agent-read' }] },
    ]);
    expect(runCli(['hooks', 'install', '--agent', 'claude'], { cwd: r.dir }).stdout).toContain('already runs');
    expect(JSON.parse(readFileSync(file, 'utf8')).hooks.PostToolUse).toHaveLength(2);
    runCli(['hooks', 'install', '--agent', 'claude', '--uninstall'], { cwd: r.dir });
    expect(JSON.parse(readFileSync(file, 'utf8')).hooks.PostToolUse).toEqual([{ matcher: 'Edit', hooks: [{ type: 'command', command: 'npm run lint' }] }]);
  });

  it('creates Gemini settings, refuses agents without a read hook and broken JSON', () => {
    const r = repo();
    expect(runCli(['hooks', 'install', '--agent', 'gemini'], { cwd: r.dir }).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(r.dir, '.gemini/settings.json'), 'utf8')).hooks.AfterTool[0]).toEqual({ matcher: 'read_file', hooks: [{ type: 'command', command: 'git-ctx hook agent-read' }] });
    const cursor = runCli(['hooks', 'install', '--agent', 'cursor'], { cwd: r.dir });
    expect(cursor.code).toBe(2);
    expect(cursor.stderr).toContain('context_for_code');
    expect(cursor.stderr).toContain('git ctx rules export --format cursor');
    expect(existsSync(path.join(r.dir, '.cursor'))).toBe(false);
    const codex = runCli(['hooks', 'install', '--agent', 'codex'], { cwd: r.dir });
    expect(codex.code).toBe(2);
    expect(codex.stderr).toContain('Codex CLI has no file-read hook');
    expect(codex.stderr).toContain('git ctx rules export --format agents');
    expect(existsSync(path.join(r.dir, '.codex'))).toBe(false);
    const unknown = runCli(['hooks', 'install', '--agent', 'vim'], { cwd: r.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('expected claude or gemini');
    mkdirSync(path.join(r.dir, '.claude'), { recursive: true });
    writeFileSync(path.join(r.dir, '.claude/settings.json'), '{ broken');
    const broken = runCli(['hooks', 'install', '--agent', 'claude'], { cwd: r.dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('.claude/settings.json is not valid JSON');
    expect(readFileSync(path.join(r.dir, '.claude/settings.json'), 'utf8')).toBe('{ broken');
  });
});
