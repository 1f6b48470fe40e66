import { describe, expect, it } from 'vitest';
import { adrEntry } from '../helpers/adr.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/*
 * A search whose word names a file by a bare name (`libs.versions.toml`, not
 * `gradle/libs.versions.toml`): taken as the one file of that name, or said to be ambiguous.
 */

const TOML = ['[versions]', 'kotlin = "2.0.21"', 'coroutines = "1.9.0"', '', '[libraries]', 'kotlinx-coroutines-core = { module = "org.jetbrains.kotlinx:kotlinx-coroutines-core", version.ref = "coroutines" }', '', '[plugins]', 'kotlin-android = { id = "org.jetbrains.kotlin.android", version.ref = "kotlin" }', ''].join('\n');
const MODULE = (ns: string) => `plugins {\n    alias(libs.plugins.kotlin.android)\n}\n\nandroid {\n    namespace = "${ns}"\n}\n\ndependencies {\n    implementation(libs.kotlinx.coroutines.core)\n}\n`;

/** An Android build in the shape of a Gradle project: one version catalog, two module build files, two records. */
export function gradleRepo() {
  const repo = makeRepo(
    Object.fromEntries([
      adrEntry(
        'docs/adr',
        1,
        'central-dependency-versions',
        'Manage dependency versions in one version catalog',
        'Modules pinned their own library versions and drifted apart: two modules shipped different coroutine releases.',
        'Every module takes its dependency and plugin versions from the Gradle version catalog. No module build file writes a version number of its own.',
        'Upgrading a library is a one-line change reviewed once.',
      ),
      adrEntry('docs/adr', 2, 'kotlin-for-new-code', 'Write new code in Kotlin', 'Half the code base is Java and its null handling causes crashes.', 'New classes are written in Kotlin; Java classes are converted when they are changed.', 'Two languages for a while.'),
      ['gradle/libs.versions.toml', TOML],
      ['settings.gradle.kts', 'rootProject.name = "mail"\ninclude(":app", ":lib")\n'],
      ['app/build.gradle.kts', MODULE('net.example.mail')],
      ['lib/build.gradle.kts', MODULE('net.example.mail.lib')],
      ['app/src/main/kotlin/net/example/mail/Inbox.kt', 'package net.example.mail\n\nclass Inbox(val messages: List<String>)\n'],
    ]),
  );
  repo.commit('init');
  return repo;
}

const ids = (json: { results: { id: string }[] }) => json.results.map((x) => x.id);

describe('search: a bare file name', () => {
  it('one file of that name: answered as `for` that file, saying which file it took', () => {
    const repo = gradleRepo();
    const human = runCli(['search', 'libs.versions.toml'], { cwd: repo.dir });
    expect(human.code, human.stderr).toBe(0);
    const [head, note] = human.stdout.split('\n');
    expect(head).toBe('gradle/libs.versions.toml');
    expect(note).toBe('  libs.versions.toml: taken as gradle/libs.versions.toml, the one file of that name');
    const json = JSON.parse(runCli(['search', 'libs.versions.toml', '--json'], { cwd: repo.dir }).stdout);
    expect(json.query).toMatchObject({ kind: 'place', place: 'gradle/libs.versions.toml', path: 'gradle/libs.versions.toml' });
    expect(json.named).toEqual({ word: 'libs.versions.toml', files: ['gradle/libs.versions.toml'], count: 1 });
    const asFor = JSON.parse(runCli(['for', 'gradle/libs.versions.toml', '--json'], { cwd: repo.dir }).stdout);
    expect(ids(json)).toEqual(ids(asFor));
    expect(ids(json)[0]).toBe('ADR-0001');
    // the path itself is the same question, with nothing to say about a name
    const byPath = JSON.parse(runCli(['search', 'gradle/libs.versions.toml', '--json'], { cwd: repo.dir }).stdout);
    expect(byPath.query).toMatchObject({ kind: 'place', path: 'gradle/libs.versions.toml' });
    expect(byPath.named).toBeUndefined();
    expect(ids(byPath)).toEqual(ids(asFor));
    const context = runCli(['search', 'libs.versions.toml', '--format', 'context'], { cwd: repo.dir }).stdout;
    expect(context).toContain('libs.versions.toml: taken as gradle/libs.versions.toml, the one file of that name.');
  });

  it('a name several files have: searched as words, saying which files it names', () => {
    const repo = gradleRepo();
    const human = runCli(['search', 'build.gradle.kts'], { cwd: repo.dir });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.split('\n').slice(0, 2)).toEqual(['search: build.gradle.kts', '  build.gradle.kts names 2 files (app/build.gradle.kts, lib/build.gradle.kts): searched as words; `git ctx for <path>` asks about one']);
    const json = JSON.parse(runCli(['search', 'build.gradle.kts', '--json'], { cwd: repo.dir }).stdout);
    expect(json.query).toEqual({ kind: 'search', text: 'build.gradle.kts' });
    expect(json.named).toEqual({ word: 'build.gradle.kts', files: ['app/build.gradle.kts', 'lib/build.gradle.kts'], count: 2 });
  });

  it('a name no file has (a qualified identifier) and words around a name stay a search', () => {
    const repo = gradleRepo();
    const ident = JSON.parse(runCli(['search', 'kotlin.android', '--json'], { cwd: repo.dir }).stdout);
    expect(ident.query.kind).toBe('search');
    expect(ident.named).toBeUndefined();
    const words = JSON.parse(runCli(['search', 'coroutines', 'libs.versions.toml', '--json'], { cwd: repo.dir }).stdout);
    expect(words.query).toEqual({ kind: 'search', text: 'coroutines libs.versions.toml' });
    // the name is still read as the file: it says so
    expect(words.named).toEqual({ word: 'libs.versions.toml', files: ['gradle/libs.versions.toml'], count: 1 });
  });
});

