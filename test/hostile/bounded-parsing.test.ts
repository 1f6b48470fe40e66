import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/index.js';
import { connect } from '../mcp/helpers.js';
import { aliasBomb, artifact, CASE_MS, cli, expectContained, expectKnownError, hostileRepo, OK_DEC } from './harness.js';

const BAD = '.contextia/system/rationale/DEC-BAD-001.md';

/** Hostile frontmatter, each refused with a finding on its own file while the rest loads. */
const CASES: { name: string; text: string; line?: number }[] = [
  { name: 'alias bomb (billion laughs)', text: artifact(`id: DEC-BAD-001\ntype: decision\n${aliasBomb(9)}`), line: 13 },
  { name: 'alias bomb under a list key', text: artifact(`id: DEC-BAD-001\ntype: decision\n${aliasBomb(7, 'k')}\nkeywords: [*k7, *k7, *k7, *k7, *k7, *k7, *k7, *k7, *k7]`) },
  { name: 'nesting 500 deep (flow)', text: artifact(`id: DEC-BAD-001\ntype: decision\nx: ${'['.repeat(500)}${']'.repeat(500)}`) },
  { name: 'nesting 200 deep (block)', text: artifact(`id: DEC-BAD-001\ntype: decision\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} v`) },
  { name: 'frontmatter over 256 KB', text: artifact(`id: DEC-BAD-001\ntype: decision\nsummary: ${'a'.repeat(300 * 1024)}`) },
];

function setup(text: string) {
  const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC, 'src/a.ts': 'export const a = 1;\n' });
  repo.commit('base');
  repo.git('checkout', '-q', '-b', 'pr');
  repo.write({ [BAD]: text });
  return repo;
}

describe.each(CASES)('bounded parsing: $name', ({ text, line }) => {
  it('CLI check reports the file (and line) and loads the rest', { timeout: CASE_MS }, async () => {
    const repo = setup(text);
    const r = await expectContained(repo, () => cli(['check'], repo.dir));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(BAD + (line ? `:${line}` : ''));
    expect(r.stdout).toMatch(/frontmatter-malformed/);
    expect(r.stdout).toContain('1 artifact checked');
  });

  it('CLI list, show and the bundle still serve the sound artifact', { timeout: CASE_MS }, async () => {
    const repo = setup(text);
    await expectContained(repo, () => {
      const list = cli(['list'], repo.dir);
      expect(list.stdout).toContain('DEC-OK-001');
      expect(list.stderr).not.toMatch(/please report|RangeError/);
      const show = cli(['show', 'DEC-OK-001'], repo.dir);
      expect(show.code, show.stderr).toBe(0);
      const bundle = cli(['DEC-OK-001'], repo.dir);
      expect(bundle.code, bundle.stderr).toBe(0);
      expect(bundle.stdout).toContain('A sound decision');
    });
  });

  it('pre-commit hook blocks with the file named', { timeout: CASE_MS }, async () => {
    const repo = setup(text);
    repo.git('add', '-A');
    const r = await expectContained(repo, () => cli(['hook', 'pre-commit'], repo.dir));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toContain(BAD);
  });

  it('PR analysis names the file among the findings', { timeout: CASE_MS }, async () => {
    const repo = setup(text);
    repo.commit('hostile');
    const r = await expectContained(repo, () => analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'pr' }));
    expect(JSON.stringify(r)).toContain(BAD);
    const md = cli(['pr', '--base', 'main', '--head', 'pr'], repo.dir);
    expect([0, 1]).toContain(md.code);
    expect(md.stderr).not.toMatch(/please report/);
  });

  it('MCP check tool (real SDK client) reports the file', { timeout: CASE_MS }, async () => {
    const repo = setup(text);
    await expectContained(repo, async () => {
      const c = await connect({ cwd: repo.dir });
      const r = await c.call('check');
      expect(r.text).toContain(BAD);
      const ok = await c.call('read_artifact', { id: 'DEC-OK-001' });
      expect(ok.isError ?? false).toBe(false);
    });
  });
});

describe('bounded parsing: config.yaml', () => {
  const CONFIGS: { name: string; text: string }[] = [
    { name: 'alias bomb', text: `${aliasBomb(9)}\n` },
    { name: 'nesting 500 deep', text: `x: ${'['.repeat(500)}${']'.repeat(500)}\n` },
    { name: 'over 256 KB', text: `# ${'a'.repeat(300 * 1024)}\n` },
  ];
  it.each(CONFIGS)('$name: one line naming config.yaml, exit 2, in the CLI and the hook', { timeout: CASE_MS }, async ({ text }) => {
    const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC, '.contextia/config.yaml': text });
    repo.git('add', '-A');
    await expectContained(repo, () => {
      for (const args of [['check'], ['list'], ['DEC-OK-001'], ['hook', 'pre-commit']]) expectKnownError(cli(args, repo.dir), '.contextia/config.yaml');
    });
  });
});
