import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { buildKeywordIndex, searchKeywords } from '../../src/retrieve/bm25.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { extractPlaceTerms, placeQuery } from '../../src/retrieve/extract.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

const adr = (n: string, title: string, body: string) => `# ${n}. ${title}\n\nDate: 2024-03-0${n.slice(-1)}\n\n## Status\n\nAccepted\n\n${body}\n`;

/**
 * A Rails ledger's records: short ones that each decide one thing, and one long record
 * modelling the whole history of payments — many sections, a pasted log, the domain's words
 * everywhere, a cache mentioned in passing — like content-publisher's 0009-modelling-history.
 */
const ENTITY = (name: string, what: string) =>
  `### ${name}\n\nA ${name} ${what}. It is immutable once written: any change to a ${name} creates a new ${name} record that references the previous one, so the history can be replayed in order. The ${name} is persisted once and never updated or deleted, which keeps the audit trail complete and lets reports see past states without locks. Associations to the ${name} point at one row and never query for the latest one.\n`;
const HISTORY = adr(
  '0009',
  'Modelling payment history',
  [
    '## Context',
    '',
    'Payments, refunds and ledger entries are stored as their current state only. Support cannot tell who refunded a payment, finance cannot rebuild a balance for a past date, and a failed settlement overwrites the data of the previous attempt.',
    '',
    '## Decision',
    '',
    'We model the history of money movements with immutable records joined by mutable heads.',
    '',
    ENTITY('PaymentRevision', 'holds the amount, currency, payer and merchant of a payment at one point in time'),
    ENTITY('RefundRevision', 'holds the amount refunded, the reason given by the operator and the payment it reverses'),
    ENTITY('LedgerEntry', 'records one debit or credit against an account with the settlement batch it belongs to'),
    ENTITY('SettlementAttempt', 'records each attempt to settle a batch with the acquirer, successful or not'),
    ENTITY('StatusChange', 'records a status a payment held, such as authorised, captured, refunded or disputed'),
    ENTITY('DisputeRevision', 'holds the evidence, deadline and outcome of a chargeback raised by the cardholder'),
    ENTITY('PayoutRevision', 'holds the amount, bank account and schedule of a payout to a merchant'),
    ENTITY('FeeRevision', 'holds the fee charged on a payment and the pricing plan it came from'),
    ENTITY('MandateRevision', 'holds the direct debit mandate a customer signed and its cancellation'),
    ENTITY('InvoiceRevision', 'holds the lines, tax and totals of an invoice sent to a merchant'),
    '### Timeline',
    '',
    'The timeline shown to operators is built from status changes and revisions. A nice side effect of immutable models is that they can be cached forever, since the data never changes.',
    '',
    '```',
    '2024-02-11T10:04:12Z INFO settlement batch=8812 attempt=3 status=failed acquirer=timeout',
    '2024-02-11T10:09:40Z INFO settlement batch=8812 attempt=4 status=settled entries=1204',
    '2024-02-11T10:09:41Z WARN ledger entry 77120 written twice, second write ignored',
    '```',
    '',
    '## Consequences',
    '',
    'Tables grow with every edit: we expect tens of millions of revision rows within a year, and queries that read a payment must join its current revision. Migrating the existing payments, refunds and ledger entries needs a backfill that creates one revision per row and one status change per known state. Concurrent edits of one payment create two revisions; the head records which one is current and the other is kept for the audit trail. Deleting personal data means replacing the payer fields in every revision of a payment rather than one row.',
  ].join('\n'),
);

const RECORDS: Record<string, string> = {
  'docs/adr/0001-cache-balances.md': adr('0001', 'Cache account balances in Redis', '## Context\n\nBalances are summed from ledger entries on every dashboard view.\n\n## Decision\n\nAccount balances are cached in Redis for one day; the cache entry is written when a settlement batch lands and read by the dashboard. An expired entry is recomputed.'),
  'docs/adr/0002-retry-webhooks.md': adr('0002', 'Retry acquirer webhooks with backoff', '## Decision\n\nAcquirer webhooks are retried by a background job with exponential backoff for one day, then dropped with an alert.'),
  'docs/adr/0003-restrict-deletes.md': adr('0003', 'Foreign keys restrict deletion', '## Decision\n\nEvery foreign key restricts deletion by default: a payment with refunds or ledger entries cannot be deleted; a key cascades only where personal data must be erasable.'),
  'docs/adr/0004-notify-operators.md': adr('0004', 'Notify operators by email', '## Decision\n\nOperators are told of a failed settlement by email through the notification service; the mail job reads the batch and its status.'),
  'docs/adr/0005-money-as-integers.md': adr('0005', 'Money as integer minor units', '## Decision\n\nAmounts are stored and computed as integers in minor units with an ISO currency code; no floats anywhere in the ledger.'),
  'docs/adr/0006-background-jobs.md': adr('0006', 'Background jobs with Active Job', '## Decision\n\nSlow work (settlement, exports, mail) runs in Active Job on Sidekiq; a job is idempotent and safe to run twice.'),
  'docs/adr/0007-redis-for-ephemeral-data.md': adr('0007', 'Redis holds ephemeral data only', '## Decision\n\nSessions, rate limits and derived values live in Redis; nothing there is the source of truth, so every key has an expiry and can be rebuilt from the database.'),
  'docs/adr/0009-modelling-payment-history.md': HISTORY,
};

