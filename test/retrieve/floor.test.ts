import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace, retrieveForText } from '../../src/retrieve/engine.js';
import { aboveFloor, RELEVANCE_FLOOR, textEvidence, UNUSED_WORD_WEIGHT, wordWeight } from '../../src/retrieve/floor.js';
import { changeRelevance } from '../../src/retrieve/change.js';
import { queryOf } from '../../src/retrieve/bm25.js';
import { surfaceForms } from '../../src/retrieve/text.js';
import { semanticLaneFor } from '../../src/semantic/lane.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connect } from '../mcp/helpers.js';

const adr = (n: number, title: string, status: string, context: string, decision: string, extra = '') =>
  `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n\n## Consequences\n\n${extra || 'We will follow this from now on.'}\n`;

/**
 * A payments integration with an adr-tools folder, as the trial found one: records about
 * idempotency, transaction states (with a pasted log), refunds retried by a queue worker and
 * webhook signatures; code for some of them and a UI theme no record is about.
 */
function payments() {
  const log = Array.from({ length: 12 }, (_, i) => `{"level":"info","state":"${['pending', 'authorised', 'captured'][i % 3]}","transaction":"tx_${1000 + i}","ms":${20 + i}}`).join('\n');
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'docs/adr/0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', 'Accepted', 'We need to record the architectural decisions made on this project.', 'We will use Architecture Decision Records, as described by Michael Nygard.'),
    'docs/adr/0002-transaction-id-as-idempotency-key.md': adr(2, 'Transaction id as idempotency key', 'Accepted', 'The payment provider retries requests when our answer is slow, and a refund sent twice pays the customer twice.', 'We picked `transaction.id` as the idempotency key of every request we send to the provider, so a retried refund or capture is applied once.'),
    'docs/adr/0003-transaction-states.md': adr(3, 'Transaction states', 'Accepted', 'Support staff could not tell from the logs where a payment was stuck. A sample of what we saw:\n\n```\n' + log + '\n```', 'A transaction moves from pending to authorised to captured, or to failed; each move is stored with its time and never rewritten.'),
    'docs/adr/0004-refunds-retried-by-a-queue-worker.md': adr(4, 'Refunds retried by a queue worker', 'Accepted', 'Refunds failed when the provider was down for maintenance and nobody tried again.', 'A failed refund is put on a queue; a worker retries it with exponential backoff for up to a day, then alerts the support team.'),
    'docs/adr/0005-verify-webhook-signatures.md': adr(5, 'Verify webhook signatures', 'Accepted', 'Anyone could post a fake payment notification to our webhook endpoint.', 'Every webhook body is verified against the HMAC signature header with the shared secret before it is read; an unsigned or badly signed call is answered 401.'),
    'src/payments/idempotency.js': '// the provider deduplicates retried refunds and captures by this key\nexport function idempotencyKey(transaction) {\n  return transaction.id;\n}\n',
    'src/payments/webhook.js': "import crypto from 'node:crypto';\n\n// a notification is read only when its HMAC signature matches the shared secret\nexport function verifySignature(body, signatureHeader, secret) {\n  const expected = crypto.createHmac('sha256', secret).update(body).digest('hex');\n  return crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signatureHeader));\n}\n",
    'src/ui/palette.js': "// brand colours of the storefront\nexport const palette = { primary: '#0b3d91', accent: '#ffb000', muted: '#8a8f98' };\nexport const spacing = [0, 4, 8, 16, 32];\n",
  });
  repo.commit('payments integration');
  return repo;
}

/** Questions whose right answer is nothing: the repository never speaks of these things. */
const OFF_TOPIC = ['kubernetes helm chart deployment', 'GraphQL schema federation', 'Which font is used for the logo and headings?', 'How are invoices and sales tax calculated?'];

async function open(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { snapshot, set, semantic: semanticLaneFor(snapshot.root, set, {}) };
}

