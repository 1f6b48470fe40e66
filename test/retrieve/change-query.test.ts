import { describe, expect, it } from 'vitest';
import { diffPullRequest } from '../../src/git/diff.js';
import { changeQuery } from '../../src/retrieve/change-query.js';
import { terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';

const term = (w: string) => terms(w)[0]!;

/* The query of a change, read from real diffs: what each file may bring, what is not read. */

async function diffOf(base: Record<string, string>, head: Record<string, string>, remove: string[] = []) {
  const repo = makeRepo(base);
  const b = repo.commit('base');
  repo.write(head);
  repo.rm(...remove);
  const h = repo.commit('head');
  return (await diffPullRequest(repo.dir, b, h)).files;
}

describe('change query', () => {
  it('a 5,000-line file without a generated mark says no more than a short change; the title keeps its say', async () => {
    const big = Array.from({ length: 5000 }, (_, i) => `export const settlement${i} = 'settlement report notification ${i}';`).join('\n') + '\n';
    const files = await diffOf({ 'src/pay.ts': 'export function pay() {\n  return 1;\n}\n' }, { 'src/pay.ts': 'export function pay() {\n  return idempotencyKey();\n}\n', 'src/data/fields.ts': big });
    const big5000 = files.find((f) => f.path === 'src/data/fields.ts')!;
    // the parser keeps a bounded part of the file and says so
    expect(big5000.text!.added).toHaveLength(400);
    expect(big5000.text!.truncated).toBe(true);
    const q = changeQuery({ files, title: 'Send an idempotency key' });
    const fromBig = [...q.byFile.get('src/data/fields.ts')!].reduce((a, t) => a + (q.terms.get(t) ?? 0), 0);
    expect(fromBig).toBeLessThanOrEqual(40);
    expect(q.terms.get(term('idempotency'))!).toBeGreaterThan(q.terms.get(term('settlement')) ?? 0);
    expect(q.terms.get(term('idempotency'))!).toBeGreaterThan(3);
  });

  it('lockfiles, CI settings, binaries, marked generated files and records are not read; a deletion is read from its removed lines', async () => {
    const files = await diffOf(
      { 'yarn.lock': 'a@1:\n  version "1"\n', '.github/workflows/ci.yml': 'on: push\n', 'src/old-name.ts': 'export const a = 1;\n', 'src/gone.ts': 'export function removedThing() {}\n', 'docs/adr/0001-x.md': '# 1. X\n' },
      { 'yarn.lock': 'a@2:\n  version "2"\n', '.github/workflows/ci.yml': 'on: pull_request\n', 'src/api.generated.ts': '// @generated\nexport const b = 2;\n', 'img.png': '\u0000\u0001binary', 'docs/adr/0001-x.md': '# 1. X\n\nMore.\n' },
      ['src/old-name.ts', 'src/gone.ts'],
    );
    const q = changeQuery({ files, recordDirs: ['docs/adr'] });
    const skipped = Object.fromEntries(q.skipped.map((s) => [s.path, s.reason]));
    expect(skipped).toEqual({ 'yarn.lock': 'lockfile', '.github/workflows/ci.yml': 'ci', 'src/api.generated.ts': 'generated', 'img.png': 'binary', 'docs/adr/0001-x.md': 'record' });
    // the deletion is read from its removed lines
    expect(q.byFile.get('src/gone.ts')).toContain(term('removed'));
    expect(q.versionsOnly).toBe(false);
  });

  it('a typo fixed in a comment changes one word: the rest of the sentence is where it sits, weighed less', async () => {
    const files = await diffOf({ 'src/session.ts': '// retrieves an existing sesssion for users\nexport const x = 1;\n' }, { 'src/session.ts': '// retrieves an existing session for users\nexport const x = 1;\n' });
    const q = changeQuery({ files });
    expect(q.terms.get(term('sesssion'))!).toBeGreaterThan(q.terms.get(term('retrieves'))!);
    expect(q.terms.get(term('users'))!).toBeLessThan(q.terms.get(term('sesssion'))!);
  });

  it('a dependency bump: only versions change, so only the names bumped are asked about', async () => {
    const files = await diffOf({ 'package.json': '{\n  "dependencies": {\n    "dugite": "1.92.0",\n    "mocha": "^9.0.0"\n  }\n}\n' }, { 'package.json': '{\n  "dependencies": {\n    "dugite": "1.93.0",\n    "mocha": "^10.0.0"\n  }\n}\n' });
    const q = changeQuery({ files, title: 'Update dependencies', body: 'Bumps [mocha](https://github.com/mochajs/mocha) from 9 to 10.\n\n> release notes: everything changed' });
    expect(q.versionsOnly).toBe(true);
    expect(q.bumped.sort()).toEqual([term('dugite'), term('mocha')].sort());
    // the description's words (update, release notes) are not asked about
    expect([...q.terms.keys()].sort()).toEqual([term('dugite'), term('mocha')].sort());
  });

  it('a number set in code is a change of the code, not a dependency bump; a version written in code is one', async () => {
    const files = await diffOf({ 'src/fetch.py': 'MAX_RETRIES = 1\n' }, { 'src/fetch.py': 'MAX_RETRIES = 3\n' });
    const q = changeQuery({ files, title: 'Retry downloads three times' });
    expect(q.versionsOnly).toBe(false);
    expect(q.terms.get(term('retries'))).toBeGreaterThan(0);
    const pinned = await diffOf({ 'src/version.py': '__version__ = "1.2.3"\n' }, { 'src/version.py': '__version__ = "1.2.4"\n' });
    expect(changeQuery({ files: pinned }).versionsOnly).toBe(true);
    const engines = await diffOf({ 'package.json': '{\n  "engines": {\n    "node": "20"\n  }\n}\n' }, { 'package.json': '{\n  "engines": {\n    "node": "22"\n  }\n}\n' });
    expect(changeQuery({ files: engines }).versionsOnly).toBe(true);
  });

  it('a range of versions is a version too: widening the engines of three manifests asks only about what they name', async () => {
    const manifest = (range: string) => `{\n  "engines": {\n    "node": "${range}",\n    "npm": ">=9 <11"\n  },\n  "engineStrict": true\n}\n`;
    const files = await diffOf(
      { 'package.json': manifest('^20'), 'src/AdminBundle/package.json': manifest('^18 || ^20'), 'src/ShopBundle/package.json': manifest('>=18.0.0 <21') },
      { 'package.json': manifest('^20 || ^22'), 'src/AdminBundle/package.json': manifest('^20 || ^22'), 'src/ShopBundle/package.json': manifest('>=20.0.0 <23') },
    );
    const q = changeQuery({ files, title: 'Add Node 22' });
    expect(q.versionsOnly).toBe(true);
    expect([...q.terms.keys()]).toEqual([term('node')]);
    // the numbers of the range, the paths and the title's words are not asked about
    expect(q.terms.has('22')).toBe(false);
    expect(q.terms.has(term('bundle'))).toBe(false);
  });

  it('a folder every code file sits in weighs little in a change; a folder of a tenth of the code keeps its say', async () => {
    const bundles = ['Core', 'Api', 'Admin', 'Shop', 'Payment', 'User'];
    const base = Object.fromEntries(bundles.map((b) => [`src/Acme/Bundle/${b}Bundle/Amp/${b}Config.php`, `<?php\nfinal class ${b}Config { public const ID = 'acme_${b.toLowerCase()}.config'; }\n`]));
    const head = Object.fromEntries(bundles.map((b) => [`src/Acme/Bundle/${b}Bundle/Amp/${b}Config.php`, `<?php\nfinal class ${b}Config { public const ID = 'acme.${b.toLowerCase()}.config'; }\n`]));
    const files = await diffOf(base, head);
    // 40 code files: every one under src/Acme/Bundle, four of them under an Amp folder
    const codeWords = { files: 40, df: { [term('src')]: 40, [term('acme')]: 40, [term('bundle')]: 38, [term('amp')]: 4 } };
    const q = changeQuery({ files, title: 'Unify service ids' }, codeWords);
    const w = (x: string) => q.terms.get(term(x)) ?? 0;
    expect(w('amp')).toBeGreaterThan(2.5 * w('src'));
    expect(w('amp')).toBeGreaterThan(2.5 * w('bundle'));
    // the title still says most
    expect(w('unify')).toBeGreaterThan(w('src') * 4);
  });

  it('versions written as XML: central package versions, a version prefix and a Maven version only bump what they name', async () => {
    const props = (milvus: string, mongo: string) => `<Project>\n  <ItemGroup>\n    <PackageVersion Include="Testcontainers.Milvus" Version="${milvus}" />\n    <PackageVersion Include="Testcontainers.MongoDB" Version="${mongo}" />\n  </ItemGroup>\n</Project>\n`;
    const build = (v: string) => `<Project>\n  <PropertyGroup>\n    <VersionPrefix>${v}</VersionPrefix>\n  </PropertyGroup>\n</Project>\n`;
    const pom = (v: string) => `<project>\n  <dependency>\n    <artifactId>left-pad</artifactId>\n    <version>${v}</version>\n  </dependency>\n</project>\n`;
    const files = await diffOf(
      { 'dotnet/Directory.Packages.props': props('4.8.1', '4.6.0'), 'dotnet/nuget/nuget-package.props': build('1.79.0'), 'java/pom.xml': pom('1.0.0') },
      { 'dotnet/Directory.Packages.props': props('4.14.0', '4.14.0'), 'dotnet/nuget/nuget-package.props': build('1.80.0'), 'java/pom.xml': pom('1.0.1') },
    );
    const q = changeQuery({ files, title: 'Bump Testcontainers packages' });
    expect(q.versionsOnly).toBe(true);
    expect(q.bumped.sort()).toEqual([...new Set([term('testcontainers'), term('milvus'), term('mongo'), term('db')])].sort());
    // a property that is more than a version is a change of the build
    const setting = await diffOf({ 'app.csproj': '<Project>\n  <PropertyGroup>\n    <Nullable>disable</Nullable>\n  </PropertyGroup>\n</Project>\n' }, { 'app.csproj': '<Project>\n  <PropertyGroup>\n    <Nullable>enable</Nullable>\n  </PropertyGroup>\n</Project>\n' });
    expect(changeQuery({ files: setting }).versionsOnly).toBe(false);
  });
});
