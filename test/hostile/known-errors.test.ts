import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/index.js';
import { connect } from '../mcp/helpers.js';
import { CASE_MS, cli, expectContained, expectKnownError, hostileRepo, OK_DEC } from './harness.js';

describe('known errors: .contextia is a file', () => {
  const COMMANDS = [['check'], ['list'], ['show', 'DEC-OK-001'], ['DEC-OK-001'], ['new', 'decision'], ['hook', 'pre-commit'], ['check', '--at', 'HEAD']];
  it.each(COMMANDS.map((c) => [c.join(' '), c] as const))('git ctx %s: one line naming .contextia, exit 2', { timeout: CASE_MS }, async (_name, args) => {
    const repo = hostileRepo({ '.contextia': 'not a folder\n', 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('base');
    await expectContained(repo, () => expectKnownError(cli([...args], repo.dir), '.contextia'));
  });

  it('the PR analysis and the MCP server fail with the same known error', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'pr');
    repo.write({ '.contextia': 'not a folder\n' });
    repo.commit('file');
    await expectContained(repo, async () => {
      await expect(analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'pr' })).rejects.toThrow(/\.contextia.*|a file where the artifact directory/);
      const c = await connect({ cwd: repo.dir });
      const r = await c.call('check');
      expect(r.isError).toBe(true);
      expect(r.text).toContain('.contextia');
      expect(r.text).not.toMatch(/please report|\n\s+at /);
    });
  });
});

describe('known errors: the environment', () => {
  it('core.hooksPath pointing at a file: hooks install says so, exit 2', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ 'hooks-file': 'x\n' });
    repo.commit('base');
    repo.git('config', 'core.hooksPath', 'hooks-file');
    await expectContained(repo, () => {
      const r = cli(['hooks', 'install'], repo.dir);
      expectKnownError(r, 'hooks-file');
      expect(r.stderr).toContain('core.hooksPath');
    });
  });

  it('a file where the global store directory should be is not a crash', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC, '.contextia/config.yaml': 'global: true\n' });
    repo.commit('base');
    const store = path.join(repo.parent, 'global-file');
    writeFileSync(store, 'x\n');
    const r = cli(['check'], repo.dir, { GIT_CTX_GLOBAL_DIR: store });
    expect([0, 1, 2]).toContain(r.code);
    expect(r.stderr).not.toMatch(/please report|\n\s+at /);
  });

  const REVS: { rev: string; what: RegExp }[] = [
    { rev: 'HEAD:src', what: /HEAD:src names a tree/ },
    { rev: 'HEAD:src/a.ts', what: /HEAD:src\/a\.ts names a blob/ },
    { rev: 'HEAD:', what: /HEAD: names a tree/ },
    { rev: 'no-such-branch', what: /unknown revision: no-such-branch/ },
    { rev: '--output=/tmp/x', what: /unknown revision|not a commit|unknown option/ },
    { rev: 'HEAD:../../../../etc/passwd', what: /HEAD:\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd names a path outside the repository/ },
  ];
  it.each(REVS)('--at $rev says what it names, exit 2', { timeout: CASE_MS }, async ({ rev, what }) => {
    const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC, 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('base');
    await expectContained(repo, () => {
      for (const args of [['check', `--at=${rev}`], ['DEC-OK-001', `--at=${rev}`]]) {
        const r = cli(args, repo.dir);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(what);
        expect(r.stderr).not.toMatch(/please report|not inside a git repository/);
      }
    });
  });

  it('a revision reaching above the top level is named by pr --base/--head and stale --since, exit 2', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC, 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('base');
    const rev = 'HEAD:../../../../etc/passwd';
    await expectContained(repo, () => {
      for (const args of [['pr', '--base', rev, '--head', 'HEAD'], ['pr', '--base', 'HEAD', '--head', rev], ['stale', '--since', rev]]) {
        const r = cli(args, repo.dir);
        expectKnownError(r, rev);
        expect(r.stderr).not.toContain('not inside a git repository');
      }
    });
  });
});
