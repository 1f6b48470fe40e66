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

// carbon-aware-sdk's records name their data sources WattTime and ElectricityMaps: a name the
// record writes as one camel-case word was explained as the two words retrieval splits it into
describe('a camel-case name in why', () => {
  it('is shown as the record spells it, in for and search; a word the record also writes alone stays that word', () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'doc/adr/0001-use-watttime.md': '# 1. Use WattTime for marginal emissions\n\n## Status\n\nAccepted\n\n## Context\n\nWe need marginal carbon intensity for the grid regions our customers run in.\n\n## Decision\n\nWe read marginal emissions from WattTime. The WattTime client signs in with a token and caches it.\n',
      'doc/adr/0002-electricity-maps.md': '# 2. ElectricityMaps for average intensity\n\n## Status\n\nAccepted\n\n## Decision\n\nAverage carbon intensity comes from ElectricityMaps; the maps are refreshed every hour, on time.\n',
      'src/emissions/WattTimeClient.ts': '/** Reads marginal emissions from the WattTime API; the login token is cached. */\nexport class WattTimeClient {\n  async marginalEmissions(region: string) {\n    return fetch(`https://api.watttime.org/v3/signal-index?region=${region}`);\n  }\n}\n',
    });
    repo.commit('records and code');

    const place = runCli(['for', 'src/emissions/WattTimeClient.ts', '--format', 'json'], { cwd: repo.dir });
    expect(place.code, place.stderr).toBe(0);
    const why = keywordsWhy(place.stdout, 'ADR-0001');
    expect(why).toMatch(/^matches .*\bWattTime\b/);
    expect(why).not.toMatch(/\bwatt\b|(?<!Watt)\btime\b/);

    const search = runCli(['search', 'electricity maps refreshed on time', '--format', 'json'], { cwd: repo.dir });
    expect(search.code, search.stderr).toBe(0);
    const maps = keywordsWhy(search.stdout, 'ADR-0002');
    // "maps" is also written alone ("the maps are refreshed"), "electricity" only inside the name
    expect(maps).toContain('ElectricityMaps');
    expect(maps).toMatch(/\bmaps\b/);
    expect(maps).toMatch(/\btime\b/);
    expect(maps).not.toMatch(/\belectricity\b/);
  });

  it('is found by its words run together: a search for "watttime" finds the record that writes WattTime', () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'doc/adr/0001-use-watttime.md': '# 1. Marginal emissions from WattTime\n\n## Status\n\nAccepted\n\n## Decision\n\nWe read marginal emissions from WattTime; its client signs in with a token.\n',
      'doc/adr/0002-electricity-maps.md': '# 2. Average intensity from ElectricityMaps\n\n## Status\n\nAccepted\n\n## Decision\n\nAverage carbon intensity comes from ElectricityMaps, refreshed every hour.\n',
    });
    repo.commit('records');
    const search = (q: string) => {
      const r = runCli(['search', q, '--format', 'json'], { cwd: repo.dir });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    const joined = search('watttime');
    expect((JSON.parse(joined) as Answer).results.map((r) => r.id)).toEqual(['ADR-0001']);
    expect(keywordsWhy(joined, 'ADR-0001')).toBe('matches WattTime');
    expect((JSON.parse(search('electricitymaps intensity')) as Answer).results[0]?.id).toBe('ADR-0002');
    // the words apart find it as before
    expect((JSON.parse(search('watt time')) as Answer).results[0]?.id).toBe('ADR-0001');
  });
});

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
