import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { installHook } from '../../src/hooks/install.js';
import { makeRepo } from '../helpers/git-repo.js';

// A .pre-commit-config.yaml written by hand: top-level items flush with `repos:`, nested lists
// indented under `hooks:` except the last one, flow lists without padding, a comment. Adding
// git-ctx's entry must leave every one of those lines as written (trials28: the whole file was
// re-serialised: re-indented lists, `[ --strict ]`).
const CONFIG = [
  'repos:',
  '- repo: https://example.invalid/hooks-collection',
  '  rev: v1.2.0',
  '  hooks:',
  '    - id: end-of-file-fixer',
  '    - id: check-json',
  '- repo: https://example.invalid/commit-message-lint',
  '  rev: v3.0.0',
  '  hooks:',
  '    - id: message-lint',
  '      stages: [commit-msg]',
  '      args: [--strict]',
  '# markdown checks',
  '- repo: https://example.invalid/markdown-lint',
  '  rev: v0.9.0',
  '  hooks:',
  '  - id: mdlint',
  '',
].join('\n');

describe('hook manager configurations keep the team layout', () => {
  it('appends the git-ctx entry as text, keeps every existing line, and removes it back to the original', async () => {
    const repo = makeRepo({ '.pre-commit-config.yaml': CONFIG });
    const file = path.join(repo.dir, '.pre-commit-config.yaml');
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-added');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(CONFIG)).toBe(true);
    // the new item is written as the file writes its items: flush dash, nested list indented
    expect(text.slice(CONFIG.length)).toMatch(/^- repo: local\n {2}hooks:\n {4}- id: git-ctx\n/);
    const repos = (parse(text) as { repos: { repo: string; hooks: { id: string; entry?: string }[] }[] }).repos;
    expect(repos.map((r) => r.repo)).toEqual(['https://example.invalid/hooks-collection', 'https://example.invalid/commit-message-lint', 'https://example.invalid/markdown-lint', 'local']);
    expect(repos[3]!.hooks[0]!.entry).toContain('git-ctx-managed-hook');
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-present');
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('manager-entry-removed');
    expect(readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('a file without a trailing newline and with a comment after the list keeps both', async () => {
    const cfg = 'repos:\n  - repo: https://example.invalid/hooks-collection\n    rev: v1\n    hooks:\n    - id: check-json\n# end of hooks';
    const repo = makeRepo({ '.pre-commit-config.yaml': cfg });
    const file = path.join(repo.dir, '.pre-commit-config.yaml');
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-added');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('repos:\n  - repo: https://example.invalid/hooks-collection\n    rev: v1\n    hooks:\n    - id: check-json\n  - repo: local\n    hooks:\n    - id: git-ctx\n')).toBe(true);
    expect(text.endsWith('\n# end of hooks')).toBe(true);
    expect((parse(text) as { repos: unknown[] }).repos).toHaveLength(2);
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('manager-entry-removed');
    expect(readFileSync(file, 'utf8')).toBe(cfg);
  });

  it('lefthook: a command appended under commands: as text, removed back to the original', async () => {
    const cfg = 'pre-commit:\n  parallel: true\n  commands:\n    lint:\n      glob: "*.{js,ts}"\n      run: npx eslint {staged_files}\n    fmt:\n        run: npx prettier --check {staged_files}\n        tags: [style, fast]\n';
    const repo = makeRepo({ 'lefthook.yml': cfg });
    const file = path.join(repo.dir, 'lefthook.yml');
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-added');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(cfg)).toBe(true);
    expect(text.slice(cfg.length)).toMatch(/^ {4}git-ctx:\n {6}run: .*git-ctx-managed-hook/);
    expect(Object.keys((parse(text) as { 'pre-commit': { commands: object } })['pre-commit'].commands)).toEqual(['lint', 'fmt', 'git-ctx']);
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('manager-entry-removed');
    expect(readFileSync(file, 'utf8')).toBe(cfg);
  });

  it('lefthook: a job appended to jobs: as text, removed back to the original', async () => {
    const cfg = 'pre-commit:\n  jobs:\n  - name: lint\n    run: npx eslint {staged_files}\n    tags: [style]\n';
    const repo = makeRepo({ 'lefthook.yml': cfg });
    const file = path.join(repo.dir, 'lefthook.yml');
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-added');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(cfg)).toBe(true);
    expect(text.slice(cfg.length)).toMatch(/^ {2}- name: git-ctx\n {4}run: /);
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('manager-entry-removed');
    expect(readFileSync(file, 'utf8')).toBe(cfg);
  });

  // trials29 (SFDO-Tooling/CumulusCI): a file that nests by 4, formatted by prettier with
  // tabWidth 4; the entry was nested by 2, which the team's formatter would rewrite
  it('pre-commit: a file that nests by 4 gets the entry nested by 4', async () => {
    const cfg = [
      'default_language_version:',
      '    python: python3',
      'repos:',
      '    - repo: https://example.invalid/formatter',
      '      rev: 24.1.0',
      '      hooks:',
      '          - id: format-python',
      '    - repo: local',
      '      hooks:',
      '          - id: typecheck',
      '            entry: typecheck',
      '            language: node',
      '            additional_dependencies:',
      '                - typecheck',
      '',
    ].join('\n');
    const repo = makeRepo({ '.pre-commit-config.yaml': cfg });
    const file = path.join(repo.dir, '.pre-commit-config.yaml');
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-added');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(cfg)).toBe(true);
    expect(text.slice(cfg.length)).toMatch(/^ {4}- repo: local\n {6}hooks:\n {10}- id: git-ctx\n {12}name: /);
    expect((parse(text) as { repos: { hooks: { id: string }[] }[] }).repos[2]!.hooks[0]!.id).toBe('git-ctx');
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('manager-entry-removed');
    expect(readFileSync(file, 'utf8')).toBe(cfg);
  });
});