describe('calibrated relevance: a floor and a weak band (issue 30 item 3, DEC-057)', () => {
  it('weighs a rare or unknown word over a common one, and a word every file has least', () => {
    expect(wordWeight(undefined, undefined, 0)).toBe(1);
    expect(wordWeight(50_000, undefined, 0)).toBeGreaterThan(wordWeight(800, undefined, 0));
    expect(wordWeight(undefined, 2, 100)).toBeGreaterThan(wordWeight(undefined, 90, 100));
    // the share of the weighted words a record matches
    const terms = queryOf('retried refund terraform');
    const ev = textEvidence({ terms, forms: surfaceForms('retried refund terraform'), englishRank: (w) => ({ retried: 30_000, refund: 9_000 })[w] }, [{ id: 'A', matched: ['retry', 'refund'] }]);
    expect(ev.get('A')).toBeGreaterThan(0.3);
    expect(ev.get('A')).toBeLessThan(0.8);
    expect(aboveFloor(RELEVANCE_FLOOR)).toBe(true);
    expect(aboveFloor(RELEVANCE_FLOOR - 0.01)).toBe(false);
  });

  it('a question word no candidate record uses weighs more: its subject missing says more than chance words met (DEC-068)', () => {
    const text = 'how are user passwords hashed';
    const terms = queryOf(text);
    const forms = surfaceForms(text);
    const englishRank = (w: string) => ({ user: 900, passwords: 12_000, hashed: 40_000 })[w];
    // one record shares user and hash by chance; none has passwords
    const hits = [{ id: 'A', matched: ['user', 'hash'] }];
    const plain = textEvidence({ terms, forms, englishRank }, hits).get('A')!;
    const weighed = textEvidence({ terms, forms, englishRank, unused: true }, hits).get('A')!;
    expect(UNUSED_WORD_WEIGHT).toBeGreaterThan(1);
    expect(weighed).toBeLessThan(plain);
    // every word used by some record: nothing changes
    const all = [{ id: 'A', matched: ['user', 'hash'] }, { id: 'B', matched: ['password'] }];
    expect(textEvidence({ terms, forms, englishRank, unused: true }, all).get('A')).toBeCloseTo(plain, 9);
  });

  it('a preposition or pronoun a question shares with a record is no telling word of its subject (DEC-110)', () => {
    const text = 'How are prices converted between currencies using exchange rates?';
    const terms = queryOf(text);
    const forms = surfaceForms(text);
    // between and using are rarer in English than the commonest words, and would pass as telling
    const englishRank = (w: string) => ({ prices: 3_000, converted: 9_000, between: 111, currencies: 20_000, using: 593, exchange: 2_500, rates: 1_900 })[w];
    const stem = (w: string) => queryOf(w).keys().next().value as string;
    // a record that speaks of prices between an admin and a shop, using a resolver: one telling word
    const chance = textEvidence({ terms, forms, englishRank, unused: true }, [{ id: 'A', matched: ['prices', 'between', 'using'].map(stem) }, { id: 'B', matched: [stem('rates')] }]).get('A')!;
    // the record that decides currency conversion meets the subject in two telling words
    const right = textEvidence({ terms, forms, englishRank, unused: true }, [{ id: 'C', matched: ['prices', 'currencies', 'exchange', 'rates'].map(stem) }]).get('C')!;
    expect(chance).toBeLessThan(RELEVANCE_FLOOR);
    expect(right).toBeGreaterThan(RELEVANCE_FLOOR);
  });

  it('a change is judged on the same scale: its floor of strength 1 is RELEVANCE_FLOOR (DEC-068)', () => {
    expect(changeRelevance(1)).toBeCloseTo(RELEVANCE_FLOOR, 3);
    expect(aboveFloor(changeRelevance(1))).toBe(true);
    expect(aboveFloor(changeRelevance(0.9))).toBe(false);
    expect(changeRelevance(50)).toBe(1);
  });

  it('answers nothing to off-topic questions and keeps the right record for on-topic ones', async () => {
    const repo = payments();
    const { snapshot, set, semantic } = await open(repo.dir);
    try {
      for (const q of OFF_TOPIC) {
        const r = await retrieveForText({ snapshot, set, semantic, text: q, staleness: false });
        expect({ q, results: r.results.map((x) => x.id) }).toEqual({ q, results: [] });
        for (const w of r.weak ?? []) expect(w.relevance).toBeLessThan(RELEVANCE_FLOOR);
      }
      const onTopic: [string, string][] = [
        ['which key makes a retried refund apply once?', 'ADR-0002'],
        ['what happens when the provider is down and a refund fails', 'ADR-0004'],
        ['how do we check that a webhook call really comes from the provider', 'ADR-0005'],
        ['payment stuck between authorised and captured', 'ADR-0003'],
      ];
      for (const [q, id] of onTopic) {
        const r = await retrieveForText({ snapshot, set, semantic, text: q, staleness: false });
        expect({ q, first: r.results[0]?.id }).toEqual({ q, first: id });
        expect(r.results[0]!.relevance).toBeGreaterThanOrEqual(RELEVANCE_FLOOR);
      }
      // a file whose code the records speak of is answered; one no record is about is not
      const key = await retrieveForPlace({ snapshot, set, semantic, target: { path: 'src/payments/idempotency.js' }, neighbours: false, staleness: false });
      expect(key.results[0]).toMatchObject({ id: 'ADR-0002', slot: 'fused' });
      const palette = await retrieveForPlace({ snapshot, set, semantic, target: { path: 'src/ui/palette.js' }, neighbours: false, staleness: false });
      expect(palette.results).toEqual([]);
    } finally {
      snapshot.close();
    }
  });

  it('a record only near in meaning to a question another record answers is not an answer (DEC-069)', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'docs/adr/0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', 'Accepted', 'We need to record the architectural decisions made on this project.', 'We will use Architecture Decision Records, as described by Michael Nygard.'),
      'docs/adr/0002-round-invoice-totals-with-bankers-rounding.md': adr(2, "Round invoice totals with banker's rounding", 'Accepted', 'Invoice totals drifted by a cent against the accounting system when lines were rounded half-up.', "Round each line with round-half-even (banker's rounding) on integer minor units, and sum the rounded lines."),
    });
    repo.commit('shop');
    const { snapshot, set, semantic } = await open(repo.dir);
    try {
      const r = await retrieveForText({ snapshot, set, semantic, text: 'how are invoice totals rounded', staleness: false });
      expect(r.results.map((x) => x.id)).toEqual(['ADR-0002']);
      // the record architecture decisions one is close in meaning only: weak, not an answer
      const weak = (r.weak ?? []).find((w) => w.id === 'ADR-0001');
      expect(weak).toBeDefined();
      expect(weak!.why.map((w) => w.kind)).toEqual(['semantic']);
      expect(weak!.relevance).toBeLessThan(RELEVANCE_FLOOR);
    } finally {
      snapshot.close();
    }
  });

  it('says so in the CLI, shows the weak band with --all and keeps it under `weak` in JSON', () => {
    const repo = payments();
    const q = ['search', 'Which', 'font', 'styles', 'the', 'support', 'page?'];
    const human = runCli(q, { cwd: repo.dir });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/no record here answers this \(\d+ weak match(es)? under the relevance floor: --all shows them\)/);
    expect(human.stdout).not.toContain('ADR-0004');
    const all = runCli([...q, '--all'], { cwd: repo.dir });
    expect(all.stdout).toContain('weak (under the relevance floor: probably not about this)');
    expect(all.stdout).toMatch(/ADR-0004 .*\(relevance 0\.\d\d\)/);
    const json = JSON.parse(runCli([...q, '--json'], { cwd: repo.dir }).stdout);
    expect(json.results).toEqual([]);
    expect(json.weak.map((x: { id: string }) => x.id)).toContain('ADR-0004');
    for (const w of json.weak) expect(w.relevance).toBeLessThan(RELEVANCE_FLOOR);
    // the documented keys of an answer are unchanged, with its relevance beside them
    const on = JSON.parse(runCli(['search', 'refund', 'retried', 'by', 'a', 'queue', 'worker', '--json'], { cwd: repo.dir }).stdout);
    expect(on.results[0]).toMatchObject({ id: 'ADR-0004', slot: 'fused', status: 'accepted', file: 'docs/adr/0004-refunds-retried-by-a-queue-worker.md' });
    expect(on.results[0].relevance).toBeGreaterThanOrEqual(RELEVANCE_FLOOR);
    expect(Array.isArray(on.weak)).toBe(true);
    // `for` and trace on a file no record is about: nothing, said plainly
    const place = runCli(['for', 'src/ui/palette.js'], { cwd: repo.dir });
    expect(place.stdout).toMatch(/nothing found|nothing here governs this/);
    // a question only a deprecated record meets says so, not "nothing found" (the semantic lane off: no weak band)
    repo.write({ 'docs/adr/0006-gift-cards.md': adr(6, 'Sell gift cards', 'Deprecated', 'Shops asked for gift cards.', 'We sold gift cards as vouchers until the tax rules changed.') });
    repo.commit('a deprecated record');
    const env = { GIT_CTX_EMBED_PROVIDER: 'off' };
    const out = runCli(['search', 'gift', 'cards', 'vouchers'], { cwd: repo.dir, env });
    expect(out.stdout).not.toContain('nothing found');
    expect(out.stdout).toMatch(/no record here answers this \(1 matching record hidden by filters: inactive records need --all\)/);
    expect(runCli(['search', 'gift', 'cards', 'vouchers', '--all'], { cwd: repo.dir, env }).stdout).toContain('ADR-0006');
    expect(place.stdout).not.toContain('ADR-');
    const trace = runCli(['trace', 'src/ui/palette.js'], { cwd: repo.dir });
    expect(trace.stdout).toContain('nothing governs this place');
    // trace's JSON keeps the fallback's keyword matches under the floor apart, each with its relevance
    writeFileSync(path.join(repo.dir, 'src/ui/footer.js'), "// the footer of the storefront\nexport const footer = { year: 2024, shop: 'open', provider: 'acme' };\n");
    const traceJson = JSON.parse(runCli(['trace', 'src/ui/footer.js', '--json'], { cwd: repo.dir }).stdout);
    expect(traceJson.fallback).toEqual([]);
    expect(traceJson.weak.length).toBeGreaterThan(0);
    for (const w of traceJson.weak) expect(w.relevance).toBeLessThan(RELEVANCE_FLOOR);
    expect(runCli(['trace', 'src/ui/footer.js'], { cwd: repo.dir }).stdout).toContain('nothing governs this place');
  });

  it('MCP tools say nothing governs, and the agent-read hook stays silent', async () => {
    const repo = payments();
    const c = await connect({ cwd: repo.dir });
    const s = await c.call('search_decisions', { query: 'kubernetes helm chart deployment' });
    expect(s.isError).toBeFalsy();
    expect(s.data.results).toEqual([]);
    expect(Array.isArray(s.data.weak)).toBe(true);
    expect(s.text).toContain("Nothing in this repository's records governs this");
    const p = await c.call('context_for_code', { place: 'src/ui/palette.js' });
    expect(p.data.results).toEqual([]);
    expect(p.text).toContain("Nothing in this repository's records governs this");
    const on = await c.call('search_decisions', { query: 'how are webhook signatures verified' });
    expect((on.data.results as { id: string }[])[0]!.id).toBe('ADR-0005');
    const payload = (file: string) => JSON.stringify({ session_id: 'floor', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(repo.dir, file) }, cwd: repo.dir });
    expect(runCli(['hook', 'agent-read'], { cwd: repo.dir, input: payload('src/ui/palette.js') })).toMatchObject({ code: 0, stdout: '' });
    const governed = runCli(['hook', 'agent-read'], { cwd: repo.dir, input: payload('src/payments/webhook.js') });
    expect(JSON.parse(governed.stdout).hookSpecificOutput.additionalContext).toContain('ADR-0005');
  });
});
