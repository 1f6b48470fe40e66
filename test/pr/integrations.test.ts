import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { runCli } from '../helpers/cli.js';
import { gitEnv, tempDir } from '../helpers/git-repo.js';
import { governanceScenario } from './scenario.js';

describe('git ctx pr: SARIF, default base, a comment that agrees with itself', () => {
  it('--format sarif: valid SARIF 2.1.0 with the introduced findings and the governed changes', async () => {
    const s = await governanceScenario();
    const r = runCli(['pr', '--base', 'main', '--format', 'sarif', '--fail-on', 'never'], { cwd: s.repo.dir });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { version: string; runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[] }[] };
    expect(doc.version).toBe('2.1.0');
    const results = doc.runs[0]!.results;
    expect(results.find((x) => x.ruleId === 'broken-link')).toMatchObject({ level: 'error' });
    const unstamped = results.find((x) => x.ruleId === 'unstamped-change')!;
    expect(unstamped.level).toBe('warning');
    expect(unstamped.locations[0]!.physicalLocation.artifactLocation.uri).toBe('src/billing/invoice.ts');
    // every result's rule is declared
    const declared = new Set(doc.runs[0]!.tool.driver.rules.map((x) => x.id));
    expect(results.every((x) => declared.has(x.ruleId))).toBe(true);
  });

  it('--base defaults to origin/HEAD (the default branch), then to a tracked upstream, and says which', async () => {
    const s = await governanceScenario();
    s.repo.git('checkout', '-q', 'main');
    const clone = `${tempDir('git-ctx-clone-')}/c`;
    spawnSync('git', ['clone', '-q', '--no-local', s.repo.dir, clone], { env: gitEnv() });
    spawnSync('git', ['checkout', '-q', 'feature'], { cwd: clone, env: gitEnv() });
    const r = runCli(['pr', '--format', 'json', '--fail-on', 'never'], { cwd: clone });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('comparing with origin/main (origin/HEAD)');
    expect((JSON.parse(r.stdout) as { base: { commit: string } }).base.commit).toBe(s.base);
    // a branch tracking main (not its own push branch) uses that upstream
    spawnSync('git', ['branch', '-q', '--set-upstream-to', 'origin/main'], { cwd: clone, env: gitEnv() });
    expect(runCli(['pr', '--format', 'json', '--fail-on', 'never'], { cwd: clone }).stderr).toContain('comparing with origin/main (upstream)');
    // no remote at all: a usage error saying what to pass
    const none = runCli(['pr'], { cwd: s.repo.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('pass --base <branch>');
  });

  it('the comment: the header count is the governing table, each problem is stated once, summaries shown', async () => {
    const s = await governanceScenario();
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: s.base, head: s.head });
    const text = renderPrComment(r);
    const header = /\*\*(\d+) artifacts?\*\* governs? the code/.exec(text);
    expect(header).not.toBeNull();
    const section = text.slice(text.indexOf('#### Governing artifacts'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|---'))).split('\n').filter((l) => l.startsWith('| `'));
    expect(table).toHaveLength(Number(header![1]));
    // "changed without re-stamp" appears once per artifact: in Needs attention, not again in the table
    for (const a of r.artifacts.filter((x) => x.unstamped.length)) {
      expect(text.split(`governed by \`${a.id}\` without re-stamping`).length - 1).toBe(1);
      expect(text).not.toContain('✏️ changed without re-stamp |');
    }
    // summary: shown for artifacts that have one
    for (const a of r.artifacts.filter((x) => x.summary && x.inclusion === 'direct')) expect(text).toContain(`<br>${a.summary!.slice(0, 10)}`);
  });
});
