import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// trials29: `git ctx add --dry-run --json "…"` said "unknown option '--json'", while list,
// check, show, for and the others take --json as the shorthand of --format json. add, confirm
// and reject take it too.
describe('--json on the authoring commands', () => {
  it('add, confirm and reject read --json as --format json', () => {
    const repo = makeRepo({ 'docs/adr/0001-use-queues.md': '# 1. Use queues\n\nDate: 2024-03-01\n\n## Status\n\nAccepted\n\n## Decision\n\nServices talk through queues.\n' });
    repo.commit('records');
    const add = runCli(['add', '--dry-run', '--json', 'Keep audit logs for two years'], { cwd: repo.dir });
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)).toEqual(JSON.parse(runCli(['add', '--dry-run', '--format', 'json', 'Keep audit logs for two years'], { cwd: repo.dir }).stdout));
    const proposed = runCli(['add', '--propose', '--session', 's-1', 'Keep audit logs for two years'], { cwd: repo.dir });
    expect(proposed.code, proposed.stderr).toBe(0);
    const confirm = runCli(['confirm', 'ADR-0002', '--json'], { cwd: repo.dir });
    expect(confirm.code, confirm.stderr).toBe(0);
    expect(JSON.parse(confirm.stdout)).toMatchObject({ version: 1, id: 'ADR-0002' });
    for (const cmd of ['add', 'confirm', 'reject']) expect(runCli([cmd, '--help'], { cwd: repo.dir }).stdout).toContain('--json');
  });
});
