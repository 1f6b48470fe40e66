import { describe, expect, it } from 'vitest';
import { loadArtifactSet, type ArtifactSet } from '../../src/artifacts/load.js';
import type { Artifact } from '../../src/artifacts/types.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { extractPlaceTerms, placeQuery } from '../../src/retrieve/extract.js';
import { mentionSignals, retrieveForPlace, retrieveForText } from '../../src/retrieve/engine.js';
import { splitWords, stem, terms } from '../../src/retrieve/text.js';
import type { RetrieveOptions, SemanticLane } from '../../src/retrieve/types.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, type: string, fm: string, body = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\n${fm}---\n\n# ${id}\n\n${body}\n`;

/** A repository with records of every kind of evidence. */
function fixture(extra: Record<string, string> = {}) {
  const repo = makeRepo({
    'src/webhooks/limiter.ts': [
      "import { clock } from '../util/clock';",
      '// Token bucket: throttle incoming webhook deliveries per sender.',
      'export function throttleWebhook(sender: string) {',
      "  const bucket = clock.now();",
      "  return `rate limit for ${sender}`;",
      '}',
      '',
    ].join('\n'),
    'src/util/clock.ts': '// @decision DEC-CLOCK\nexport const clock = { now: () => Date.now() };\n',
    'src/billing/invoice.ts': 'export function total(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
    '.contextia/system/rationale/DEC-RATE.md': rec('DEC-RATE', 'decision', 'status: accepted\nsummary: Webhook deliveries are throttled with a token bucket per sender.\nkeywords: [rate limit, throttle, webhook]\n', 'We throttle webhook deliveries with a token bucket keyed by sender.'),
    '.contextia/system/rationale/DEC-CLOCK.md': rec('DEC-CLOCK', 'decision', 'status: accepted\nsummary: One injectable clock.\n', 'Time comes from one clock.'),
    '.contextia/system/specs/SPEC-BILLING.md': rec('SPEC-BILLING', 'spec', 'status: active\npaths: [src/billing/**, "!src/billing/generated/**"]\n', 'Invoices and totals.'),
    '.contextia/system/rationale/DEC-OLD.md': rec('DEC-OLD', 'decision', 'status: superseded\nkeywords: [invoice rounding]\n', 'Invoice totals round half up per line.'),
    '.contextia/system/rationale/DEC-NEW.md': rec('DEC-NEW', 'decision', 'status: accepted\nrelations:\n  supersedes: [DEC-OLD]\n', 'Totals are computed in cents.'),
    '.contextia/system/rationale/DEC-CAUSE.md': rec('DEC-CAUSE', 'decision', 'status: accepted\nrelations:\n  caused_by: [DEC-RATE]\n', 'Because of the sender buckets, retries back off.'),
    ...extra,
  });
  repo.commit('fixture');
  return repo;
}

async function open(dir: string): Promise<{ set: ArtifactSet; close: () => void; opts: Pick<RetrieveOptions, 'snapshot' | 'set'> }> {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const config = await loadConfig(snapshot);
  const set = await loadArtifactSet(snapshot, config);
  return { set, close: () => snapshot.close(), opts: { snapshot, set } };
}

/** A copy of a loaded set where some records carry mentions (as the ADR reader fills them). */
function withMentions(set: ArtifactSet, mentions: Record<string, Artifact['mentions']>): ArtifactSet {
  const artifacts = set.artifacts.map((a) => {
    const copy = JSON.parse(JSON.stringify(a)) as Artifact;
    if (mentions[a.id]) copy.mentions = mentions[a.id];
    return copy;
  });
  return { ...set, artifacts, byId: new Map(artifacts.map((a) => [a.id, a])) };
}

