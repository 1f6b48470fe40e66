import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { learnRstShape, renderRst } from '../../src/artifacts/sources/rst-record.js';

/**
 * A folder of reStructuredText records (a Sphinx docs tree): a new record goes in as one more
 * `.rst` file, adorned and sectioned like its neighbours, not as markdown beside them.
 */
const rst = (title: string, status: string, extra = '') =>
  `${title}\n${'='.repeat(title.length)}\n\nStatus\n------\n\n${status}\n\nBackground\n----------\n\nWhy it came up.\n\nDecision\n--------\n\nWhat we do.\n\nConsequences\n------------\n\nWhat follows.\n${extra}`;

describe('new decision in a folder of rst records', () => {
  it('writes an .rst record with the folder title and section adornments, its status in the Status section, and it reads back', () => {
    const repo = makeRepo({
      'service/docs/decisions/0001-cache-grades.rst': rst('Cache grades per learner', 'Accepted', '\nReferences\n----------\n\nA ticket.\n'),
      'service/docs/decisions/0002-nightly-grade-sync.rst': rst('Sync grades every night', 'Draft', '\nReferences\n----------\n\nAnother ticket.\n'),
      'service/app.py': 'print(1)\n',
    });
    repo.commit('rst records');
    const r = runCli(['new', 'decision', 'Expire cached grades after a week'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(repo.dir, 'service/docs/decisions/0003-expire-cached-grades-after-a-week.rst');
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(
      'Expire cached grades after a week\n=================================\n\nStatus\n------\n\nProposed\n\nBackground\n----------\n\nDecision\n--------\n\nConsequences\n------------\n\nReferences\n----------\n',
    );
    repo.commit('new record');
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.stdout).toMatch(/-0003\s+decision\s+proposed\s+Expire cached grades after a week/);
  });

  it('keeps an overlined, numbered title and puts a missing part where the order puts it', () => {
    const model = '===================\n4. Use Sphinx themes\n===================\n\nStatus\n~~~~~~\n\nAccepted\n\nDecision\n~~~~~~~~\n\nThe default theme.\n';
    const shape = learnRstShape(model)!;
    expect(renderRst(shape, { number: '0005', title: 'Pin the theme version', status: 'Proposed', context: 'Builds broke.' })).toBe(
      '========================\n5. Pin the theme version\n========================\n\nStatus\n~~~~~~\n\nProposed\n\nContext\n~~~~~~~\n\nBuilds broke.\n\nDecision\n~~~~~~~~\n\nConsequences\n~~~~~~~~~~~~\n',
    );
  });
});
