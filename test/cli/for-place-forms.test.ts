import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adrEntry } from '../helpers/adr.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/* `git ctx for <place>` names the place by its repository-relative path however it was written. */

const repo = () => {
  const r = makeRepo(
    Object.fromEntries([
      adrEntry('docs/adr', 1, 'contributor-guide', 'Keep the contributor guide in the README', 'New contributors could not find how to build the app.', 'The README at the root of the repository explains how to build, test and release the app.', 'One page to keep up to date.'),
      ['README.md', '# Mail app\n\nHow to build, test and release the app.\n'],
      ['app/src/Main.kt', 'fun main() = println("mail")\n'],
    ]),
  );
  r.commit('init');
  return r;
};

describe('git ctx for: the place as the repository names it', () => {
  it('./x, x/../x, an absolute path and ../x from a folder all print README.md, in human and JSON output', () => {
    const r = repo();
    const forms: [string, string][] = [
      ['./README.md', r.dir],
      ['app/../README.md', r.dir],
      [path.join(r.dir, 'README.md'), r.dir],
      ['../README.md', path.join(r.dir, 'app')],
    ];
    for (const [place, cwd] of forms) {
      const human = runCli(['for', place], { cwd });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout.split('\n')[0], place).toBe('README.md');
      const json = runCli(['for', place, '--json'], { cwd });
      expect(JSON.parse(json.stdout).query, place).toMatchObject({ kind: 'place', place: 'README.md', path: 'README.md' });
      const context = runCli(['for', place, '--format', 'context'], { cwd });
      expect(context.stdout, place).toMatch(/Records (governing|related to) README\.md\b/);
    }
    // a line or symbol written after the path stays, after the normalised path
    const line = JSON.parse(runCli(['for', './app/src/Main.kt:1', '--json'], { cwd: r.dir }).stdout);
    expect(line.query).toMatchObject({ place: 'app/src/Main.kt:1', path: 'app/src/Main.kt', line: 1 });
  });

  it("a record's own file is said to be that record, not a place it governs; a second run (kept answer) says it too", () => {
    const r = repo();
    for (let i = 0; i < 2; i++) {
      const human = runCli(['for', 'docs/adr/0001-contributor-guide.md'], { cwd: r.dir });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stderr).toContain('hint: docs/adr/0001-contributor-guide.md is the record ADR-0001 itself: git ctx show ADR-0001 prints it');
    }
    expect(runCli(['for', 'docs/adr/0001-contributor-guide.md', '--json'], { cwd: r.dir }).stderr).not.toContain('hint:');
    expect(runCli(['for', 'README.md'], { cwd: r.dir }).stderr).not.toContain('itself');
  });
});
