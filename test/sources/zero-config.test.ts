import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';

/** A fresh clone of a team that keeps adr-tools records in docs/adr and has never run `git ctx init`. */
const ADR_REPO = {
  'docs/adr/0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\nDate: 2024-02-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records.\n',
  'docs/adr/0002-retry-webhooks-with-backoff.md':
    '# 2. Retry payment webhooks with exponential backoff\n\nDate: 2024-03-04\n\n## Status\n\nAccepted\n\n## Context\n\nThe payment provider drops webhooks when `src/payments/webhooks.ts` answers slowly.\n\n## Decision\n\nIncoming webhooks are retried with exponential backoff and jitter in `src/payments/webhooks.ts`.\n',
  'src/payments/webhooks.ts': 'export function retryWebhook(attempt: number): number {\n  return Math.min(30_000, 2 ** attempt * 100);\n}\n',
  'README.md': '# shop\n',
};

const NOTICE = 'git-ctx: no .contextia/config.yaml: read decision records from docs/adr/ (found by folder name); `git ctx init` pins them\n';
const cli = (dir: string, ...args: string[]) => runCli(args, { cwd: dir });

function adrRepo(extra: Record<string, string> = {}) {
  const repo = makeRepo();
  repo.commit('import', { ...ADR_REPO, ...extra });
  return repo;
}