const CODE: Record<string, string> = {
  'lib/balances/cache.rb': [
    '# frozen_string_literal: true',
    '',
    'module Balances',
    '  # Account balances kept in Redis for a day, refreshed when a settlement batch lands',
    '  class Cache',
    '    EXPIRY = 24.hours',
    '',
    '    def self.read(account_id)',
    '      Rails.cache.read(key(account_id)) || raise(NoEntryError, "no cached balance for #{account_id}")',
    '    end',
    '',
    '    def self.write(account_id, balance)',
    '      Rails.cache.write(key(account_id), balance, expires_in: EXPIRY)',
    '    end',
    '',
    '    def self.key(account_id) = "balances:#{account_id}"',
    '',
    '    class NoEntryError < RuntimeError; end',
    '  end',
    'end',
    '',
  ].join('\n'),
  'app/models/refund_revision.rb': [
    '# An immutable snapshot of a refund: a change creates a new revision',
    'class RefundRevision < ApplicationRecord',
    '  belongs_to :refund',
    '  belongs_to :previous, class_name: "RefundRevision", optional: true',
    '',
    '  def readonly? = persisted?',
    'end',
    '',
  ].join('\n'),
  'app/jobs/webhook_retry_job.rb': 'class WebhookRetryJob < ApplicationJob\n  retry_on Acquirer::TimeoutError, wait: :exponentially_longer, attempts: 10\n\n  def perform(webhook)\n    Acquirer::Webhook.deliver(webhook)\n  end\nend\n',
};

const CONFIG = 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n';

describe('a long history record does not win the file queries of records it does not govern', () => {
  it('over 3 times the average length of its set: a file it mentions in passing goes to the records that decide it', async () => {
    const repo = makeRepo({ ...RECORDS, ...CODE, '.contextia/config.yaml': CONFIG });
    repo.commit('ledger');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const index = buildKeywordIndex(set.artifacts);
      const history = index.ids.indexOf('ADR-0009');
      expect(index.lens[history]! / index.avgLen).toBeGreaterThan(3.5);

      const cache = await retrieveForPlace({ snapshot, set, target: { path: 'lib/balances/cache.rb' } });
      expect(cache.results[0]?.id).toBe('ADR-0001');
      // its passing mentions (cached forever, an entry, a key) rank it below the short record on
      // what Redis may hold, and far behind the answer (plain BM25 put it second at 0.22)
      const ids = cache.results.map((r) => r.id);
      expect(ids.indexOf('ADR-0009')).toBeGreaterThan(ids.indexOf('ADR-0007'));
      expect(cache.results.find((r) => r.id === 'ADR-0009')?.score ?? 0).toBeLessThan(0.15);
      const job = await retrieveForPlace({ snapshot, set, target: { path: 'app/jobs/webhook_retry_job.rb' } });
      expect(job.results[0]?.id).toBe('ADR-0002');
      expect(job.results.slice(0, 3).map((r) => r.id)).not.toContain('ADR-0009');
      // what it does decide it still wins: its dense matches saturate
      const revision = await retrieveForPlace({ snapshot, set, target: { path: 'app/models/refund_revision.rb' } });
      expect(revision.results[0]?.id).toBe('ADR-0009');
    } finally {
      snapshot.close();
    }
  });

  it('the length penalty is for places only: the same words as a question rank as plain BM25 does', () => {
    const longDoc = { id: 'LONG', title: 'History', body: HISTORY };
    const short = Object.entries(RECORDS)
      .filter(([f]) => !f.includes('0009'))
      .map(([f, body]) => ({ id: f.slice(9, 13), title: '', body }));
    const artifacts = [...short, longDoc].map((a) => ({ ...a, keywords: [] as string[], file: `${a.id}.md` })) as unknown as Parameters<typeof buildKeywordIndex>[0];
    const index = buildKeywordIndex(artifacts);
    const q = placeQuery(extractPlaceTerms(CODE['lib/balances/cache.rb']!, 'lib/balances/cache.rb'));
    const asQuestion = searchKeywords(index, q);
    const asPlace = searchKeywords(index, q, 50, { place: true });
    const score = (hits: typeof asQuestion, id: string) => hits.find((h) => h.id === id)?.score ?? 0;
    // the short records score the same; the long one's passing matches weigh less
    expect(score(asPlace, '0001')).toBeCloseTo(score(asQuestion, '0001'), 9);
    expect(score(asPlace, 'LONG')).toBeLessThan(score(asQuestion, 'LONG') / 2);
  });
});
