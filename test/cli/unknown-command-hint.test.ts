import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

describe('an unknown command named for what another command does', () => {
  it('names the command to run for why, reverse, find and lint; a plain typo keeps commander’s suggestion', () => {
    const repo = makeRepo({ 'docs/adr/0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\n## Status\n\nAccepted\n' });
    repo.commit('one record');
    for (const [word, command] of [
      ['why', 'git ctx for <file>'],
      ['reverse', 'git ctx show <id>'],
      ['find', 'git ctx search'],
      ['lint', 'git ctx check'],
    ] as const) {
      const r = runCli([word, 'ADR-0001'], { cwd: repo.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`unknown command '${word}'`);
      expect(r.stderr).toContain(`hint: `);
      expect(r.stderr).toContain(command);
    }
    const typo = runCli(['serach', 'x'], { cwd: repo.dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/did you mean search\?/i);
    expect(typo.stderr).not.toContain('hint: ');
  });
});
