import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// Real-shaped decision records (adr-tools, MADR with options, reStructuredText, a record whose
// first paragraph is only a pointer, rules under "Naming" and "Policy", the meta-records) and
// the bundled example, exported into every format.

const FIXTURE = path.join(ROOT, 'test/fixtures/rules-adr');
const EXAMPLE = path.join(ROOT, '.contextia-example');
const read = (dir: string, p: string) => readFileSync(path.join(dir, p), 'utf8');
const json = (r: { stdout: string }) => JSON.parse(r.stdout);
const ALL = ['agents', 'claude', 'gemini', 'cursor', 'copilot', 'claude-rules', 'kiro', 'windsurf'];
const formatArgs = (fs: string[]) => fs.flatMap((f) => ['--format', f]);

function repoFrom(src: string) {
  const repo = makeRepo();
  cpSync(src, repo.dir, { recursive: true });
  repo.commit('records');
  return repo;
}

/** the section of AGENTS.md (or a whole file) for one record */
function entry(text: string, id: string): string {
  const at = text.indexOf(`# ${id}: `);
  expect(at, `${id} in the rule file`).toBeGreaterThan(-1);
  const next = text.indexOf('\n### ', at + 1);
  return text.slice(at, next < 0 ? undefined : next);
}

describe('rules export: what each entry says', () => {
  it('carries the decision of every kind of record, resolves pointers and links, leaves out the meta-records', () => {
    const repo = repoFrom(FIXTURE);
    const r = runCli(['rules', 'export', '--json', '--format', 'agents', '--format', 'cursor'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const plan = json(r);
    // adr-tools' "Record architecture decisions" and MADR's "Use Markdown Architectural Decision Records"
    expect(plan.records).toEqual(['ADR-0002', 'ADR-0005', 'ADR-0006', 'ADR-0009', 'ADR-0010']);
    const agents = read(repo.dir, 'AGENTS.md');
    expect(agents).not.toContain('Record architecture decisions');

    // reStructuredText: underlines, field list, ``literal``, `text <link>`_, :: block and a note as markdown
    const pg = entry(agents, 'ADR-0002');
    expect(pg).not.toMatch(/^[=-]{3,}$/m);
    expect(pg).not.toContain(':Status:');
    expect(pg).not.toContain('relational database');
    expect(pg).toContain('Use PostgreSQL 15 for all services. Connect through `pgbouncer`; see [the runbook](doc/runbooks/db.md).');
    expect(pg).toContain('Connection strings look like this:\n\n```\npostgres://app@pgbouncer:6432/app\n```');
    expect(pg).toContain('**Note:** Never connect as the `postgres` superuser.');
    expect(pg).not.toContain('migration tool');

    // a pointer-only first paragraph: resolved to the record's id and title, the rules under "Naming" kept, no status or context
    const naming = entry(agents, 'ADR-0005');
    expect(naming).toContain('**See [ADR-0009 (API naming for batches)](doc/adr/0009-api-naming-for-batches.md) for updates!**');
    expect(naming).toContain('* Methods that only read start with `get`');
    expect(naming).toContain('* Methods that create or change start with `post`');
    expect(naming).not.toMatch(/Date:|Accepted|argued about names/);

    // rules under "Policy"; a bare "See 0009" names the record; nothing after the policy
    const testing = entry(agents, 'ADR-0006');
    expect(testing).toContain('See ADR-0009 (API naming for batches) for how batch endpoints are tested.');
    for (const rule of ['React Testing Library', 'Rosie factories', 'No snapshot tests.']) expect(testing).toContain(rule);
    expect(testing).not.toMatch(/Snapshot tests broke|deleted as their components/);

    // MADR with options: the outcome only, said once (its summary is the same sentence)
    const vitest = entry(agents, 'ADR-0010');
    expect(vitest.split('Chosen option: "Vitest"').length).toBe(2);
    expect(vitest).not.toMatch(/Decision Drivers|Mocha|Pros and Cons|Good, because|deciders/i);
    expect(vitest).toContain('Applies to `web/src/**/*.{ts,tsx}`.');

    // links rewritten for the folder of the rule file
    expect(read(repo.dir, '.cursor/rules/ADR-0002.mdc')).toContain('[the runbook](../../doc/runbooks/db.md)');
    expect(read(repo.dir, '.cursor/rules/ADR-0005.mdc')).toContain('(../../doc/adr/0009-api-naming-for-batches.md)');

    // the meta-record comes back on request
    repo.write({ '.contextia/config.yaml': read(repo.dir, '.contextia/config.yaml') + 'rule_files:\n  include_meta: true\n' });
    expect(json(runCli(['rules', 'export', '--json', '--dry-run'], { cwd: repo.dir })).records).toEqual(['ADR-0000', 'ADR-0001', 'ADR-0002', 'ADR-0005', 'ADR-0006', 'ADR-0009', 'ADR-0010']);
  });

  it('says a contextia summary once when the decision repeats it', () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Money as integers\nstatus: accepted\nsummary: Store money as integer minor units.\n---\n# Money as integers\n\n## Context\n\nFloats drift.\n\n## Decision\n\nStore money as integer minor units.\n',
    });
    repo.commit('init');
    expect(runCli(['rules', 'export'], { cwd: repo.dir }).code).toBe(0);
    expect(read(repo.dir, 'AGENTS.md').split('Store money as integer minor units.').length).toBe(2);
  });
});

