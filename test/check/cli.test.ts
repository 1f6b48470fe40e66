import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const good = '---\nid: DEC-001\ntype: decision\nstatus: accepted\n---\n# A\n';
const broken = '---\nid: DEC-002\ntype: decision\nstatus: accepted\nlinks: [DEC-404]\n---\n# B\n';

describe('git ctx check (CLI)', () => {
  it('exits 0 when clean, 1 on errors, with human, json and sarif output', () => {
    const repo = makeRepo({ '.contextia/system/rationale/DEC-001.md': good });
    repo.commit('clean');
    const ok = runCli(['check'], { cwd: repo.dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('1 artifact checked: 0 errors');
    expect(ok.stdout).not.toContain('\u001b[');

    repo.write({ '.contextia/system/rationale/DEC-002.md': broken });
    const bad = runCli(['check'], { cwd: repo.dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('.contextia/system/rationale/DEC-002.md:5  error  links.links names DEC-404, which does not exist');

    const json = JSON.parse(runCli(['check', '--format', 'json'], { cwd: repo.dir }).stdout);
    expect(json.findings).toEqual([
      { rule: 'broken-link', id: 'DEC-002', file: '.contextia/system/rationale/DEC-002.md', line: 5, message: 'links.links names DEC-404, which does not exist', severity: 'error' },
    ]);
    const sarif = JSON.parse(runCli(['check', '--format', 'sarif'], { cwd: repo.dir }).stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results[0]).toMatchObject({ ruleId: 'broken-link', level: 'error', locations: [{ physicalLocation: { artifactLocation: { uri: '.contextia/system/rationale/DEC-002.md' }, region: { startLine: 5 } } }] });
    expect(sarif.runs[0].tool.driver.rules.some((r: { id: string }) => r.id === 'duplicate-id')).toBe(true);
  });

  it('--staged checks the index, not the working tree', () => {
    const repo = makeRepo({ '.contextia/a.md': good });
    repo.commit('clean');
    repo.write({ '.contextia/b.md': broken }); // unstaged
    expect(runCli(['check', '--staged'], { cwd: repo.dir }).code).toBe(0);
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(1);
    repo.git('add', '.contextia/b.md');
    repo.write({ '.contextia/b.md': good.replace('DEC-001', 'DEC-002') }); // fixed in worktree only
    expect(runCli(['check', '--staged'], { cwd: repo.dir }).code).toBe(1);
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });

  it('--at checks a commit; --baseline accepts known findings; --fail-on warning', () => {
    const repo = makeRepo({ '.contextia/a.md': broken });
    const first = repo.commit('broken');
    repo.commit('fixed', { '.contextia/a.md': good });
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
    expect(runCli(['check', '--at', first], { cwd: repo.dir }).code).toBe(1);
    expect(runCli(['check', '--at', 'HEAD~1', '--write-baseline', 'base.json'], { cwd: repo.dir }).code).toBe(0);
    const r = runCli(['check', '--at', 'HEAD~1', '--baseline', 'base.json'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 accepted by baseline');
    repo.write({ '.contextia/s.md': '---\nid: SPEC-1\ntype: spec\nstatus: active\n---\n' }); // orphan-spec warning
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
    expect(runCli(['check', '--fail-on', 'warning'], { cwd: repo.dir }).code).toBe(1);
  });

  it('exits 2 with a clear message on usage and environment errors', () => {
    const repo = makeRepo({ '.contextia/a.md': good });
    repo.commit('c');
    const badRev = runCli(['check', '--at', 'no-such-rev'], { cwd: repo.dir });
    expect(badRev.code).toBe(2);
    expect(badRev.stderr).toContain('unknown revision: no-such-rev');
    const badFmt = runCli(['check', '--format', 'xml'], { cwd: repo.dir });
    expect(badFmt.code).toBe(2);
    expect(badFmt.stderr).toMatch(/xml.*invalid|Allowed choices/i);
    const notRepo = runCli(['check'], { cwd: '/' });
    expect(notRepo.code).toBe(2);
    expect(notRepo.stderr).toContain('not inside a git repository');
    repo.write({ '.contextia/config.yaml': 'fail_on: sometimes\n' });
    const badCfg = runCli(['check'], { cwd: repo.dir });
    expect(badCfg.code).toBe(2);
    expect(badCfg.stderr).toContain('.contextia/config.yaml: fail_on must be error, warning or info');
  });

  it('refuses a config boolean it cannot read instead of silently turning the setting off', () => {
    const repo = makeRepo({ '.contextia/a.md': good });
    repo.commit('c');
    for (const [yaml, key] of [['record: yes\n', 'record'], ['global: 1\n', 'global'], ['retrieval:\n  feedback_ranking: on\n', 'retrieval.feedback_ranking']] as const) {
      repo.write({ '.contextia/config.yaml': yaml });
      const r = runCli(['check'], { cwd: repo.dir });
      expect(r.code, yaml).toBe(2);
      expect(r.stderr).toContain(`.contextia/config.yaml: ${key} must be true or false`);
    }
    repo.write({ '.contextia/config.yaml': "record: 'false'\nglobal: false\n" });
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });

  it('works without a git binary through isomorphic-git', () => {
    const repo = makeRepo({ '.contextia/a.md': good });
    repo.commit('one');
    repo.commit('two', { '.contextia/b.md': broken });
    const env = { GIT_CTX_NO_GIT: '1' };
    const head = runCli(['check', '--format', 'json'], { cwd: repo.dir, env });
    expect(head.code).toBe(1);
    expect(JSON.parse(head.stdout).findings.map((f: { rule: string }) => f.rule)).toEqual(['broken-link']);
    expect(runCli(['check', '--at', 'HEAD~1'], { cwd: repo.dir, env }).code).toBe(0);
    expect(runCli(['check', '--staged'], { cwd: repo.dir, env }).code).toBe(1);
    expect(runCli(['list', '--json'], { cwd: repo.dir, env }).stdout).toContain('DEC-002');
  });

  it('falls back to isomorphic-git when no git binary is on PATH; history rules say they were skipped', () => {
    const repo = makeRepo({ '.contextia/a.md': '---\nid: DEC-001\ntype: decision\nstatus: proposed\npaths: [src/a.ts]\n---\n# A\n', 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('one');
    const r = runCli(['check', '--format', 'json'], { cwd: repo.dir, env: { PATH: '/nonexistent' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.artifacts).toBe(1);
    expect(out.ruleErrors).toEqual([]);
    expect(out.findings.filter((f: { severity: string }) => f.severity !== 'info')).toEqual([]);
    const ctx = runCli(['context', 'DEC-001'], { cwd: repo.dir, env: { PATH: '/nonexistent' } });
    expect(ctx.code).toBe(0);
    expect(ctx.stdout).toContain(`commit: ${repo.git('rev-parse', 'HEAD')}`);
  });

  it('every command has --help', () => {
    const repo = makeRepo();
    for (const cmd of ['check', 'list', 'show']) {
      const r = runCli([cmd, '--help'], { cwd: repo.dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: git-ctx ${cmd}`);
    }
  });
});
