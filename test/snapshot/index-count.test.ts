import { describe, expect, it } from 'vitest';
import { gitIndex as readGitIndex } from '../../src/tree/state.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('git index reader: counting the entries under a path', () => {
  it('countUnder(p) is under(p).length, names that sort between p and p/ included, in index versions 2 and 4', () => {
    const names = ['p', 'p-x', 'p.x', 'p/a', 'p/b/c', 'p0', 'pa/b', 'q/p/a', 'o/z', 'p/ü', 'a-p/x'];
    const repo = makeRepo(Object.fromEntries(names.filter((n) => n !== 'p').map((n) => [n, `${n}\n`])));
    repo.commit('names');
    const asks = ['p', 'p/b', 'p/b/c', 'pa', 'q', 'o', 'x', 'p-x', 'a-p'];
    for (const v of ['2', '4']) {
      repo.git('update-index', '--index-version', v);
      const idx = readGitIndex(repo.dir)!;
      for (const p of asks) expect(idx.countUnder(p), `${p} (v${v})`).toBe(idx.under(p).length);
      expect(idx.countUnder('p')).toBe(3); // p/a, p/b/c, p/ü
    }
  });
});
