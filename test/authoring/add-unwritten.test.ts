import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// `add --paths/--keywords/--scope` into an ADR folder: a MADR record takes paths and keywords
// in its frontmatter, a Nygard or reStructuredText record has no frontmatter, and no folder
// record keeps a scope. Those were dropped without a word (an rst folder shaped as openedx's
// docs/decisions): the user believed the record governed the code it names.
const RST = (title: string) => `${title}\n${'='.repeat(title.length)}\n\nStatus\n------\n\nAccepted\n\nContext\n-------\n\nWe ship a coffee ordering app.\n\nDecision\n--------\n\nWe keep decision records.\n\nConsequences\n------------\n\nNone yet.\n`;

describe('add into an ADR folder says which given fields its record has no place for', () => {
  it('an rst folder: --paths and --scope are reported, in text and JSON, dry run and written', () => {
    const repo = makeRepo({ 'docs/decisions/0001-record-decisions.rst': RST('Record Decisions'), 'src/orders/queue.py': 'QUEUE = []\n' });
    repo.commit('records');
    const args = ['add', '--decision', 'Orders wait in a Redis queue before the barista screen takes them', '--paths', 'src/orders/queue.py', '--scope', 'orders'];
    const dry = runCli([...args, '--dry-run'], { cwd: repo.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain("would not be written: --paths, --scope (the folder's records have no place for them); name the code in its text, in backticks");
    const j = JSON.parse(runCli([...args, '--dry-run', '--format', 'json'], { cwd: repo.dir }).stdout);
    expect(j.unwritten).toEqual(['paths', 'scope']);
    const w = runCli([...args, '--keywords', 'queue'], { cwd: repo.dir });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toContain('not written: --paths, --keywords, --scope');
    expect(w.stdout.trim()).toMatch(/^docs\/decisions\/0002-.*\.rst$/);
    expect(readFileSync(path.join(repo.dir, w.stdout.trim()), 'utf8')).not.toContain('queue.py');
  });

  it('a MADR folder takes paths and keywords in its frontmatter: only the scope is reported', () => {
    const madr = '---\nstatus: accepted\ndate: 2024-03-01\n---\n# Use Markdown decision records\n\n## Context and Problem Statement\n\nWe want to keep decisions.\n\n## Decision Outcome\n\nChosen option: MADR.\n';
    const repo = makeRepo({ 'docs/adr/0001-use-markdown-decision-records.md': madr, 'src/orders/queue.py': 'QUEUE = []\n' });
    repo.commit('records');
    const base = ['add', '--decision', 'Orders wait in a Redis queue', '--paths', 'src/orders/queue.py', '--keywords', 'queue', '--dry-run', '--format', 'json'];
    const j = JSON.parse(runCli(base, { cwd: repo.dir }).stdout);
    expect(j.text).toContain('paths: ["src/orders/queue.py"]');
    expect(j.unwritten).toBeUndefined();
    expect(JSON.parse(runCli([...base, '--scope', 'orders'], { cwd: repo.dir }).stdout).unwritten).toEqual(['scope']);
  });
});
