import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';

const record = (n: string, title: string, decision: string) =>
  `ADR-${n}: ${title}\n${'='.repeat(9 + title.length)}\n\nStatus\n------\nAccepted\n\nContext\n-------\nSlow pages.\n\nDecision\n--------\n${decision}\n\nConsequences\n------------\nFaster pages.\n`;

/**
 * trials27, smarter-sh/smarter: a reStructuredText Decision that hands over to a code directive
 * ("Example:" ⏎ `.. code-block:: python`) had the directive as the summary's last words
 * ("… Example: .. code-block:: python"). The code's first line finishes the sentence, as a
 * fenced block's does in Markdown, whether the code follows in the same paragraph or indented
 * as its own block.
 */
describe('a reStructuredText decision handing over to a code directive', () => {
  it('is finished by the code\'s first line, never by the directive', async () => {
    const repo = makeRepo({
      'docs/source/adr/001-memoize.rst': record('001', 'Memoize results', 'Wrap slow functions with the memo decorator.\nExample:\n\n.. code-block:: python\n\n  from app.lib.memo import memo\n\n  @memo(ttl=60)\n  def slow(x):\n      return x\n'),
      'docs/source/adr/002-typing.rst': record('002', 'Type hints', 'Every function has type hints. For example:\n\n.. code-block:: python\n   :linenos:\n\n    def total(lines: list[Line]) -> Money:\n        ...\n'),
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const one = set.byId.get('ADR-001')!.summary!;
      const two = set.byId.get('ADR-002')!.summary!;
      expect(one).not.toContain('code-block');
      expect(two).not.toContain('code-block');
      expect(one).toBe('Wrap slow functions with the memo decorator. Example: from app.lib.memo import memo');
      expect(two).toBe('Every function has type hints. For example: def total(lines: list[Line]) -> Money:');
    } finally {
      snapshot.close();
    }
  });
});
