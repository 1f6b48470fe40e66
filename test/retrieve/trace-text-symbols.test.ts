import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// On a Kotlin Android monorepo (DEC-086), `for path.kt#Class` answered while `trace` of the same
// place said "no symbol … symbols are known in TypeScript/JavaScript, Python, Go, Java and Ruby
// files", and both refused `path.kt#Class.method`. A Kotlin class and its member are found by
// the lines that declare them, the member inside its own class's block.
const KOTLIN = `package net.example.account

internal class DefaultAccountDefaultsProvider(
    private val resources: ResourceProvider,
) : AccountDefaultsProvider {

    override fun applyDefaults(account: Account) = with(account) {
        name = resources.defaultName()
    }

    override fun applyOverwrites(account: Account, storage: Storage) {
        account.notifyNewMail = storage.getBoolean("notifyNewMail", false)
    }
}

class LegacyDefaultsProvider : AccountDefaultsProvider {
    override fun applyOverwrites(account: Account, storage: Storage) {
        account.notifyNewMail = true
    }
}
`;

type Trace = { target: { symbolRange?: { start: number; end: number } }; fallback?: { id: string }[] };

describe('trace and for of a symbol in a language the code index does not parse', () => {
  it('find `Class` and `Class.method` by their declaring lines, the method inside its own class; an unknown name says how to ask for a line', () => {
    const repo = makeRepo({
      'docs/adr/0001-account-defaults.md': '# 1. Account defaults\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\nNew-mail notifications of an account are off until the user turns them on (notifyNewMail false); AccountDefaultsProvider applies the defaults.\n',
      'app/src/main/kotlin/net/example/account/DefaultAccountDefaultsProvider.kt': KOTLIN,
    });
    repo.commit('kotlin');
    const file = 'app/src/main/kotlin/net/example/account/DefaultAccountDefaultsProvider.kt';

    const cls = runCli(['trace', `${file}#DefaultAccountDefaultsProvider`, '--json'], { cwd: repo.dir });
    expect(cls.code, cls.stderr).toBe(0);
    expect((JSON.parse(cls.stdout) as Trace).target.symbolRange).toEqual({ start: 3, end: 14 });

    const member = runCli(['trace', `${file}#LegacyDefaultsProvider.applyOverwrites`, '--json'], { cwd: repo.dir });
    expect(member.code, member.stderr).toBe(0);
    const t = JSON.parse(member.stdout) as Trace;
    expect(t.target.symbolRange).toEqual({ start: 17, end: 19 });
    expect(t.fallback?.map((f) => f.id)).toContain('ADR-0001');

    const forMember = runCli(['for', `${file}#DefaultAccountDefaultsProvider.applyOverwrites`, '--json'], { cwd: repo.dir });
    expect(forMember.code, forMember.stderr).toBe(0);
    expect((JSON.parse(forMember.stdout) as { query: { symbol: string } }).query.symbol).toBe('DefaultAccountDefaultsProvider.applyOverwrites');

    const missing = runCli(['trace', `${file}#LegacyDefaultsProvider.applyDefaults`], { cwd: repo.dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no symbol LegacyDefaultsProvider.applyDefaults');
    expect(missing.stderr).toContain(`${file}:LINE`);
  });
});