describe('text', () => {
  it('splits identifiers and stems lightly so code meets prose', () => {
    expect(splitWords('parseHTTPRequest_v2 rate-limit')).toEqual(['parse', 'http', 'request', 'v2', 'rate', 'limit']);
    expect(stem('limiting')).toBe(stem('limits'));
    expect(stem('throttled')).toBe(stem('throttle'));
    expect(stem('policies')).toBe('policy');
    expect(stem('retried')).toBe(stem('retry'));
    expect(stem('queried')).toBe(stem('queries'));
    expect(stem('tried')).toBe('try');
    // a noun in -ization meets its verb, and British spellings meet American ones
    for (const [a, b] of [['serialization', 'serialize'], ['serialized', 'serializing'], ['initialisation', 'initialize'], ['organised', 'organization'], ['serialiser', 'serializer'], ['licence', 'license'], ['behaviour', 'behavior'], ['modelling', 'modeling'], ['cancelled', 'canceled'], ['analyse', 'analyze'], ['centre', 'center']] as const) expect(stem(a), a).toBe(stem(b));
    // a noun in -ification meets its verb in -ify; the adjective and an -ication noun of another verb do not move
    for (const [a, b] of [['verification', 'verified'], ['classification', 'classify'], ['notifications', 'notifying'], ['specification', 'specified'], ['modification', 'modifies']] as const) expect(stem(a), a).toBe(stem(b));
    expect(stem('specific')).not.toBe(stem('specify'));
    expect(stem('application')).not.toBe(stem('apply'));
    // a verb in -ate meets its noun in -ation and its agent in -ator, in every form; a verb in -at does not lose it
    for (const [a, b] of [['authenticate', 'authentication'], ['validated', 'validator'], ['migrating', 'migrations'], ['created', 'creation'], ['updates', 'updating'], ['paginated', 'pagination'], ['immediately', 'immediate'], ['certificates', 'certification'], ['templating', 'templates']] as const) expect(stem(a), a).toBe(stem(b));
    for (const [a, b] of [['formatted', 'format'], ['floating', 'float'], ['treated', 'treat'], ['repeating', 'repeat']] as const) expect(stem(a), a).toBe(stem(b));
    expect(stem('formatted')).not.toBe(stem('form'));
    expect(stem('treated')).not.toBe(stem('tree'));
    // words spelt -ise on both sides keep their s
    for (const w of ['promise', 'expertise', 'enterprise', 'advertised', 'otherwise', 'raise', 'noise', 'premise']) expect(stem(w), w).not.toMatch(/iz/);
    expect(terms('rateLimitWebhooks for the sender')).toEqual(['rate', 'limit', 'webhook', 'sender']);
  });

  it('extracts identifiers, comments, string literals, imports and path words from code', () => {
    const t = extractPlaceTerms("import { x } from './retry/backoff';\n// exponential backoff\nconst maxDelayMs = 'jitter applied';\n", 'src/net/retryPolicy.ts');
    expect(t.comments).toEqual(['exponential', 'backoff']);
    expect(t.strings).toContain(stem('jitter'));
    expect(t.imports).toEqual(['retry', 'backoff']);
    expect(t.identifiers).toEqual(expect.arrayContaining(['max', 'delay', 'ms']));
    expect(t.identifiers).not.toContain(stem('jitter')); // literals are not identifiers
    expect(t.path).toEqual(['net', 'retry', 'policy']);
    const q = placeQuery(t);
    expect(q.get('backoff')!).toBeGreaterThan(q.get('max')!);
  });

  it("reads 'strict' as a word of prose and code, but not JavaScript's 'use strict' directive", () => {
    expect(terms('Enable TypeScript strict mode')).toContain('strict');
    const t = extractPlaceTerms("'use strict';\nconst strictParsing = parse(input, { mode: 'strict' });\n", 'lib/parse.js');
    expect(t.strings).toEqual(['strict']);
    expect(t.identifiers).toContain('strict');
  });

  it("reads Rust's and PHP's #[…] attributes as code, its /// and //! doc comments and a # comment as prose", () => {
    const rs = extractPlaceTerms('//! Light blocks.\n#![allow(dead_code)]\n\n/// Signed by enough voting power.\n#[derive(Serialize, Deserialize)]\npub struct Verdict;\n', 'verifier/src/verdict.rs');
    expect(rs.comments).toEqual(terms('Light blocks. Signed by enough voting power.'));
    for (const w of ['derive', 'serialize', 'allow']) {
      expect(rs.comments).not.toContain(stem(w));
      expect(rs.identifiers).toContain(stem(w));
    }
    const php = extractPlaceTerms('#[AsMessageHandler]\nfinal class SendOrderConfirmation\n{\n    # a plain comment\n}\n', 'src/Handler/SendOrderConfirmation.php');
    expect(php.comments).toEqual(terms('a plain comment'));
    expect(php.identifiers).toContain(stem('message'));
  });
});

