import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { rewriteIdShorthand } from '../../src/cli/program.js';
import { runCli } from '../helpers/cli.js';
import { exampleRepo } from './helpers.js';

describe('git ctx <ID> shorthand', () => {
  const program = new Command('git-ctx');
  program.command('context');
  program.command('check');
  const argv = (...a: string[]) => ['node', 'git-ctx', ...a];

  it('rewrites an id-like first argument to the context command, and nothing else', () => {
    expect(rewriteIdShorthand(program, argv('TASK-042', '--json'))).toEqual(argv('context', 'TASK-042', '--json'));
    expect(rewriteIdShorthand(program, argv('project/design/context-selection'))).toEqual(argv('context', 'project/design/context-selection'));
    expect(rewriteIdShorthand(program, argv('check'))).toEqual(argv('check'));
    expect(rewriteIdShorthand(program, argv('--help'))).toEqual(argv('--help'));
    expect(rewriteIdShorthand(program, argv('chek'))).toEqual(argv('chek'));
    expect(rewriteIdShorthand(program, argv())).toEqual(argv());
  });

  it('git ctx TASK-042 is git ctx context TASK-042', () => {
    const { repo } = exampleRepo();
    const a = runCli(['TASK-042', '--format', 'json'], { cwd: repo.dir });
    const b = runCli(['context', 'TASK-042', '--format', 'json'], { cwd: repo.dir });
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
  });

  it('unknown id: exit 2 with close matches; a mistyped command still gets commander suggestions', () => {
    const { repo } = exampleRepo();
    const r = runCli(['TASK-42'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown artifact id: TASK-42');
    expect(r.stderr).toContain('did you mean TASK-042');
    const c = runCli(['contxt', 'TASK-042'], { cwd: repo.dir });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('context');
  });
});
