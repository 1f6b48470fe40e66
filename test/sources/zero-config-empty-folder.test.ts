import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, pullRequestRepo } from '../helpers/git-repo.js';

// `.adr-dir` names a folder nobody filled (atlassian/github-for-jira keeps one pointing at
// docs/architecture/decisions, which is not there). Without a config file the notice said
// "read decision records from docs/architecture/decisions/" and, on the next line, search and
// for said "no decision-record folder such as docs/adr/": both wrong about the same folder.
describe('a records folder named by .adr-dir that holds no record', () => {
  it('the notice and "nothing found" say the folder is not there and how to write the first record', () => {
    const repo = makeRepo({ '.adr-dir': 'docs/architecture/decisions\n', 'src/app.ts': 'export const port = 8080;\n', 'README.md': '# Issue sync\n' });
    repo.commit('code');
    const search = runCli(['search', 'how are webhook secrets stored'], { cwd: repo.dir });
    expect(search.code, search.stderr).toBe(0);
    // the folder is not in the tree: no "yet" is promised (papercuts32, DEC-137)
    expect(search.stderr).toContain('no .contextia/config.yaml: .adr-dir names docs/architecture/decisions/ for decision records, but that folder is not in the repository: nothing was read from it');
    expect(search.stdout).toContain('nothing found: docs/architecture/decisions/ (named by .adr-dir) is not in the repository, so no decision records were read from it; correct the folder named, or `git ctx new decision` writes the first record there');
    expect(search.stdout).not.toContain('no decision-record folder');
    const forFile = runCli(['for', 'src/app.ts'], { cwd: repo.dir });
    expect(forFile.stdout).toContain('docs/architecture/decisions/ (named by .adr-dir) is not in the repository');
    // init pins the folder; it found none of its records, and says so
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('Decision-record folders named, no records yet, read in place (sources: in config.yaml):\n  docs/architecture/decisions/  0 records');
    expect(init.stdout).not.toContain('Decision records found');
  });

  it('a folder with records is announced as before', () => {
    const repo = makeRepo({ '.adr-dir': 'doc/adr\n', 'doc/adr/0001-use-postgres.md': '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nWe store orders in Postgres.\n' });
    repo.commit('records');
    const r = runCli(['search', 'which database stores orders'], { cwd: repo.dir });
    expect(r.stderr).toContain('read decision records from doc/adr/ (found by .adr-dir); `git ctx init` pins them');
    expect(r.stdout).toContain('ADR-0001');
  });

  it('a folder that is there with only a README holds no records yet', () => {
    const repo = makeRepo({ '.adr-dir': 'docs/adr\n', 'docs/adr/README.md': '# Records\n\nOur decisions go here.\n', 'src/app.ts': 'export const port = 8080;\n' });
    repo.commit('code');
    const r = runCli(['search', 'how are webhook secrets stored'], { cwd: repo.dir });
    expect(r.stderr).toContain('read decision records from docs/adr/ (found by .adr-dir; it holds no records yet)');
    expect(r.stdout).toContain('nothing found: docs/adr/ holds no decision records yet; `git ctx new decision` writes the first');
  });
});

// identus-cloud-agent's shape (papercuts32): the records moved to another repository and
// .log4brains.yml still names docs/decisions, which is gone; check, for and search said the
// folder "holds no records yet", as if some were coming.
describe('a records folder named by .log4brains.yml that is not in the tree', () => {
  it('check, for and search say the folder is absent and that nothing was read from it', () => {
    const repo = makeRepo({
      '.log4brains.yml': 'project:\n  name: ledger-agent\n  tz: Europe/Paris\n  adrFolder: ./docs/decisions\n  packages: []\n',
      'docs/guides/running.md': '# Running the agent\n\nStart it with the compose file.\n',
      'agent/src/Main.scala': 'object Main extends App { println("agent") }\n',
    });
    repo.commit('records moved out');
    const notice = '.log4brains.yml names docs/decisions/ for decision records, but that folder is not in the repository: nothing was read from it';
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain(notice);
    expect(check.stderr).not.toContain('yet');
    const forFile = runCli(['for', 'agent/src/Main.scala'], { cwd: repo.dir });
    expect(forFile.stderr).toContain(notice);
    expect(forFile.stdout).toContain('nothing found: docs/decisions/ (named by .log4brains.yml) is not in the repository, so no decision records were read from it');
    expect(forFile.stdout).not.toContain('yet');
    const search = runCli(['search', 'how is the agent started', '--json'], { cwd: repo.dir });
    expect(JSON.parse(search.stdout).zero_config.sources).toEqual([{ dir: 'docs/decisions', records: 0, from: '.log4brains.yml', missing: true }]);
  });

  it('the PR comment says the same, not that records were read from it', () => {
    const s = pullRequestRepo({
      files: { '.log4brains.yml': 'project:\n  name: ledger-agent\n  adrFolder: ./docs/decisions\n', 'agent/src/Main.scala': 'object Main extends App\n' },
      change: { 'agent/src/Main.scala': 'object Main extends App { println("v2") }\n' },
    });
    const md = runCli(['pr', '--base', 'main', '--head', 'feature', '--fail-on', 'never'], { cwd: s.repo.dir });
    expect(md.stdout).toContain('No `.contextia/config.yaml` at the head: `docs/decisions/` is named by \\.log4brains\\.yml but not in the repository, so nothing was read from it.');
    expect(md.stdout).not.toContain('read from `docs/decisions/`');
  });
});