describe('zero configuration: a clone with an ADR folder and no config file', () => {
  it('list, for, search and check read the records and say once where from', () => {
    const repo = adrRepo();
    const list = cli(repo.dir, 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/ADR-0002\s+decision\s+accepted\s+Retry payment webhooks with exponential backoff/);
    expect(list.stderr).toBe(NOTICE);

    const forPlace = cli(repo.dir, 'for', 'src/payments/webhooks.ts');
    expect(forPlace.code, forPlace.stderr).toBe(0);
    expect(forPlace.stdout).toContain('ADR-0002');
    expect(forPlace.stdout).not.toContain('nothing found');
    expect(forPlace.stderr).toBe(NOTICE);

    const search = cli(repo.dir, 'search', 'webhook', 'retry', 'backoff');
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('ADR-0002');
    expect(search.stderr).toBe(NOTICE);

    const check = cli(repo.dir, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('✓ 2 artifacts checked');
    expect(check.stderr).toBe(NOTICE);
  });

  it('JSON output carries the fact', () => {
    const repo = adrRepo();
    const fact = { sources: [{ dir: 'docs/adr', records: 2, from: 'folder name' }], from: 'folder name' };
    for (const args of [['list', '--json'], ['for', 'src/payments/webhooks.ts', '--json'], ['search', 'webhook backoff', '--json'], ['check', '--json']]) {
      const r = cli(repo.dir, ...args);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { zero_config?: unknown }).zero_config, args.join(' ')).toEqual(fact);
    }
  });

  it('the library returns the fact on the config, and a warm run remembers the folders', async () => {
    const repo = adrRepo();
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const config = await loadConfig(snapshot);
      expect(config.noFile).toBe(true);
      expect(config.sources).toEqual([]);
      const set = await loadArtifactSet(snapshot, config);
      expect(set.byId.has('ADR-0002')).toBe(true);
      expect(config.sources).toEqual([{ dir: 'docs/adr', format: 'adr', prefix: 'ADR-', type: 'decision' }]);
      expect(config.zeroConfig).toEqual({ sources: [{ dir: 'docs/adr', format: 'adr', prefix: 'ADR-', type: 'decision', records: 2, from: 'folder name' }], from: 'folder name' });
    } finally {
      snapshot.close();
    }
    const warm = runCli(['list'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    expect(warm.stderr).toContain('zero config: records folders remembered');
    expect(warm.stderr).not.toContain('records folders detected');
    // a new tree state (a record added and staged) is detected afresh
    repo.commit('third', { 'docs/adr/0003-keep-invoices.md': '# 3. Keep invoices for ten years\n\n## Status\n\nAccepted\n' });
    const fresh = runCli(['list'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    expect(fresh.stderr).toContain('zero config: 1 records folders detected');
    expect(fresh.stdout).toContain('ADR-0003');
  });

  it('.adr-dir still wins: its folder comes first and takes the plain prefix', () => {
    const repo = adrRepo({
      '.adr-dir': 'architecture/log\n',
      'architecture/log/0001-use-postgres.md': '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres for everything.\n',
    });
    const r = cli(repo.dir, 'list', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { zero_config: { sources: { dir: string; from: string }[] }; artifacts: { id: string; file: string }[] };
    expect(out.zero_config.sources.map((s) => [s.dir, s.from])).toEqual([
      ['architecture/log', '.adr-dir'],
      ['docs/adr', 'folder name'],
    ]);
    expect(out.artifacts.find((a) => a.file === 'architecture/log/0001-use-postgres.md')?.id).toBe('ADR-0001');
    expect(r.stderr).toContain('read decision records from architecture/log/, docs/adr/ (found by .adr-dir and folder name)');
  });

  it('a configured repository reads only what its config says, without a notice', () => {
    const repo = adrRepo({ '.contextia/config.yaml': 'sources: []\n' });
    const r = cli(repo.dir, 'list', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { zero_config?: unknown; artifacts: unknown[] };
    expect(out.zero_config).toBeUndefined();
    expect(out.artifacts).toEqual([]);
  });

  it('a repository with no record folder says nothing found and why, with no zero-config notice', () => {
    const repo = makeRepo();
    repo.commit('code', { 'src/payments/webhooks.ts': ADR_REPO['src/payments/webhooks.ts'], 'docs/guide.md': '# Guide\n' });
    const forPlace = cli(repo.dir, 'for', 'src/payments/webhooks.ts');
    expect(forPlace.code, forPlace.stderr).toBe(0);
    const why = 'nothing found: no decision records are read here (no .contextia/ and no decision-record folder such as docs/adr/); `git ctx init` sets them up';
    expect(forPlace.stdout).toContain(why);
    expect(forPlace.stderr).toBe('');
    const search = cli(repo.dir, 'search', 'webhook', 'retries');
    expect(search.stdout).toContain(why);
    expect(search.stderr).toBe('');
    // with records, an answer of nothing does not claim there are none
    const withRecords = adrRepo();
    const offTopic = cli(withRecords.dir, 'search', 'kubernetes', 'helm', 'chart');
    expect(offTopic.stdout).not.toContain('no decision records are read here');
    const check = cli(repo.dir, 'check', '--json');
    expect(check.stderr).toBe('');
    expect((JSON.parse(check.stdout) as { zero_config?: unknown }).zero_config).toBeUndefined();
  });

  it('ADR-named records at the top of the repository are said to be left unread, not "no artifacts" alone', () => {
    // shaped like a repository that is nothing but its records: adr-001-….md at the top level
    const repo = makeRepo();
    repo.commit('records', {
      'adr-001-use-adrs.md': '# Architecture Decision Record: Use ADRs\n\n## Context\n\nWe want a record of decisions.\n\n## Decision\n\nWe will write ADRs.\n',
      'adr-002-configuration.md': '# Architecture Decision Record: Configuration\n\n## Context\n\nModules need configuration.\n\n## Decision\n\nConfiguration is data.\n',
      'adr-003-module-loading.md': '# Architecture Decision Record: Module loading\n\n## Decision\n\nModules load from the classpath.\n',
      'LICENSE.txt': 'MIT\n',
    });
    for (const args of [['list'], ['check']]) {
      const r = cli(repo.dir, ...args);
      expect(r.stderr).toContain('3 files named as decision records (adr-001-use-adrs.md, adr-002-configuration.md, \u2026) are at the top of the repository');
      expect(r.stderr).toContain('move them into a folder');
    }
    // in a folder, they are read
    const moved = makeRepo();
    moved.commit('records', { 'docs/adr/adr-001-use-adrs.md': '# ADR 1: Use ADRs\n\n## Decision\n\nWe will write ADRs.\n', 'docs/adr/adr-002-configuration.md': '# ADR 2: Configuration\n\n## Decision\n\nConfiguration is data.\n' });
    expect(cli(moved.dir, 'list').stderr).not.toContain('top of the repository');
  });

  it('git ctx pr with a head that has no config file reads the folders the same way and says so', () => {
    const repo = adrRepo();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('longer backoff', { 'src/payments/webhooks.ts': 'export function retryWebhook(attempt: number): number {\n  return Math.min(60_000, 2 ** attempt * 200);\n}\n' });
    const md = cli(repo.dir, 'pr', '--base', 'main', '--head', 'feature', '--fail-on', 'never');
    expect(md.code, md.stderr).toBe(0);
    // ids in the comment's bold are markdown-escaped, as every id quoted from the repository (src/pr/escape.ts)
    expect(md.stdout).toContain('**ADR\\-0002** Retry payment webhooks with exponential backoff');
    expect(md.stdout).toContain('No `.contextia/config.yaml` at the head: decision records were read from `docs/adr/` (found by folder name); `git ctx init` pins them.');
    expect(md.stderr).toContain('read decision records from docs/adr/');
    const json = cli(repo.dir, 'pr', '--base', 'main', '--head', 'feature', '--json', '--fail-on', 'never');
    const r = JSON.parse(json.stdout) as { zeroConfig?: { sources: { dir: string }[] }; artifacts: { id: string }[] };
    expect(r.zeroConfig?.sources.map((s) => s.dir)).toEqual(['docs/adr']);
    expect(r.artifacts.map((a) => a.id)).toContain('ADR-0002');
  });
});
