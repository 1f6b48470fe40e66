import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Answer = { results: { id: string }[]; weak?: { id: string }[] };
const ids = (stdout: string) => {
  const a = JSON.parse(stdout) as Answer;
  return { results: a.results.map((r) => r.id), weak: (a.weak ?? []).map((r) => r.id) };
};

// After `git ctx init` on an email client's Kotlin monorepo (DEC-086), the identity record init
// writes from the README ("manage multiple email accounts from one app …") was the second
// answer of `for` for three of eight files, through words such as account, multiple, show. It
// describes the project and every bundle carries it; it governs no file.
describe('the identity record and a place in the code', () => {
  it('is no answer for a file (said apart, under weak) and stays an answer to a question about the project', () => {
    const repo = makeRepo({
      'README.md': '# Mail\n\nA privacy-focused email app: manage multiple email accounts from one app, with a unified inbox.\n',
      'docs/adr/0001-account-defaults.md': '# 1. Account defaults\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\nA new account gets its defaults from AccountDefaultsProvider: notifications for new mail are off until the user turns them on.\n',
      'docs/adr/0002-use-kotlin.md': '# 2. Use Kotlin\n\nDate: 2024-01-03\n\n## Status\n\nAccepted\n\n## Decision\n\nWrite all new code in Kotlin.\n',
      'app/src/main/kotlin/net/example/account/AccountColorPicker.kt':
        'package net.example.account\n\n/** Picks a colour for a new account so that multiple email accounts are told apart in the unified inbox. */\nclass AccountColorPicker(private val accounts: AccountRepository) {\n    fun pickColor(): Int = COLORS.first { c -> accounts.all().none { it.color == c } }\n}\n',
    });
    repo.commit('app');
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    const identity = runCli(['show', 'IDENTITY', '--json'], { cwd: repo.dir });
    expect(identity.code, identity.stderr).toBe(0);
    repo.commit('init');

    const place = runCli(['for', 'app/src/main/kotlin/net/example/account/AccountColorPicker.kt', '--json', '--all'], { cwd: repo.dir });
    expect(place.code, place.stderr).toBe(0);
    const p = ids(place.stdout);
    expect(p.results).not.toContain('IDENTITY');
    expect(p.weak).toContain('IDENTITY');

    const question = runCli(['search', 'manage multiple email accounts unified inbox', '--json'], { cwd: repo.dir });
    expect(question.code, question.stderr).toBe(0);
    expect(ids(question.stdout).results).toContain('IDENTITY');
  });
});