describe('search: the words of a file name', () => {
  it('a record need not write a file\'s name: its words unmatched do not count against the question', () => {
    const repo = gradleRepo();
    for (const q of ['version catalog libs.versions.toml', 'version catalog gradle/libs.versions.toml']) {
      const json = JSON.parse(runCli(['search', ...q.split(' '), '--json'], { cwd: repo.dir }).stdout);
      expect(ids(json)[0], q).toBe('ADR-0001');
      expect(json.results[0].relevance, q).toBeGreaterThanOrEqual(0.17);
    }
    // words that name no file still do: a question about something no record decides stays unanswered
    const off = JSON.parse(runCli(['search', 'version', 'catalog', 'renovate', 'dependabot', '--json'], { cwd: repo.dir }).stdout);
    expect(ids(off)).toEqual([]);
  });

  it('a search that is one place with a symbol is answered as `for` that symbol (DEC-108)', () => {
    const repo = gradleRepo();
    const json = JSON.parse(runCli(['search', 'app/src/main/kotlin/net/example/mail/Inbox.kt#Inbox', '--json'], { cwd: repo.dir }).stdout);
    const asFor = JSON.parse(runCli(['for', 'app/src/main/kotlin/net/example/mail/Inbox.kt#Inbox', '--json'], { cwd: repo.dir }).stdout);
    expect(json.query).toMatchObject({ kind: 'place', path: 'app/src/main/kotlin/net/example/mail/Inbox.kt' });
    expect(json.query).toEqual(asFor.query);
    expect(ids(json)).toEqual(ids(asFor));
    // a symbol the file does not declare: said as `for` says it, with the file's symbols
    const missing = runCli(['search', 'app/src/main/kotlin/net/example/mail/Inbox.kt#Outbox'], { cwd: repo.dir });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no symbol Outbox in app/src/main/kotlin/net/example/mail/Inbox.kt');
  });
});


describe('search: several words naming files', () => {
  it('says what each word was read as, not only the first', () => {
    const repo = gradleRepo();
    const json = JSON.parse(runCli(['search', 'bump', 'libs.versions.toml', 'and', 'build.gradle.kts', '--json'], { cwd: repo.dir }).stdout);
    expect(json.named).toEqual({ word: 'libs.versions.toml', files: ['gradle/libs.versions.toml'], count: 1 });
    expect(json.alsoNamed).toEqual([{ word: 'build.gradle.kts', files: ['app/build.gradle.kts', 'lib/build.gradle.kts'], count: 2 }]);
    const human = runCli(['search', 'bump', 'libs.versions.toml', 'and', 'build.gradle.kts'], { cwd: repo.dir }).stdout.split('\n');
    expect(human[1]).toBe('  libs.versions.toml: taken as gradle/libs.versions.toml, the one file of that name');
    expect(human[2]).toMatch(/^ {2}build\.gradle\.kts names 2 files \(app\/build\.gradle\.kts, lib\/build\.gradle\.kts\)/);
  });
});

describe('search: one word that is a place with a symbol or a line', () => {
  it('`path#Symbol` and `path:line` are answered as `for` that place', () => {
    const repo = gradleRepo();
    for (const place of ['app/src/main/kotlin/net/example/mail/Inbox.kt#Inbox', 'app/src/main/kotlin/net/example/mail/Inbox.kt:3', 'Inbox.kt#Inbox']) {
      const json = JSON.parse(runCli(['search', place, '--json'], { cwd: repo.dir }).stdout);
      expect(json.query.kind, place).toBe('place');
      expect(json.query.path, place).toBe('app/src/main/kotlin/net/example/mail/Inbox.kt');
      const asFor = JSON.parse(runCli(['for', place.startsWith('Inbox') ? `app/src/main/kotlin/net/example/mail/${place}` : place, '--json'], { cwd: repo.dir }).stdout);
      expect(json.query, place).toEqual(asFor.query);
      expect(ids(json), place).toEqual(ids(asFor));
    }
    // the bare name with a symbol says which file it took
    const human = runCli(['search', 'Inbox.kt#Inbox'], { cwd: repo.dir }).stdout.split('\n');
    expect(human[1]).toBe('  Inbox.kt: taken as app/src/main/kotlin/net/example/mail/Inbox.kt, the one file of that name');
  });
});
