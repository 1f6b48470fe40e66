import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { learnShape } from '../../src/artifacts/sources/record-shape.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (n: string, title: string, extra = '') => `# ADR-${n}: ${title}\n\n## Context\n\nWhy it came up.\n\n## Decision\n\nWhat we do.\n\n## Rationale\n\nWhy this way.\n${extra}`;

/**
 * trials31 (joeycumines/go-utilpkg's shape): records titled `# ADR-007: Title` with Context,
 * Decision and Rationale and no status anywhere, the newest written differently (a title
 * without a number). `new decision` wrote adr-tools' `# 9. Title` with a Date line; it now
 * keeps the folder's title and parts and says the record is proposed in a Status section
 * (DEC-135).
 */
describe('new decision in a folder whose records state no status (DEC-135)', () => {
  it('learns a statusless record only when asked, with a Status section first at the records\' level', () => {
    expect(learnShape(rec('007', 'Options return errors'))).toBeUndefined();
    const shape = learnShape(rec('007', 'Options return errors'), { statusless: true })!;
    expect(shape.titlePrefix).toBe('ADR-{n}: ');
    // its parts as the record has them, the one it lacks (Consequences) offered after the decision
    expect(shape.sections.map((s) => `${s.hashes} ${s.title}`)).toEqual(['## Status', '## Context', '## Decision', '## Consequences', '## Rationale']);
  });

  it('writes the folder\'s numbered title and parts, proposed, from the newest numbered record', () => {
    const repo = makeRepo({
      'docs/adr/001-require-pattern.md': rec('001', 'Require pattern'),
      'docs/adr/002-option-interfaces.md': rec('002', 'Option interfaces'),
      'docs/adr/003-weak-pointers.md': '# ADR: Weak pointers as map keys\n\n| **Date** | 2026-08-22 |\n|---|---|\n\n## Summary\n\nKeys are weak pointers.\n\n## Decision\n\nUse weak pointers.\n',
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', '--title', 'Use context for cancellation'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'docs/adr/004-use-context-for-cancellation.md'), 'utf8');
    expect(text.startsWith('# ADR-004: Use context for cancellation\n\n## Status\n\nProposed\n\n## Context\n')).toBe(true);
    expect(text).toContain('\n## Rationale\n');
    expect(text).not.toMatch(/^Date:/m);
    repo.commit('new record');
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.stdout).toMatch(/ADR-004\s+decision\s+proposed\s+Use context for cancellation/);
  });
});
