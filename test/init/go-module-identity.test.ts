import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstParagraph, goModuleName } from '../../src/init/detect.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// cosmos/ibc-go: init titled the identity "github.com/cosmos/ibc-go/v11" (go.mod's whole module
// path) and cut its README's first paragraph mid-word, "For inf…", then added a full stop.
describe('init on a Go module', () => {
  it('names the project by the last element of its module path, not a major version', () => {
    expect(goModuleName('github.com/acme/ledger-sync/v4')).toBe('ledger-sync');
    expect(goModuleName('example.org/tools')).toBe('tools');
    expect(goModuleName('ledger')).toBe('ledger');
  });

  it('cuts a long README paragraph at a sentence, else between words', () => {
    const sentences = 'Ledger sync moves balances between two bookkeeping systems every night. '.repeat(4) + 'It keeps an audit trail of every transfer it makes, with the operator who approved it and the time of the approval, for the auditors.';
    const cut = firstParagraph(`# Ledger sync\n\n${sentences}\n`)!;
    expect(cut.length).toBeLessThanOrEqual(400);
    expect(cut.endsWith('every night.')).toBe(true);
    const words = Array.from({ length: 90 }, (_, i) => `word${i}`).join(' ');
    const cutWords = firstParagraph(`# X\n\n${words}\n`)!;
    expect(cutWords).toMatch(/ word\d+\u2026$/);
    expect(cutWords.length).toBeLessThanOrEqual(400);
  });

  it('writes identity.md with the short name and no full stop after an ellipsis', () => {
    const words = Array.from({ length: 90 }, (_, i) => `word${i}`).join(' ');
    const repo = makeRepo({
      'go.mod': 'module github.com/acme/ledger-sync/v4\n\ngo 1.22\n',
      'main.go': 'package main\n\nfunc main() {}\n',
      'README.md': `# Ledger sync\n\n${words}\n`,
    });
    repo.commit('init');
    const r = runCli(['init'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const identity = readFileSync(path.join(repo.dir, '.contextia/identity.md'), 'utf8');
    expect(identity).toContain('title: ledger-sync\n');
    expect(identity).toContain('# ledger-sync\n');
    expect(identity).not.toContain('\u2026.');
  });
});
