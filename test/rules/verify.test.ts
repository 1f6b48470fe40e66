import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/rules-adr');
const EXAMPLE = path.join(ROOT, '.contextia-example');
const json = (r: { stdout: string }) => JSON.parse(r.stdout);
const SCOPED = ['cursor', 'copilot', 'claude-rules', 'kiro', 'windsurf'].flatMap((f) => ['--format', f]);

interface Finding {
  kind: string;
  severity: string;
  tool: string;
  file?: string;
  record?: string;
  message: string;
}

function repoFrom(src: string) {
  const repo = makeRepo();
  cpSync(src, repo.dir, { recursive: true });
  repo.commit('records');
  return repo;
}

// One hand-written rule per tool, each with a pattern that tool misreads (its own dialect, as documented).
const MISREAD: Record<string, { file: string; text: string; kind: string; says: string }> = {
  cursor: { file: '.cursor/rules/braces.mdc', text: '---\ndescription: web\nglobs: web/src/**/*.{ts,tsx}\nalwaysApply: false\n---\nweb rule\n', kind: 'never-loads', says: 'globs: ["web/src/**/*.{ts","tsx}"]' },
  cursorSpace: { file: '.cursor/rules/space.mdc', text: '---\ndescription: two\nglobs: src/**/*.ts, web/**/*.tsx\nalwaysApply: false\n---\ntwo globs\n', kind: 'misread', says: 'never for web/src/App.tsx' },
  copilot: { file: '.github/instructions/docs.instructions.md', text: '---\napplyTo: "doc/runbooks/**"\n---\nrunbooks\n', kind: 'misread', says: 'also for Doc/Runbooks/Old.md' },
  claude: { file: '.claude/rules/api.md', text: '---\npaths: "src/**/*.ts,web/**/*.tsx"\n---\none string\n', kind: 'never-loads', says: 'paths: ["src/**/*.ts,web/**/*.tsx"]' },
  kiro: { file: '.kiro/steering/both.md', text: '---\ninclusion: fileMatch\nfileMatchPattern: "src/**/*.ts,web/**/*.tsx"\n---\ncomma list\n', kind: 'never-loads', says: 'fileMatchPattern: ["src/**/*.ts,web/**/*.tsx"]' },
  kiroDot: { file: '.kiro/steering/dot.md', text: '---\ninclusion: fileMatch\nfileMatchPattern: "./src/**"\n---\nleading dot\n', kind: 'never-loads', says: 'fileMatchPattern: ["./src/**"]' },
  windsurf: { file: '.windsurf/rules/web.md', text: '---\ntrigger: glob\nglobs: src/**/*.ts,web/**/*.{ts,tsx}\n---\nweb\n', kind: 'misread', says: 'globs: ["src/**/*.ts","web/**/*.{ts","tsx}"] and would load it for 1 file(s) instead of 2; never for web/src/App.tsx' },
};

