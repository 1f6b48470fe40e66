import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForText } from '../../src/retrieve/engine.js';
import { KEYWORD_SCORE_FLOOR, keywordScoreFloor, SCORE_FLOOR_RECORDS, textEvidence } from '../../src/retrieve/floor.js';
import { queryOf } from '../../src/retrieve/bm25.js';
import { surfaceForms, terms } from '../../src/retrieve/text.js';
import { semanticLaneFor } from '../../src/semantic/lane.js';
import type { RetrievalLane } from '../../src/retrieve/types.js';
import { adrEntry } from '../helpers/adr.js';
import { makeRepo } from '../helpers/git-repo.js';

const CONFIG = ['.contextia/config.yaml', 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n'] as const;

/**
 * An order service's adr-tools folder: one long record on its background worker writes many
 * everyday words once each across its paragraphs ("keep", "working", "later", "sync"; "mobile"
 * and "offline" are not among them), words the other, short and focused records use in passing too.
 */
function orderService() {
  const r = (n: number, slug: string, title: string, context: string, decision: string, consequences: string) => adrEntry('docs/adr', n, slug, title, context, decision, consequences, 2021);
  const worker = r(
    2,
    'background-worker',
    'Run slow work in a background worker',
    [
      'Confirming an order calls the warehouse, the payment provider and the mailer one after the other, and a slow answer from any of them kept the customer waiting on a spinner.',
      'Some of the calls can fail for a while and succeed later, and a request cannot wait for that.',
      'The warehouse offers no push, so stock levels have to be fetched on a timer to stay in sync.',
    ].join('\n\n'),
    [
      'The web process only writes the order and a job row; a worker process picks jobs in order and runs them.',
      'A job that fails is retried with a growing delay, up to ten times, and then parked for a person to look at.',
      'The worker keeps its own connection pool and is deployed beside the web process.',
    ].join('\n\n'),
    [
      'The order page shows the order as received at once; the confirmation email follows within a minute.',
      'Operators need a dashboard of parked jobs, and the team on duty checks it every morning.',
      'Working on the worker locally needs the queue running too.',
    ].join('\n\n'),
  );
  const repo = makeRepo(
    Object.fromEntries([
      CONFIG,
      r(1, 'record-architecture-decisions', 'Record architecture decisions', 'We need to record the architectural decisions made on this service.', 'We will use Architecture Decision Records, as described by Michael Nygard.', 'The reasons stay with the code, and a later reader can keep working from them.'),
      worker,
      r(3, 'money-in-cents', 'Store money as integer cents', 'Floating point sums of prices drifted by a cent on large orders.', 'Every amount is an integer number of cents with its currency code beside it.', 'Formatting happens only at the edge; reports keep the cents and convert later.'),
      r(4, 'idempotent-payment-requests', 'Idempotent payment requests', 'A retried capture could charge a customer twice.', 'Every capture and refund request to the payment provider carries an idempotency key made from the order id and the attempt.', 'The provider answers a repeated request with the first answer, so a retry later is safe.'),
      r(5, 'postgres-for-orders', 'Keep orders in Postgres', 'Orders, lines and payments are related rows that change together.', 'Orders live in one Postgres database; each change is one transaction.', 'Reports read a replica kept in sync by streaming replication; the working set fits in memory.'),
      r(6, 'warehouse-api-client', 'A generated client for the warehouse API', 'The warehouse publishes an OpenAPI description of its stock and reservation endpoints.', 'The client is generated from that description at build time and wrapped by one module.', 'A change in the description shows up as a compile error, which keeps the client in sync with the warehouse.'),
      ['src/worker.ts', 'export async function runJobs(): Promise<void> {}\n'],
    ]),
  );
  repo.commit('order service');
  return repo;
}

describe('a question met only in passing is no evidence (issue 30 item 3; DEC-113)', () => {
  it('scales the floor down for sets of fewer than SCORE_FLOOR_RECORDS records, never up', () => {
    expect(keywordScoreFloor(SCORE_FLOOR_RECORDS)).toBeCloseTo(KEYWORD_SCORE_FLOOR, 9);
    expect(keywordScoreFloor(80)).toBeCloseTo(KEYWORD_SCORE_FLOOR, 9);
    expect(keywordScoreFloor(3)).toBeLessThan(keywordScoreFloor(12));
    expect(keywordScoreFloor(12)).toBeLessThan(KEYWORD_SCORE_FLOOR);
    expect(keywordScoreFloor(0)).toBeGreaterThan(0);
  });

  it('keeps a question hit scoring under the floor only as evidence meaning must confirm; lookups written as keywords are not judged by it', () => {
    const text = 'How does the mobile app keep working offline and sync later?';
    const matched = ['keep', 'working', 'sync', 'later'].flatMap(terms);
    const ev = (score: number | undefined, asked = true, withMeaning = true) => {
      const unconfirmed = new Map<string, number>();
      const e = textEvidence({ terms: queryOf(text), forms: surfaceForms(text), unused: true, asked, scoreFloor: 4.5, ...(withMeaning ? { unconfirmed } : {}) }, [{ id: 'A', matched, ...(score === undefined ? {} : { score }) }]).get('A')!;
      return { e, unconfirmed: unconfirmed.get('A') };
    };
    // above the floor: the share as before, nothing held back for meaning to confirm
    expect(ev(5).e).toBeGreaterThan(0.17);
    expect(ev(5).unconfirmed).toBeUndefined();
    // under it: the share stands only where meaning puts the record first too, else nothing
    expect(ev(4).e).toBeCloseTo(ev(5).e, 9);
    expect(ev(4).unconfirmed).toBe(0);
    // a caller with no meaning to ask (no `unconfirmed` to fill) gets nothing at once
    expect(ev(4, true, false).e).toBe(0);
    // a lookup is judged by its words (LOOKUP_MISSED), not by its score; a hit without a score is not judged by it
    expect(ev(4, false).unconfirmed).toBeUndefined();
    expect(ev(undefined).unconfirmed).toBeUndefined();
  });

  it('answers an off-topic question met in a long record’s everyday words with nothing unless meaning agrees, and in-domain questions as before', async () => {
    const repo = orderService();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    // meaning as another provider would stand in for the default embedder (RetrieveOptions.lanes):
    // a fixed ranking, so the test does not rest on word vectors of six short records, whose
    // averages of everyday words sit close to every record alike
    const meaning = (...ranked: [string, number][]): RetrievalLane => ({ name: 'semantic', run: async () => ranked.map(([id, score]) => ({ ref: { kind: 'artifact', id }, score, why: [{ kind: 'semantic', text: `similar in meaning (${score})` }] })) });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const ask = (text: string, semantic: RetrievalLane) => retrieveForText({ snapshot, set, text, staleness: false, lanes: { semantic } });
      const off = 'How does the mobile app keep working offline and sync later?';
      // the worker record meets it in four everyday words said once each: a share over the floor, a keyword score under it
      const elsewhere = await ask(off, meaning(['ADR-0004', 0.3], ['ADR-0002', 0.28]));
      expect(elsewhere.results).toEqual([]);
      // met, and shown as met: in the weak band (`--all`, JSON `weak`)
      expect(elsewhere.weak?.some((w) => w.id === 'ADR-0002')).toBe(true);
      // meaning putting the same record first confirms the words (two lanes agreeing), as for a two-word question (DEC-106)
      const agreed = await ask(off, meaning(['ADR-0002', 0.3], ['ADR-0004', 0.28]));
      expect(agreed.results[0]?.id).toBe('ADR-0002');
      for (const [q, id] of [
        ['Why does confirming an order not wait for the warehouse and the mailer?', 'ADR-0002'],
        ['How are failed jobs retried?', 'ADR-0002'],
        ['Can a retried refund charge the customer twice?', 'ADR-0004'],
        ['How are amounts of money stored?', 'ADR-0003'],
      ] as const) {
        const r = await ask(q, meaning(['ADR-0001', 0.3], ['ADR-0005', 0.28]));
        expect({ q, first: r.results[0]?.id }).toEqual({ q, first: id });
      }
    } finally {
      snapshot.close();
    }
  });

  it('still answers a question in a repository of three records, whose scores run lower', async () => {
    const r = (n: number, slug: string, title: string, context: string, decision: string, consequences: string) => adrEntry('docs/adr', n, slug, title, context, decision, consequences, 2022);
    const repo = makeRepo(
      Object.fromEntries([
        CONFIG,
        r(1, 'record-architecture-decisions', 'Record architecture decisions', 'We need to record the architectural decisions made on this project.', 'We will use Architecture Decision Records.', 'The reasons stay with the code.'),
        r(2, 'sqlite-for-local-state', 'Keep local state in SQLite', 'The command-line tool remembers recent projects between runs.', 'Recent projects are kept in one SQLite file in the user’s cache folder.', 'A damaged file is renamed and a new one started.'),
        r(3, 'plain-text-output', 'Plain text output by default', 'Output was coloured even when piped into another program.', 'Colour only when standard output is a terminal; JSON with a flag.', 'Scripts read the output without escape codes.'),
      ]),
    );
    repo.commit('three records');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const semantic = semanticLaneFor(snapshot.root, set, {});
      const r1 = await retrieveForText({ snapshot, set, semantic, text: 'Where are recent projects remembered between runs?', staleness: false });
      expect(r1.results[0]?.id).toBe('ADR-0002');
      const r2 = await retrieveForText({ snapshot, set, semantic, text: 'Why is the output not coloured when piped?', staleness: false });
      expect(r2.results[0]?.id).toBe('ADR-0003');
    } finally {
      snapshot.close();
    }
  });
});
