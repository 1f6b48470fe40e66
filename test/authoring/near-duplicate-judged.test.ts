import { cpSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JUDGED_RECORDS } from '../../src/authoring/draft-similar.js';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// A three-record MADR folder (use MADR, cache sessions in Redis, trace requests with
// OpenTelemetry): records of one small repository share its template and vocabulary, which the
// pair score alone read as near-duplicates (Redis ~ OpenTelemetry at 0.85).
const MADR = path.resolve(import.meta.dirname, '../fixtures/adr-home/madr');
const DIR = 'docs/decisions';

const madr = (title: string, outcome: string, extra = '') =>
  `---\nstatus: accepted\ndate: 2025-04-02\ndecision-makers: platform team\n---\n# ${title}\n\n${extra}## Context and Problem Statement\n\nEvery deploy logged everybody out, because the web tier held sessions in its own memory.\n\n## Decision Outcome\n\nChosen option: ${outcome}\n`;
// ADR-002 said again in other words
const RESTATEMENT = madr('Keep user sessions in Redis', '"Redis", user sessions live in Redis with a thirty-minute sliding expiry instead of process memory.');
const RESTATEMENT_FILE = `${DIR}/adr-004-keep-user-sessions-in-redis.md`;

function repoWithMadr() {
  const repo = makeRepo();
  cpSync(MADR, repo.dir, { recursive: true });
  repo.commit('records');
  return repo;
}

function nearDuplicates(dir: string) {
  const r = runCli(['check', '--format', 'json'], { cwd: dir });
  return (JSON.parse(r.stdout) as { findings: { rule: string; id: string; message: string }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate');
}

describe('decision-near-duplicate through search’s judgement (DEC-058)', () => {
  it('records of a small MADR folder that share only its template are not near-duplicates; a restatement is, once', () => {
    const repo = repoWithMadr();
    expect(nearDuplicates(repo.dir)).toEqual([]);

    repo.write({ [RESTATEMENT_FILE]: RESTATEMENT });
    const f = nearDuplicates(repo.dir);
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/^ADR-002 and ADR-004 are active and nearly the same decision \(similarity (0\.(7[5-9]|[89]\d)|1\.00) ≥ 0\.75\)/);
  });

  it('a restatement that says it supersedes the record is a supersession, not a near-duplicate', () => {
    const repo = repoWithMadr();
    repo.write({ [RESTATEMENT_FILE]: madr('Keep user sessions in Redis', '"Redis", user sessions live in Redis with a thirty-minute sliding expiry instead of process memory.', 'Supersedes [ADR-002](adr-002-cache-sessions-in-redis.md).\n\n') });
    expect(nearDuplicates(repo.dir)).toEqual([]);
    // what the relation asks instead: mark the old record superseded
    const all = JSON.parse(runCli(['check', '--format', 'json'], { cwd: repo.dir }).stdout) as { findings: { rule: string; id: string }[] };
    expect(all.findings).toContainEqual(expect.objectContaining({ rule: 'superseded-still-active', id: 'ADR-002' }));
  });
});

describe('PR comment: "Resembles an active decision" through the same judgement', () => {
  function pullRequest(added: Record<string, string>) {
    const repo = repoWithMadr();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('add a record', added);
    return repo;
  }

  it('a restatement added in the PR resembles the record it restates, and nothing else', async () => {
    const repo = pullRequest({ [RESTATEMENT_FILE]: RESTATEMENT });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false });
    expect(r.similarDecisions).toHaveLength(1);
    expect(r.similarDecisions![0]).toMatchObject({ id: 'ADR-004', similar: [{ id: 'ADR-002', title: 'Cache sessions in Redis' }] });
    expect(r.similarDecisions![0]!.similar[0]!.similarity).toBeGreaterThanOrEqual(0.75);
    // said on the added record's own line under "Records this PR changes" (DEC-084)
    expect(renderPrComment(r)).toMatch(/- Adds decision \*\*ADR\\-004\*\*[^\n]*\n {2}- ⚠️ it resembles \*\*ADR\\-002\*\* Cache sessions in Redis \((0\.\d\d|1\.00)\): supersede, merge or link them if both stand\.\n/);
  });

  it('a record on another subject in the same template resembles nothing', async () => {
    const repo = pullRequest({ [`${DIR}/adr-004-rate-limit-the-public-api.md`]: madr('Rate limit the public API', '"Token bucket", each merchant gets a token bucket of 100 requests per minute in the gateway.') });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.similarDecisions).toBeUndefined();
    expect(renderPrComment(r)).not.toContain('Resembles an active decision');
  });

  it('a restatement that names the record it refines or supersedes is knowingly related: not flagged', async () => {
    for (const link of ['This is a refinement of [ADR-002](adr-002-cache-sessions-in-redis.md).\n\n', 'Supersedes [ADR-002](adr-002-cache-sessions-in-redis.md).\n\n']) {
      const repo = pullRequest({ [RESTATEMENT_FILE]: madr('Keep user sessions in Redis', '"Redis", user sessions live in Redis with a thirty-minute sliding expiry instead of process memory.', link) });
      const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
      expect(r.similarDecisions, link).toBeUndefined();
      expect(renderPrComment(r)).not.toContain('Resembles an active decision');
    }
  });
});

describe('decision-near-duplicate past the records search judges (JUDGED_RECORDS)', () => {
  it('pairs past the limit are still reported, and each such finding says it stands on the pair score alone', { timeout: 120_000 }, () => {
    // 105 decisions each stated twice, in other files: 210 records in look-alike pairs, more than search judges
    const things = ['invoices', 'payments', 'sessions', 'audit logs', 'metrics', 'emails', 'uploads', 'reports', 'search results', 'user profiles', 'orders', 'carts', 'api tokens', 'webhooks', 'thumbnails'];
    // titles of six terms and more: shorter ones are too thin for the pair score to propose
    const hows = ['cached in Redis with hourly expiry keys', 'stored in Postgres with row level security', 'published to Kafka topics partitioned by tenant', 'compressed with gzip before cold storage upload', 'signed with rotating HMAC keys per client', 'validated at the gateway edge against schemas', 'retried with exponential backoff and jitter limits'];
    const files: Record<string, string> = {};
    let n = 0;
    for (const thing of things) {
      for (const how of hows) {
        const title = `The ${thing} are ${how}`;
        for (let copy = 0; copy < 2; copy++) {
          const id = `DEC-${String(++n).padStart(3, '0')}`;
          files[`.contextia/system/rationale/${id}.md`] = `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n# ${title}\n\n## Decision\n\n${title}.\n`;
        }
      }
    }
    expect(n).toBeGreaterThan(JUDGED_RECORDS);
    const repo = makeRepo(files);
    repo.commit('records');
    const f = nearDuplicates(repo.dir);
    const note = `(judged by the pair score alone: more than ${JUDGED_RECORDS} decisions to compare with search)`;
    const alone = f.filter((x) => x.message.endsWith(note));
    // search judged the first pairs; the rest are reported on the pair score, and say so
    expect(alone.length).toBeGreaterThan(0);
    expect(alone.length).toBeLessThan(f.length);
    for (const x of alone) expect(x.message).toMatch(/^DEC-\d{3} and DEC-\d{3} are active and nearly the same decision \(similarity \d\.\d\d ≥ 0\.75\)/);
  });
});
