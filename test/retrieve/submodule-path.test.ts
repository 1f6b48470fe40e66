import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials26, DEFRA/epr-re-ex-service: every service is a git submodule under lib/. `for
 * lib/epr-backend` answered "no such file or directory in the snapshot", which it is not: the
 * error says it is a submodule, whose files another repository holds.
 */
describe('a place inside a git submodule', () => {
  it('is named as one, the submodule itself and a file in it; other missing paths keep their message', () => {
    const repo = makeRepo({
      '.gitmodules': '[submodule "lib/api"]\n\tpath = lib/api\n\turl = https://example.invalid/api.git\n',
      'docs/adr/0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\n## Status\n\nAccepted\n\n## Decision\n\nWe record decisions.\n',
    });
    repo.git('update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},lib/api`);
    repo.commit('services as submodules');
    const self = runCli(['for', 'lib/api'], { cwd: repo.dir });
    expect(self.code).toBe(2);
    expect(self.stderr).toContain('lib/api is a git submodule: its files are in another repository');
    const inside = runCli(['trace', 'lib/api/src/server.js'], { cwd: repo.dir });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain('lib/api/src/server.js is in the git submodule lib/api');
    const other = runCli(['for', 'lib/web/index.js'], { cwd: repo.dir });
    expect(other.stderr).toContain('no such file or directory in the snapshot: lib/web/index.js');
  });
});
