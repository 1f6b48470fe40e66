import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheStatus, pruneCaches } from '../../src/cache/inventory.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

const DEC = '---\nid: DEC-001\ntype: decision\ntitle: Payments retry policy\nstatus: accepted\npaths: [src/**]\n---\nRetries back off exponentially.\n';

describe('every cache file has a kind and is pruned', () => {
  it('the commands that write caches write only files cache status can name, and pruning to zero removes them all', () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': DEC,
      'src/a.ts': '// @decision DEC-001\nimport { b } from "./b";\nexport const a = () => b();\n',
      'src/b.ts': 'export const b = () => 1;\n',
    });
    repo.commit('init');
    repo.write({ 'src/b.ts': 'export const b = () => 2;\n', 'src/c.ts': 'export const c = 3;\n' });
    const env = { XDG_CACHE_HOME: tempDir('git-ctx-xdg-') };
    for (const args of [['check'], ['trace', 'src/a.ts'], ['for', 'src/a.ts'], ['search', 'retry'], ['rules', 'export', '--dry-run']]) {
      const r = runCli(args, { cwd: repo.dir, env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBeLessThan(2);
    }
    const status = cacheStatus(repo.dir);
    expect(status.files.length).toBeGreaterThan(3);
    const unnamed = status.files.filter((f) => f.kind === 'other').map((f) => f.name);
    expect(unnamed).toEqual([]);
    expect(status.files.map((f) => f.kind)).toEqual(expect.arrayContaining(['worktree', 'place', 'code-index', 'artifacts']));
    const pruned = pruneCaches(repo.dir, 1);
    expect(pruned.bytes).toBe(0);
    expect(new Set(pruned.removed)).toEqual(new Set(status.files.map((f) => f.name)));
    expect(cacheStatus(repo.dir).files).toEqual([]);
    // and everything still works from nothing
    expect(runCli(['check'], { cwd: repo.dir, env }).code).toBeLessThan(2);
    expect(path.basename(status.dir ?? '')).toMatch(/^build-[0-9a-f]{16}$/);
  });
});
