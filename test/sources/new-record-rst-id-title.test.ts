import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const rst = (n: string, title: string, status = '\nStatus\n------\nAccepted\n') => {
  const head = `ADR-${n}: ${title}`;
  return `${head}\n${'='.repeat(head.length)}\n${status}\nContext\n-------\nWhy ${title}.\n\nDecision\n--------\nWe use ${title}.\n\nConsequences\n------------\nLess to build.\n`;
};

/**
 * trials27, smarter-sh/smarter: every rst record's title is led by its id (`ADR-001: Django`);
 * a new record's title was the bare title. It is led by its own id as the folder writes it,
 * padded like the file name, and reads back without it.
 */
describe('new decision in a folder of rst records titled by their id', () => {
  it('leads the title with the new id as the records write theirs', () => {
    const repo = makeRepo({
      'docs/source/adr/001-web-framework.rst': rst('001', 'one web framework'),
      'docs/source/adr/002-containers.rst': rst('002', 'containers'),
      // the newest has no Status section: the shape is learned from the one before it
      'docs/source/adr/003-docstrings.rst': rst('003', 'one docstring style', ''),
    });
    repo.commit('records');
    const dry = runCli(['new', 'decision', '--dry-run', '--json', '--title', 'Schedule jobs with a beat'], { cwd: repo.dir });
    // the style it is written in: rst, not adr-tools' (it said "(nygard)")
    expect((JSON.parse(dry.stdout) as { style: string }).style).toBe('rst');
    const r = runCli(['new', 'decision', '--title', 'Schedule jobs with a beat'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('(rst)');
    const text = readFileSync(path.join(repo.dir, 'docs/source/adr/004-schedule-jobs-with-a-beat.rst'), 'utf8');
    expect(text.split('\n').slice(0, 2)).toEqual(['ADR-004: Schedule jobs with a beat', '==================================']);
    repo.commit('new record');
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.stdout).toMatch(/ADR-004\s+decision\s+proposed\s+Schedule jobs with a beat/);
  });
});
