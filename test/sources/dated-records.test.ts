import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * A log4brains monorepo as a new user clones it: `.log4brains.yml` names a project folder and
 * one per package, records are named by their creation date (`YYYYMMDD-slug.md`, two on the
 * same day), the folder keeps index.md and template.md, and the tool's own integration tests
 * keep sample record folders (with deliberately broken links) under `integration-tests/`.
 */
const l4b = (title: string, status: string, date: string, body = '') => `# ${title}\n\n- Status: ${status}\n- Date: ${date}\n\n## Context and Problem Statement\n\nWhy ${title.toLowerCase()}.\n\n## Decision Outcome\n\nChosen option: "${title}".${body}\n`;
const REPO = {
  '.log4brains.yml': 'project:\n  name: Shelf\n  adrFolder: ./docs/adr\n  packages:\n    - name: core\n      path: ./packages/core\n      adrFolder: ./packages/core/docs/adr\n',
  'docs/adr/index.md': '# Architecture knowledge base\n',
  'docs/adr/template.md': '# [short title]\n\n- Status: [draft | proposed] <!-- optional -->\n- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->\n\n## Context and Problem Statement\n\n[Describe the context.]\n\n## Decision Outcome\n\nChosen option: "[option 1]".\n',
  'docs/adr/20200924-use-markdown-architectural-decision-records.md': l4b('Use Markdown Architectural Decision Records', 'accepted', '2020-09-24'),
  'docs/adr/20200925-multi-packages-monorepo-with-yarn-and-lerna.md': l4b('Multi-packages monorepo with Yarn and Lerna', 'accepted', '2020-09-25'),
  'docs/adr/20200925-use-prettier-for-the-code-style.md': l4b('Use Prettier for the code style', 'accepted', '2020-09-25'),
  'docs/adr/20200926-use-the-adr-number-as-its-id.md': l4b('Use the ADR number as its id', 'superseded by [20201016-use-the-slug-as-its-id](20201016-use-the-slug-as-its-id.md)', '2020-09-26'),
  'docs/adr/20201016-use-the-slug-as-its-id.md': l4b('Use the slug as its id', 'accepted', '2020-10-16', '\n\n## Links\n\n- Supersedes [20200926-use-the-adr-number-as-its-id](20200926-use-the-adr-number-as-its-id.md)'),
  'packages/core/docs/adr/20201002-use-ddd-for-the-core-api.md': l4b('Use DDD for the core API', 'accepted', '2020-10-02'),
  'packages/core/src/AdrSlug.ts': 'export class AdrSlug {\n  constructor(readonly value: string) {}\n}\n',
  'packages/core/integration-tests/ro-project/docs/adr/20200101-first-adr.md': l4b('First ADR', 'accepted', '2020-01-01'),
  'packages/core/integration-tests/ro-project/docs/adr/20201028-links.md': l4b('Links', 'accepted', '2020-10-28', '\n\n## Links\n\n- Relates to [broken](20200101-first-adr-BROKEN.md)'),
  'packages/core/integration-tests/ro-project/docs/adr/20201029-superseder.md': l4b('Superseder', 'accepted', '2020-10-29'),
  'packages/core/test/fixtures/decisions/0001-sample.md': l4b('Sample', 'accepted', '2020-01-01'),
  'packages/core/test/fixtures/decisions/0002-sample.md': l4b('Sample two', 'accepted', '2020-01-02'),
  'package.json': '{"name":"shelf","private":true,"workspaces":["packages/*"]}\n',
};

const cli = (dir: string, ...args: string[]) => runCli(args, { cwd: dir });
const listed = (stdout: string) => (JSON.parse(stdout) as { artifacts: { id: string; file: string; status: string | null }[] }).artifacts;

