import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { RECORDS, paymentsRepo } from './change-scenario.js';
import { governanceScenario } from './scenario.js';

describe('PR bot: one ranked list', () => {
  it('declared first, then what retrieval over the change finds; each record once, with its files and lines', async () => {
    const repo = paymentsRepo();
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    // the change: a rename, a deletion, a binary, a 5,000-line generated file and a lockfile among them
    const status = Object.fromEntries(r.files.map((f) => [f.path, f.status]));
    expect(status).toMatchObject({ 'src/handlers/pay-wallet.ts': 'renamed', 'src/legacy/old-capture.ts': 'deleted', 'src/idempotency.ts': 'added' });
    // the binary, the generated file and the lockfile are counted apart, never scored (DEC-060)
    const unread = new Set([...(r.ungovernable ?? []).map((u) => u.path), ...r.retrieval.skipped.map((s) => s.path)]);
    expect([...unread].sort()).toEqual(['assets/logo.png', 'src/schema.generated.ts', 'yarn.lock']);
    const ids = r.ranked.map((x) => x.id);
    expect(ids[0]).toBe('DEC-ERR');
    expect(r.ranked[0]).toMatchObject({ strength: 'declared', why: expect.stringContaining('src/handlers/**') });
    // one entry for the three handler files it governs, not one per file
    expect(r.ranked[0]!.places.map((p) => p.path)).toEqual(['src/handlers/card.ts', 'src/handlers/pay-wallet.ts', 'src/handlers/refund.ts']);
    expect(ids.filter((id) => id === 'DEC-ERR')).toHaveLength(1);
    // the record titled for what the change does comes right after the declared one
    expect(ids[1]).toBe('DEC-IDEM');
    const idem = r.ranked[1]!;
    expect(idem.strength).toBe('retrieved');
    expect(idem.score).toBeGreaterThanOrEqual(1);
    expect(idem.why).toMatch(/idempotency/);
    expect(idem.places.map((p) => p.path)).toContain('src/idempotency.ts');
    const card = idem.places.find((p) => p.path === 'src/handlers/card.ts');
    if (card) expect(card.lines[0]![0]).toBeGreaterThanOrEqual(5);
    // neither the generated file (full of other records' words) nor the lockfile nor the binary brings anything in
    expect(ids).not.toContain('DEC-NOTIFY');
    expect(ids).not.toContain('DEC-REPORTS');
    expect(ids).not.toContain('DEC-PREAUTH');
    expect(r.ranked.flatMap((x) => x.places.map((p) => p.path))).not.toEqual(expect.arrayContaining(['yarn.lock']));
    expect(r.retrieval.description).toBe('commits');
    // the comment lists the retrieved record once, with where it came from
    const md = renderPrComment(r);
    expect(md).toContain('#### Governing artifacts');
    expect(md.match(/\*\*DEC\\-IDEM\*\*/g)).toHaveLength(1);
    expect(md).toContain("#### Also relevant, not declared: found by the change's lines, paths or description");
    expect(md).toMatch(/\n1\. \*\*DEC\\-IDEM\*\* Generate idempotency key \(accepted\) — shares the words .*idempotency.* with this change and its description · `src\/idempotency\.ts:1-3`/);
    expect(md.indexOf('DEC\\-IDEM')).toBeGreaterThan(md.indexOf('#### Governing artifacts'));
  });

  it('--title/--body stand in for the commit messages; related 0 leaves only what is declared', async () => {
    const repo = paymentsRepo();
    const given = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false, title: 'Generate idempotency key for payments', body: 'Implements DEC-IDEM.' });
    expect(given.retrieval.description).toBe('given');
    expect(given.ranked.find((x) => x.id === 'DEC-IDEM')).toMatchObject({ strength: 'retrieved', why: 'the description names DEC-IDEM' });
    const none = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false, related: 0 });
    expect(none.ranked.map((x) => x.strength)).toEqual(['declared']);
  });

  it('a dependency bump and a change no record governs: nothing listed, said in one line', async () => {
    const repo = paymentsRepo();
    repo.git('checkout', '-q', 'main');
    repo.git('checkout', '-q', '-b', 'bump');
    repo.commit('Update dependency uuid to v9\n\nBumps uuid from 8.3.0 to 9.0.0.\n\nRelease notes: dependency updates for payments, notifications and reports.', {
      'package.json': '{\n  "name": "payments",\n  "dependencies": {\n    "left-pad": "^1.2.0",\n    "uuid": "^9.0.0"\n  }\n}\n',
      'yarn.lock': 'left-pad@^1.2.0:\n  version "1.2.0"\nuuid@^9.0.0:\n  version "9.0.0"\n',
    });
    const bump = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'bump', cache: false, check: false });
    expect(bump.ranked).toEqual([]);
    expect(renderPrComment(bump)).toContain('no decision, spec or norm governs the code this PR changes');

    repo.git('checkout', '-q', 'main');
    repo.git('checkout', '-q', '-b', 'docs');
    repo.commit('Fix a typo in the contributing guide', { 'CONTRIBUTING.md': '# Contributing\n\nRun the tests before you push a branch.\n' });
    const docs = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'docs', cache: false, check: false });
    expect(docs.ranked.length).toBeLessThanOrEqual(1);
  });

  it('a bump finds the record whose title names what it bumps, said as the title spells it, not as a stem', async () => {
    const repo = paymentsRepo({ ...RECORDS, '.contextia/system/rationale/DEC-WS.md': '---\nid: DEC-WS\ntype: decision\ntitle: Use yarn workspaces instead of lerna\nstatus: accepted\n---\n\n# Workspaces\n\nPackages are linked with yarn workspaces.\n' });
    repo.git('checkout', '-q', 'main');
    repo.git('checkout', '-q', '-b', 'bump');
    repo.commit('Bump workspaces-run to v2', { 'package.json': '{\n  "name": "payments",\n  "dependencies": {\n    "left-pad": "^1.2.0",\n    "uuid": "^8.3.0",\n    "workspaces-run": "^2.0.0"\n  }\n}\n' });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'bump', cache: false, check: false });
    expect(r.ranked.map((x) => x.id)).toEqual(['DEC-WS']);
    expect(r.ranked[0]!.why).toBe('its title names workspaces, which this change bumps');
  });

  it('one word in common with a record is chance: a change sharing only "code" with a record lists nothing', async () => {
    const s = await governanceScenario();
    s.repo.git('checkout', '-q', '-b', 'docs', s.base);
    const head = s.repo.commit('docs only', { 'src/readme.txt': 'plain text, changed\n' });
    // the title shares "code" with NORM-ERROR-001 ("Errors carry a code and a cause"), and nothing else does
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: s.base, head, cache: false, check: false, title: 'Change governed code' });
    expect(r.ranked).toEqual([]);
    expect(r.retrieval.belowFloor).toBeGreaterThanOrEqual(1);
    // two words in common with it is no longer chance
    const two = await analyzePullRequest({ cwd: s.repo.dir, base: s.base, head, cache: false, check: false, title: 'Change the error code' });
    expect(two.ranked.map((x) => x.id)).toContain('NORM-ERROR-001');
  });

  it('a head without .contextia/config.yaml reads the record folders as `for` does, and says so', async () => {
    const adr = (n: string, title: string, body: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;
    const records = {
      'doc/adr/0001-record-architecture-decisions.md': adr('1', 'Record architecture decisions', 'We record architecture decisions in this folder.'),
      'doc/adr/0002-generate-idempotency-key.md': adr('2', 'Generate idempotency key', RECORDS['.contextia/system/rationale/DEC-IDEM.md']!.split('---\n')[2]!),
      'doc/adr/0003-match-notifications.md': adr('3', 'Match notifications to orders', 'Incoming webhook notifications are matched to orders by the merchant reference.'),
    };
    const repo = paymentsRepo(records);
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.zeroConfig?.sources.map((s) => s.dir)).toEqual(['doc/adr']);
    expect(r.ranked[0]).toMatchObject({ strength: 'retrieved', file: 'doc/adr/0002-generate-idempotency-key.md' });
    expect(r.ranked.map((x) => x.file)).not.toContain('doc/adr/0003-match-notifications.md');
    const md = renderPrComment(r);
    expect(md).toContain('No `.contextia/config.yaml` at the head: decision records were read from `doc/adr/`');
  });
});