describe('retrieveForPlace', () => {
  it('finds the governing record of a file no record names by reading its code (passive extraction)', async () => {
    const repo = fixture();
    const { opts, close } = await open(repo.dir);
    try {
      const r = await retrieveForPlace({ ...opts, target: { path: 'src/webhooks/limiter.ts' }, neighbours: false });
      const first = r.results.find((x) => x.slot === 'fused')!;
      expect(first.id).toBe('DEC-RATE');
      const kw = first.why.find((w) => w.kind === 'keywords')!;
      expect(kw.terms).toEqual(expect.arrayContaining(['webhook', 'throttle', 'bucket']));
      expect(kw.contribution).toBe(1);
      expect(r.slots.keywords).toMatchObject({ status: 'ok', cap: 5 });
      expect(r.slots.semantic.status).toBe('not-configured');
    } finally {
      close();
    }
  });

  it('ranks a declared hit above any fused evidence, and walks imports to what is declared there', async () => {
    const repo = fixture({ 'tsconfig.json': '{ "compilerOptions": { "baseUrl": "." } }\n' });
    const { opts, close } = await open(repo.dir);
    try {
      const r = await retrieveForPlace({ ...opts, target: { path: 'src/webhooks/limiter.ts' } });
      const ids = r.results.map((x) => x.id);
      expect(r.results[0]).toMatchObject({ id: 'DEC-CLOCK', slot: 'declared' });
      expect(r.results[0]!.why[0]).toMatchObject({ kind: 'graph', path: ['src/webhooks/limiter.ts', 'src/util/clock.ts'] });
      expect(ids.indexOf('DEC-RATE')).toBeGreaterThan(0);
      // priority: every declared score is above every fused score
      const declared = r.results.filter((x) => x.slot === 'declared').map((x) => x.score);
      const fused = r.results.filter((x) => x.slot === 'fused').map((x) => x.score);
      expect(Math.min(...declared)).toBeGreaterThan(Math.max(...fused));
    } finally {
      close();
    }
  });

  it('resolves imports through tsconfig paths aliases (default TypeScript provider)', async () => {
    const repo = fixture({
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@util/*": ["src/util/*"] } } }\n',
      'src/webhooks/limiter.ts': "import { clock } from '@util/clock';\nexport const f = () => clock.now();\n",
    });
    const { opts, close } = await open(repo.dir);
    try {
      const r = await retrieveForPlace({ ...opts, target: { path: 'src/webhooks/limiter.ts' } });
      expect(r.results[0]).toMatchObject({ id: 'DEC-CLOCK', slot: 'declared' });
      // and the other way: the clock's importers
      const back = await retrieveForPlace({ ...opts, target: { path: 'src/util/clock.ts' } });
      expect(back.results[0]).toMatchObject({ id: 'DEC-CLOCK', slot: 'declared' });
      expect(back.results[0]!.why[0]!.kind).toBe('annotation');
    } finally {
      close();
    }
  });

  it('declared paths go through one paths: set (! exclusions) and hide inactive records, following the successor', async () => {
    const rounding = '// invoice rounding\nexport const invoiceRounding = 1;\n';
    const repo = fixture({ 'src/billing/generated/rounding.ts': rounding, 'src/billing/rounding.ts': rounding });
    const { opts, close } = await open(repo.dir);
    try {
      const r = await retrieveForPlace({ ...opts, target: { path: 'src/billing/invoice.ts' }, neighbours: false });
      expect(r.results[0]).toMatchObject({ id: 'SPEC-BILLING', slot: 'declared' });
      expect(r.results[0]!.why[0]!.kind).toBe('paths');
      const gen = await retrieveForPlace({ ...opts, target: { path: 'src/billing/generated/rounding.ts' }, neighbours: false });
      expect(gen.results.some((x) => x.id === 'SPEC-BILLING' && x.slot === 'declared')).toBe(false);
      // a generated folder's code is governed by nothing its words meet (DEC-101): DEC-OLD is
      // weak there, and leads to no successor
      expect(gen.ungovernable?.reason).toBe('generated');
      expect(gen.results.map((x) => x.id)).toEqual([]);
      const genAll = await retrieveForPlace({ ...opts, target: { path: 'src/billing/generated/rounding.ts' }, neighbours: false, filters: { all: true } });
      expect(genAll.weak?.map((x) => x.id)).toContain('DEC-OLD');
      // DEC-OLD matches the keywords but is superseded: hidden, and its successor is shown instead
      const own = await retrieveForPlace({ ...opts, target: { path: 'src/billing/rounding.ts' }, neighbours: false });
      expect(own.results.map((x) => x.id)).not.toContain('DEC-OLD');
      const succ = own.results.find((x) => x.id === 'DEC-NEW')!;
      expect(succ).toMatchObject({ slot: 'links' });
      expect(succ.why[0]).toMatchObject({ kind: 'successor', path: ['DEC-NEW', 'supersedes', 'DEC-OLD'] });
      expect(own.slots.metadata.count).toBeGreaterThan(0);
      // --all shows it, marked
      const all = await retrieveForPlace({ ...opts, target: { path: 'src/billing/rounding.ts' }, neighbours: false, filters: { all: true } });
      expect(all.results.find((x) => x.id === 'DEC-OLD')).toMatchObject({ inactive: true, status: 'superseded' });
    } finally {
      close();
    }
  });

  it('uses mentions as a fused signal, never above declared hits', async () => {
    const repo = fixture();
    const base = await open(repo.dir);
    try {
      const set = withMentions(base.set, {
        'DEC-CAUSE': [{ target: 'src/billing/invoice.ts', line: 7 }],
        'DEC-CLOCK': [{ target: 'src/billing', line: 3 }],
      });
      const sig = mentionSignals(set, 'src/billing/invoice.ts');
      expect(sig.get('DEC-CAUSE')!.score).toBeGreaterThan(sig.get('DEC-CLOCK')!.score);
      const r = await retrieveForPlace({ snapshot: base.opts.snapshot, set, target: { path: 'src/billing/invoice.ts' }, neighbours: false });
      expect(r.results[0]!.id).toBe('SPEC-BILLING');
      const cause = r.results.find((x) => x.id === 'DEC-CAUSE')!;
      expect(cause.slot).toBe('fused');
      expect(cause.why.find((w) => w.kind === 'mention')).toMatchObject({ text: 'mentions src/billing/invoice.ts (.contextia/system/rationale/DEC-CAUSE.md:7)' });
      expect(r.slots.mentions.count).toBeGreaterThan(0);
      // without mentions (plain .contextia records) the lane answers with nothing
      const plain = await retrieveForPlace({ ...base.opts, target: { path: 'src/billing/invoice.ts' }, neighbours: false });
      expect(plain.slots.mentions).toMatchObject({ status: 'ok', count: 0 });
    } finally {
      base.close();
    }
  });

  it('follows typed relations from the hits (slot 3) and honours caps', async () => {
    const repo = fixture();
    const { opts, close } = await open(repo.dir);
    try {
      const r = await retrieveForText({ ...opts, text: 'throttle webhook deliveries', caps: { fused: 1 } });
      expect(r.results.filter((x) => x.slot === 'fused').map((x) => x.id)).toEqual(['DEC-RATE']);
      const link = r.results.find((x) => x.slot === 'links')!;
      expect(link.id).toBe('DEC-CAUSE');
      expect(link.why[0]).toMatchObject({ kind: 'link', path: ['DEC-RATE', 'leads_to', 'DEC-CAUSE'] });
      expect(r.slots.keywords).toMatchObject({ cap: 1, count: 1 });
      const none = await retrieveForText({ ...opts, text: 'throttle webhook deliveries', caps: { links: 0 } });
      expect(none.results.some((x) => x.slot === 'links')).toBe(false);
      const deep = await retrieveForText({ ...opts, text: 'throttle webhook deliveries', linkDepth: 0 });
      expect(deep.results.some((x) => x.slot === 'links')).toBe(false);
    } finally {
      close();
    }
  });

  it('applies metadata filters (type, status, since)', async () => {
    const repo = fixture({ '.contextia/system/specs/SPEC-HOOKS.md': rec('SPEC-HOOKS', 'spec', 'status: active\ncreated: 2026-03-01\n', 'Webhook throttle settings.') });
    const { opts, close } = await open(repo.dir);
    try {
      const specs = await retrieveForText({ ...opts, text: 'webhook throttle', filters: { type: ['spec'] } });
      expect(specs.results.map((x) => x.id)).toEqual(['SPEC-HOOKS']);
      const since = await retrieveForText({ ...opts, text: 'webhook throttle', filters: { since: '2026-02-01' } });
      expect(since.results.map((x) => x.id)).toEqual(['SPEC-HOOKS']);
      const status = await retrieveForText({ ...opts, text: 'webhook throttle', filters: { status: ['accepted'] } });
      expect(status.results.map((x) => x.id)).not.toContain('SPEC-HOOKS');
    } finally {
      close();
    }
  });

  it('reports a failing lane and still answers from the others', async () => {
    const repo = fixture();
    const { opts, close } = await open(repo.dir);
    try {
      const broken: SemanticLane = { name: 'broken', similar: () => Promise.reject(new Error('embedding endpoint down')) };
      const r = await retrieveForText({ ...opts, text: 'webhook throttle', semantic: broken });
      expect(r.slots.semantic).toMatchObject({ status: 'failed', message: 'embedding endpoint down' });
      expect(r.results[0]!.id).toBe('DEC-RATE');
      const slow: SemanticLane = { name: 'slow', similar: () => new Promise(() => undefined) };
      const t = await retrieveForText({ ...opts, text: 'webhook throttle', semantic: slow, laneTimeoutMs: 50 });
      expect(t.slots.semantic.status).toBe('timeout');
      expect(t.results[0]!.id).toBe('DEC-RATE');
      const good: SemanticLane = { name: 'fixed', similar: async () => [{ id: 'DEC-CLOCK', score: 0.9 }] };
      // a question: the one record clearly closest in meaning is an answer, its contribution shown
      const g = await retrieveForText({ ...opts, text: 'how do we throttle webhooks?', semantic: good });
      expect(g.results.find((x) => x.id === 'DEC-CLOCK')!.why[0]).toMatchObject({ kind: 'semantic', contribution: 0.72 });
      // keywords are judged by their words (DEC-094): the same record is listed under weak, shown the same way
      const k = await retrieveForText({ ...opts, text: 'webhook throttle', semantic: good });
      expect(k.results.map((x) => x.id)).not.toContain('DEC-CLOCK');
      expect((k.weak ?? []).find((x) => x.id === 'DEC-CLOCK')!.why[0]).toMatchObject({ kind: 'semantic', contribution: 0.72 });
    } finally {
      close();
    }
  });

  it('answers a search word naming a file with what is declared on it', async () => {
    const repo = fixture();
    const { opts, close } = await open(repo.dir);
    try {
      const r = await retrieveForText({ ...opts, text: 'how is src/billing/invoice.ts rounded?' });
      expect(r.results[0]).toMatchObject({ id: 'SPEC-BILLING', slot: 'declared' });
    } finally {
      close();
    }
  });
});