describe('a log4brains monorepo: dated record names, test fixture folders', () => {
  it('reads the folders .log4brains.yml names, not the sample records of its tests', () => {
    const repo = makeRepo();
    repo.commit('import', REPO);
    const list = cli(repo.dir, 'list', '--json');
    expect(list.code, list.stderr).toBe(0);
    const files = listed(list.stdout).map((a) => a.file);
    expect(files).toHaveLength(6);
    expect(files.filter((f) => /integration-tests|fixtures/.test(f))).toEqual([]);
    expect(list.stderr).toContain('read decision records from docs/adr/, packages/core/docs/adr/ (found by .log4brains.yml)');
    const check = cli(repo.dir, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('a date is not a record number: one id per record, no duplicate-number warning, the supersession read', () => {
    const repo = makeRepo();
    repo.commit('import', REPO);
    const list = cli(repo.dir, 'list', '--json');
    const byFile = new Map(listed(list.stdout).map((a) => [a.file, a] as const));
    expect(byFile.get('docs/adr/20200925-multi-packages-monorepo-with-yarn-and-lerna.md')!.id).toBe('ADR-20200925-multi-packages-monorepo-with-yarn-and-lerna');
    expect(byFile.get('docs/adr/20200925-use-prettier-for-the-code-style.md')!.id).toBe('ADR-20200925-use-prettier-for-the-code-style');
    expect(byFile.get('packages/core/docs/adr/20201002-use-ddd-for-the-core-api.md')!.id).toBe('CORE-20201002-use-ddd-for-the-core-api');
    const check = cli(repo.dir, 'check', '--json');
    const rules = (JSON.parse(check.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
    expect(rules).not.toContain('duplicate-number');
    const show = cli(repo.dir, 'show', 'ADR-20200926-use-the-adr-number-as-its-id');
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/superseded_by.*ADR-20201016-use-the-slug-as-its-id/);
    // people type a dated record's date, or its file name as links and log4brains name it
    const byDate = cli(repo.dir, 'show', 'ADR-20201016');
    expect(byDate.code, byDate.stderr).toBe(0);
    expect(byDate.stdout).toMatch(/^ADR-20201016-use-the-slug-as-its-id \(decision/);
    const byName = cli(repo.dir, 'show', '20201016-use-the-slug-as-its-id', '--depth', 'summary');
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.stdout).toContain('ADR-20201016-use-the-slug-as-its-id');
    // log4brains names a package's record `<package>/<file name>`, in links and in code annotations
    const byPackage = cli(repo.dir, 'show', 'core/20201002-use-ddd-for-the-core-api', '--depth', 'meta');
    expect(byPackage.code, byPackage.stderr).toBe(0);
    expect(byPackage.stdout).toMatch(/^CORE-20201002-use-ddd-for-the-core-api \(decision/);
    const twoThatDay = cli(repo.dir, 'show', 'ADR-20200925');
    expect(twoThatDay.code).toBe(2);
    expect(twoThatDay.stderr).toContain('ADR-20200925 is ambiguous: it names 2 records: ADR-20200925-multi-packages-monorepo-with-yarn-and-lerna');
    // the date alone, as `ls` shows it at the head of the file name (it was "unknown artifact id")
    const bareDate = cli(repo.dir, 'show', '20201016', '--depth', 'meta');
    expect(bareDate.code, bareDate.stderr).toBe(0);
    expect(bareDate.stdout).toMatch(/^ADR-20201016-use-the-slug-as-its-id \(decision/);
    const bareDay = cli(repo.dir, 'show', '20200925');
    expect(bareDay.code).toBe(2);
    expect(bareDay.stderr).toContain('20200925 is ambiguous: it names 2 records: ADR-20200925-multi-packages-monorepo-with-yarn-and-lerna');
    // a year is no record's name start: "2020" is not "2020…-"
    expect(cli(repo.dir, 'show', '2020').stderr).toContain('unknown artifact id: 2020');
  });

  it("a code annotation in log4brains' own form (`@adr core/20201002-…`) names the package's record: check passes, trace finds it", () => {
    const repo = makeRepo();
    repo.commit('import', { ...REPO, 'packages/core/src/Domain.ts': '// @adr core/20201002-use-ddd-for-the-core-api\nexport class Domain {}\n' });
    const check = cli(repo.dir, 'check', '--json');
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).not.toContain('annotation-unknown-id');
    const trace = cli(repo.dir, 'trace', 'packages/core/src/Domain.ts', '--json');
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stdout).toContain('CORE-20201002-use-ddd-for-the-core-api');
  });

  it('new decision goes to the project folder, named by its date as the others are', () => {
    const repo = makeRepo();
    repo.commit('import', REPO);
    const dry = cli(repo.dir, 'new', 'decision', '--title', 'Use pnpm workspaces', '--date', '2026-11-28', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const r = JSON.parse(dry.stdout) as { id: string; file: string; text: string };
    expect(r.file).toBe('docs/adr/20261128-use-pnpm-workspaces.md');
    expect(r.id).toBe('ADR-20261128-use-pnpm-workspaces');
    expect(r.text).toMatch(/^# Use pnpm workspaces\n\n- Status: proposed\n- Date: 2026-11-28\n/);
    const made = cli(repo.dir, 'new', 'decision', '--title', 'Use pnpm workspaces', '--date', '2026-11-28');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout.trim()).toBe('docs/adr/20261128-use-pnpm-workspaces.md');
    // the same title on the same day does not overwrite the first
    const again = cli(repo.dir, 'new', 'decision', '--title', 'Use pnpm workspaces', '--date', '2026-11-28');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('docs/adr/20261128-use-pnpm-workspaces-2.md');
  });
});

describe('records named by an underscored date (2020_03_03_topic.md)', () => {
  const rec = (title: string, date: string) => `# ${title}\n\n* Status: accepted\n* Date: ${date}\n\n## Context and Problem Statement\n\nWhy ${title.toLowerCase()}.\n\n## Decision Outcome\n\nChosen option: "${title}".\n`;
  const FILES = {
    'adr/_readme.md': '# Architectural decision records\n',
    'adr/_template.md': '# [short title]\n\n* Status: [proposed | accepted]\n',
    'adr/2020_03_03_api_product_option_values.md': rec('Product option values in the API', '2020-03-03'),
    'adr/2020_03_03_api_translations.md': rec('Translations in the API', '2020-03-03'),
    'adr/2020_05_13_handling_non_crud_operations_in_api.md': rec('Handling non-CRUD operations in the API', '2020-05-13'),
    'src/Api/Translations.php': '<?php\nfinal class Translations {}\n',
  };

  it('are not numbered by their year: one id per record, no duplicate-number or renumber warning', () => {
    const repo = makeRepo();
    repo.commit('import', FILES);
    const list = cli(repo.dir, 'list', '--json');
    expect(list.code, list.stderr).toBe(0);
    const ids = listed(list.stdout).map((a) => a.id).sort();
    expect(ids).toEqual([
      'ADR-2020-03-03-api-product-option-values',
      'ADR-2020-03-03-api-translations',
      'ADR-2020-05-13-handling-non-crud-operations-in-api',
    ]);
    const check = cli(repo.dir, 'check', '--json');
    const rules = (JSON.parse(check.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
    expect(rules).not.toContain('duplicate-number');
    expect(check.stdout).not.toMatch(/renumber/);
  });

  it('new decision names the file by its date with underscores, as the folder does', () => {
    const repo = makeRepo();
    repo.commit('import', FILES);
    const dry = cli(repo.dir, 'new', 'decision', '--title', 'Use API Platform filters', '--date', '2026-11-28', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { file: string }).file).toBe('adr/2026_11_28_use_api_platform_filters.md');
  });
});