describe('git ctx rules verify', () => {
  it('passes every rule git-ctx exports, in every format, on the example and on decision records', () => {
    for (const src of [EXAMPLE, FIXTURE]) {
      const repo = repoFrom(src);
      expect(runCli(['rules', 'export', ...SCOPED], { cwd: repo.dir }).code).toBe(0);
      const r = runCli(['rules', 'verify', '--json'], { cwd: repo.dir });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const report = json(r);
      expect(report.findings.filter((f: Finding) => f.severity === 'error')).toEqual([]);
      expect(report.rules.length).toBeGreaterThan(0);
      for (const rule of report.rules) expect(rule.matches, rule.file).toBe(rule.intended);
      // the brace glob of ADR-0010 reaches the same file in every format
      if (src === FIXTURE) expect(report.rules.filter((x: { record?: string }) => x.record === 'ADR-0010').map((x: { format: string; matches: number }) => `${x.format} ${x.matches}`).sort()).toEqual(['claude-rules 1', 'copilot 1', 'cursor 1', 'kiro 1', 'windsurf 1']);
    }
  });

  it('finds the pattern each tool misreads, says what it would match instead, and exits 1', () => {
    const repo = repoFrom(FIXTURE);
    expect(runCli(['rules', 'export', ...SCOPED], { cwd: repo.dir }).code).toBe(0);
    const files: Record<string, string> = { 'Doc/Runbooks/Old.md': '# old\n' };
    for (const m of Object.values(MISREAD)) files[m.file] = m.text;
    repo.commit('hand-written rules', files);
    const r = runCli(['rules', 'verify', '--json'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const findings: Finding[] = json(r).findings;
    for (const [tool, m] of Object.entries(MISREAD)) {
      const f = findings.find((x) => x.file === m.file);
      expect(f, tool).toBeDefined();
      expect(f!.kind, tool).toBe(m.kind);
      expect(f!.severity).toBe('error');
      expect(f!.message, tool).toContain(m.says);
    }
    // the human report names them too
    const human = runCli(['rules', 'verify'], { cwd: repo.dir });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('.kiro/steering/both.md would never load');
    // and check (so the pre-commit hook) reports them: hand-written files under rule-file-scope
    const check = json(runCli(['check', '--json'], { cwd: repo.dir })).findings.filter((f: { rule: string }) => f.rule.startsWith('rule-file-'));
    expect(check.map((f: { rule: string; file: string }) => `${f.rule} ${f.file}`).sort()).toEqual(Object.values(MISREAD).map((m) => `rule-file-scope ${m.file}`).sort());
    // a generated rule whose record's paths name no file is drift
    repo.write({ 'doc/adr/0010-use-vitest.md': readFileSync(path.join(repo.dir, 'doc/adr/0010-use-vitest.md'), 'utf8').replace('web/src/', 'web/gone/') });
    runCli(['rules', 'export', ...SCOPED], { cwd: repo.dir });
    const drift = json(runCli(['check', '--json'], { cwd: repo.dir })).findings.filter((f: { rule: string }) => f.rule === 'rule-file-drift');
    expect(drift.map((f: { file: string }) => f.file).sort()).toEqual(['.claude/rules/ADR-0010.md', '.cursor/rules/ADR-0010.mdc', '.github/instructions/ADR-0010.instructions.md', '.kiro/steering/ADR-0010.md', '.windsurf/rules/ADR-0010.md']);
    expect(drift[0].message).toContain('would never load');
  });

  it('reports exclusions a format cannot express and records scoped differently by two formats', () => {
    const repo = makeRepo({
      '.contextia/system/norms/NORM-001.md': '---\nid: NORM-001\ntype: norm\ntitle: Docs style\nstatus: active\nsummary: Short sentences.\npaths: [docs, "!docs/legacy/**"]\n---\n# Docs style\n\nShort sentences.\n',
      'docs/a.md': 'a\n',
      'docs/legacy/old.md': 'old\n',
      'Docs/B.md': 'b\n',
    });
    repo.commit('init');
    expect(runCli(['rules', 'export', ...SCOPED], { cwd: repo.dir }).code).toBe(0);
    const report = json(runCli(['rules', 'verify', '--json'], { cwd: repo.dir }));
    const kinds = (k: string) => report.findings.filter((f: Finding) => f.kind === k);
    expect(kinds('exclusion').map((f: Finding) => f.tool).sort()).toEqual(['claude', 'copilot', 'cursor', 'kiro', 'windsurf']);
    expect(kinds('exclusion')[0].message).toContain('!docs/legacy/**');
    // Copilot matches applyTo ignoring case: it also loads the norm for Docs/B.md
    expect(kinds('misread').map((f: Finding) => f.tool)).toEqual(['copilot']);
    expect(kinds('scope-differs')).toEqual([expect.objectContaining({ record: 'NORM-001', message: expect.stringContaining('copilot 3') })]);
  });

  it('prints what each tool loads on every request and at most for one file, and warns above a limit', () => {
    const repo = repoFrom(EXAMPLE);
    expect(runCli(['rules', 'export', '--format', 'agents', ...SCOPED], { cwd: repo.dir }).code).toBe(0);
    const report = json(runCli(['rules', 'verify', '--json'], { cwd: repo.dir }));
    const cost = (tool: string) => report.costs.find((c: { tool: string }) => c.tool === tool);
    // Claude Code: CLAUDE.md's section on every request; the example's totals.ts loads its scoped rules on top
    expect(cost('claude').alwaysFiles).toEqual(['CLAUDE.md']);
    expect(cost('claude').alwaysTokens).toBeGreaterThan(50);
    expect(cost('claude').limit).toMatchObject({ chars: 40000, of: 'always' });
    expect(cost('kiro').alwaysFiles).toEqual(['.kiro/steering/NORM-ASYNC-001.md', '.kiro/steering/NORM-ERROR-001.md']); // the norms without paths (inclusion: always)
    expect(cost('cursor').heaviest).toMatchObject({ rules: expect.any(Number), tokens: expect.any(Number) });
    expect(cost('cursor').heaviest.path).toMatch(/^src\/billing\//);
    expect(cost('windsurf').limit).toMatchObject({ chars: 12000, of: 'file' });
    expect(report.findings.filter((f: Finding) => f.kind === 'over-limit')).toEqual([]);
    // a configured limit (flag or rule_files.limits) warns, without failing
    const low = runCli(['rules', 'verify', '--limit', 'claude=100'], { cwd: repo.dir });
    expect(low.code).toBe(0);
    expect(low.stdout).toMatch(/warning over-limit +claude loads \d+ characters on every request \(CLAUDE\.md\), above 100/);
    expect(low.stdout).toMatch(/claude +every request [\d,]+ tokens; [\d,]+ chars/);
    repo.write({ '.contextia/config.yaml': 'rule_files:\n  limits: { kiro: 10 }\n' });
    expect(json(runCli(['rules', 'verify', '--json'], { cwd: repo.dir })).findings.some((f: Finding) => f.kind === 'over-limit' && f.tool === 'kiro')).toBe(true);
  });
});