describe('rules export: every agent\u2019s scoped format', () => {
  it('writes Claude Code rules, Kiro steering and Windsurf rules with each tool\u2019s scoping field', () => {
    const repo = repoFrom(EXAMPLE);
    const r = runCli(['rules', 'export', ...formatArgs(['claude-rules', 'kiro', 'windsurf'])], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    // Claude Code: paths as a YAML list; records without paths in CLAUDE.md's managed section, not always-loaded rule files
    expect(read(repo.dir, '.claude/rules/DEC-BILLING-001.md')).toMatch(/^---\npaths:\n {2}- "src\/billing\/invoice\/totals\.ts"\n---\n<!-- generated by git ctx rules export from DEC-BILLING-001 /);
    expect(existsSync(path.join(repo.dir, '.claude/rules/NORM-ASYNC-001.md'))).toBe(false);
    const claude = read(repo.dir, 'CLAUDE.md');
    expect(claude).toContain('### NORM-ASYNC-001:');
    expect(claude).not.toContain('### DEC-BILLING-001:');
    expect(claude).toContain('Records that apply to particular paths are in `.claude/rules/`.');
    // Kiro: fileMatch with one pattern as a string; norms without paths always; decisions without paths on request
    expect(read(repo.dir, '.kiro/steering/NORM-LOGGING-001.md')).toMatch(/^---\ninclusion: fileMatch\nfileMatchPattern: "src\/billing\/logger\.ts"\n---\n/);
    expect(read(repo.dir, '.kiro/steering/NORM-ASYNC-001.md')).toMatch(/^---\ninclusion: always\n---\n/);
    const unscopedDecision = readdirSync(path.join(repo.dir, '.kiro/steering')).map((f) => read(repo.dir, `.kiro/steering/${f}`)).find((t) => t.includes('inclusion: manual'));
    expect(unscopedDecision).toBeDefined();
    // Windsurf: glob trigger, always_on for norms without paths
    expect(read(repo.dir, '.windsurf/rules/DEC-CURRENCY-001.md')).toMatch(/^---\ntrigger: glob\ndescription: "DEC-CURRENCY-001: [^\n]*"\nglobs: src\/billing\/currency\/rates\.ts\n---\n/);
    expect(read(repo.dir, '.windsurf/rules/NORM-ERROR-001.md')).toMatch(/^---\ntrigger: always_on\n---\n/);
    expect(runCli(['rules', 'export', '--check', ...formatArgs(['claude-rules', 'kiro', 'windsurf'])], { cwd: repo.dir }).code).toBe(0);
  });

  it('spells out brace globs for formats that split on commas, and keeps them where the tool reads a list', () => {
    const repo = repoFrom(FIXTURE);
    expect(runCli(['rules', 'export', ...formatArgs(ALL)], { cwd: repo.dir }).code).toBe(0);
    expect(read(repo.dir, '.cursor/rules/ADR-0010.mdc')).toContain('\nglobs: web/src/**/*.ts,web/src/**/*.tsx\n');
    expect(read(repo.dir, '.github/instructions/ADR-0010.instructions.md')).toContain('applyTo: "web/src/**/*.ts,web/src/**/*.tsx"');
    expect(read(repo.dir, '.windsurf/rules/ADR-0010.md')).toContain('\nglobs: web/src/**/*.ts,web/src/**/*.tsx\n');
    expect(read(repo.dir, '.kiro/steering/ADR-0010.md')).toContain('fileMatchPattern: "web/src/**/*.{ts,tsx}"');
    expect(read(repo.dir, '.claude/rules/ADR-0010.md')).toContain('paths:\n  - "web/src/**/*.{ts,tsx}"');
  });

  it('takes a format from its folder even when the folder is empty (git tracks no empty folder)', () => {
    const repo = repoFrom(EXAMPLE);
    for (const d of ['.cursor/rules', '.claude/rules', '.kiro/steering', '.windsurf/rules']) mkdirSync(path.join(repo.dir, d), { recursive: true });
    const plan = json(runCli(['rules', 'export', '--dry-run', '--json'], { cwd: repo.dir }));
    expect(plan.formats).toEqual(['agents', 'cursor', 'claude-rules', 'kiro', 'windsurf']);
  });

  it('replaces only its own files: hand-written rules of every folder and text around CLAUDE.md\u2019s section kept byte for byte', () => {
    const repo = repoFrom(EXAMPLE);
    const hand: Record<string, string> = {
      '.claude/rules/style.md': '---\npaths:\n  - "src/**/*.ts"\n---\n# Style\r\n\r\nTabs, no final newline',
      '.kiro/steering/product.md': '---\ninclusion: always\n---\n# Product\n\nWe sell invoices.\n',
      '.windsurf/rules/tone.md': '---\ntrigger: always_on\n---\nShort commit messages.\n',
      'CLAUDE.md': '# Ours\n\nKeep this.\n',
    };
    repo.commit('hand-written', hand);
    const fs = formatArgs(['claude-rules', 'kiro', 'windsurf']);
    expect(runCli(['rules', 'export', ...fs], { cwd: repo.dir }).code).toBe(0);
    for (const [p, t] of Object.entries(hand)) expect(read(repo.dir, p).startsWith(t), p).toBe(true);
    for (const p of Object.keys(hand).filter((p) => p !== 'CLAUDE.md')) expect(read(repo.dir, p)).toBe(hand[p]);
    repo.commit('export');
    // a record superseded: its generated files go, the hand-written ones stay
    const rec = '.contextia/system/norms/NORM-LOGGING-001.md';
    repo.write({ [rec]: read(repo.dir, rec).replace('status: active', 'status: deprecated') });
    const again = json(runCli(['rules', 'export', '--json', ...fs], { cwd: repo.dir }));
    const removed = again.files.filter((f: { action: string }) => f.action === 'remove').map((f: { path: string }) => f.path).sort();
    expect(removed).toEqual(['.claude/rules/NORM-LOGGING-001.md', '.kiro/steering/NORM-LOGGING-001.md', '.windsurf/rules/NORM-LOGGING-001.md']);
    for (const p of Object.keys(hand).filter((p) => p !== 'CLAUDE.md')) expect(read(repo.dir, p)).toBe(hand[p]);
    expect(read(repo.dir, 'CLAUDE.md').startsWith(hand['CLAUDE.md']!)).toBe(true);
    writeFileSync(path.join(repo.dir, '.kiro/steering/NORM-ASYNC-001.md'), 'hand-edited');
    expect(runCli(['check', '--json'], { cwd: repo.dir }).stdout).toContain('.kiro/steering/NORM-ASYNC-001.md');
  });
});

describe('rules import: the new formats', () => {
  it('turns hand-written Claude Code rules, Kiro steering and Windsurf rules into norms with their paths, then exports them back', () => {
    const repo = makeRepo({
      '.claude/rules/api.md': '---\npaths:\n  - "src/api/**"\n---\n# API\n\nValidate input with zod.\n',
      '.kiro/steering/tests.md': '---\ninclusion: fileMatch\nfileMatchPattern: ["**/*.test.ts", "**/*.spec.ts"]\n---\n# Tests\n\nOne behaviour per test.\n',
      '.kiro/steering/product.md': '---\ninclusion: always\n---\n# Product\n\nWe sell invoices.\n',
      '.windsurf/rules/web.md': '---\ntrigger: glob\nglobs: web/**/*.tsx\n---\n# Web\n\nFunction components only.\n',
      'src/api/x.ts': 'x\n',
      'web/a.tsx': 'x\n',
    });
    repo.commit('init');
    const plan = json(runCli(['rules', 'import', '--json'], { cwd: repo.dir }));
    const byFrom = Object.fromEntries(plan.norms.map((n: { from: string; paths: string[] }) => [n.from, n.paths]));
    expect(byFrom).toEqual({
      '.claude/rules/api.md': ['src/api/**'],
      '.kiro/steering/product.md': [],
      '.kiro/steering/tests.md': ['**/*.test.ts', '**/*.spec.ts'],
      '.windsurf/rules/web.md': ['web/**/*.tsx'],
    });
    expect(runCli(['rules', 'export'], { cwd: repo.dir }).code).toBe(0);
    expect(read(repo.dir, '.claude/rules/api.md')).toContain('Validate input with zod.');
    expect(json(runCli(['rules', 'import', '--json'], { cwd: repo.dir })).norms).toEqual([]);
    const windsurfNorm = plan.norms.find((n: { from: string }) => n.from === '.windsurf/rules/web.md');
    expect(read(repo.dir, `.windsurf/rules/${windsurfNorm.id}.md`)).toContain('trigger: glob\n');
  });
});
