import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// `.adr-dir` names a folder nobody filled (atlassian/github-for-jira keeps one pointing at
// docs/architecture/decisions, which is not there). Without a config file the notice said
// "read decision records from docs/architecture/decisions/" and, on the next line, search and
// for said "no decision-record folder such as docs/adr/": both wrong about the same folder.
describe('a records folder named by .adr-dir that holds no record', () => {
  it('the notice and "nothing found" say the folder is empty and how to write the first record', () => {
    const repo = makeRepo({ '.adr-dir': 'docs/architecture/decisions\n', 'src/app.ts': 'export const port = 8080;\n', 'README.md': '# Issue sync\n' });
    repo.commit('code');
    const search = runCli(['search', 'how are webhook secrets stored'], { cwd: repo.dir });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stderr).toContain('read decision records from docs/architecture/decisions/ (found by .adr-dir; it holds no records yet)');
    expect(search.stdout).toContain('nothing found: docs/architecture/decisions/ holds no decision records yet; `git ctx new decision` writes the first');
    expect(search.stdout).not.toContain('no decision-record folder');
    const forFile = runCli(['for', 'src/app.ts'], { cwd: repo.dir });
    expect(forFile.stdout).toContain('docs/architecture/decisions/ holds no decision records yet');
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
});
