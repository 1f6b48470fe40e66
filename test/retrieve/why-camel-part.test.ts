import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Answer = { results: { id: string; why: { kind: string; text: string }[] }[] };
const keywordsWhy = (stdout: string, id: string) =>
  (JSON.parse(stdout) as Answer).results
    .find((r) => r.id === id)!
    .why.filter((w) => w.kind === 'keywords')
    .map((w) => w.text)
    .join(' | ');

// thunderbird-android's naming record gives examples (`K9AppNameProvider`, `DefaultImapFolder`,
// `DatabaseMessageStore`); for a Kotlin file that says only "provider", "default" and "store",
// `for` explained "matches K9AppNameProvider, DefaultImapFolder, DatabaseMessageStore": names
// the file never uses (DEC-086). A name stands for its words only when two of them matched.
describe('a camel-case name of which the place matched one word', () => {
  it('is explained by that word; a name whose words both matched is still shown whole', () => {
    const repo = makeRepo({
      'docs/adr/0004-naming-conventions.md':
        '# 4. Naming conventions for interfaces and their implementations\n\nDate: 2024-03-01\n\n## Status\n\nAccepted\n\n## Decision\n\nName an implementation after what distinguishes it: `DatabaseMessageStore` or `InMemoryMessageStore` for `MessageStore`. App-specific ones take `K9` or `Tb`, as `K9AppNameProvider`. With one production implementation, use `Default`, as `DefaultImapFolder`.\n',
      'app/src/main/kotlin/net/example/account/AccountSettingsProvider.kt':
        'package net.example.account\n\n/** The default settings of an account, from the settings store. */\ninternal class AccountSettingsProvider(private val store: SettingsStore) {\n    fun provide(default: Boolean): Settings = store.load() ?: Settings(default)\n}\n',
      'app/src/main/kotlin/net/example/mail/ImapFolderLoader.kt':
        'package net.example.mail\n\n/** Loads an IMAP folder; the default one when none is named. */\nclass ImapFolderLoader(private val folders: DefaultImapFolder) {\n    fun load(name: String?) = folders.open(name ?: "INBOX")\n}\n',
    });
    repo.commit('records and code');

    const place = runCli(['for', 'app/src/main/kotlin/net/example/account/AccountSettingsProvider.kt', '--json', '--all'], { cwd: repo.dir });
    expect(place.code, place.stderr).toBe(0);
    const why = keywordsWhy(place.stdout, 'ADR-0004');
    expect(why).toMatch(/\bprovider\b/);
    expect(why).not.toMatch(/K9AppNameProvider|DatabaseMessageStore|DefaultImapFolder/);

    const folder = runCli(['for', 'app/src/main/kotlin/net/example/mail/ImapFolderLoader.kt', '--json', '--all'], { cwd: repo.dir });
    expect(folder.code, folder.stderr).toBe(0);
    expect(keywordsWhy(folder.stdout, 'ADR-0004')).toContain('DefaultImapFolder');
  });
});
