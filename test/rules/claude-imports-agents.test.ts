import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const record = (n: string, title: string, decision: string) => `# ${title}\n\n- Status: Accepted\n- Date: 2025-0${n}-01\n\n## Result\n\n${decision}\n`;

/**
 * trials30 (Altinn/altinn-studio's shape): CLAUDE.md is only `@AGENTS.md`, Claude Code's import
 * of the team's AGENTS.md. rules export wrote the records into both, so Claude Code loaded them
 * twice (and 40 KB into a 24-byte file). Such a CLAUDE.md gets AGENTS.md's section through its
 * import and is left as it is, unless it is asked for by name.
 */
describe('rules export beside a CLAUDE.md that imports AGENTS.md', () => {
  it('writes AGENTS.md only, and CLAUDE.md when --format claude asks for it', () => {
    const repo = makeRepo({
      'AGENTS.md': '# Agents\n\nRun the tests before you push.\n',
      'CLAUDE.md': '# CLAUDE.md\n\n@AGENTS.md\n',
      'docs/adr/2025-01-01-queue-exports.md': record('1', 'Queue the exports', 'Exports run from a queue, never in the request.'),
      'docs/adr/2025-02-01-sign-in-backend.md': record('2', 'Sign documents in the backend', 'Documents are signed by the backend service only.'),
    });
    repo.commit('records');
    const r = runCli(['rules', 'export'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'AGENTS.md'), 'utf8')).toContain('Queue the exports');
    expect(readFileSync(path.join(repo.dir, 'CLAUDE.md'), 'utf8')).toBe('# CLAUDE.md\n\n@AGENTS.md\n');
    const named = runCli(['rules', 'export', '--format', 'claude'], { cwd: repo.dir });
    expect(named.code, named.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'CLAUDE.md'), 'utf8')).toContain('Queue the exports');
  });
});
