import { describe, expect, it } from 'vitest';
import { feedbackScores, rankWithFeedback, type FeedbackProfile } from '../../src/retrieve/feedback-rank.js';
import type { RetrievedRecord } from '../../src/retrieve/types.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { seeded } from '../helpers/seeded.js';
import { connect } from '../mcp/helpers.js';

const env = { GIT_CTX_NO_RECORD: '' };
const fm = (id: string, type: string, title: string, body: string) => `---\nid: ${id}\ntype: ${type}\ntitle: ${title}\nstatus: active\n---\n\n# ${title}\n\n${body}\n`;

/** Three records declared on src/pay/charge.ts (slot 1), two found by keywords only (fused band). */
function payRepo(feedbackRanking: boolean) {
  const repo = makeRepo({
    '.contextia/config.yaml': `retrieval:\n  feedback_ranking: ${feedbackRanking}\n`,
    '.contextia/system/specs/SPEC-PAY-001.md': fm('SPEC-PAY-001', 'spec', 'Charging cards', 'Charges go through the gateway.'),
    '.contextia/system/rationale/DEC-PAY-001.md': fm('DEC-PAY-001', 'decision', 'Idempotent charges', 'Every charge carries an idempotency key.'),
    '.contextia/system/rationale/DEC-PAY-002.md': fm('DEC-PAY-002', 'decision', 'Amounts in cents', 'Amounts are integers in cents.'),
    '.contextia/system/norms/NORM-RETRY-001.md': fm('NORM-RETRY-001', 'norm', 'Gateway retries', 'Retry the gateway charge with backoff; gateway charge retries are bounded.'),
    '.contextia/system/norms/NORM-AUDIT-001.md': fm('NORM-AUDIT-001', 'norm', 'Audit gateway charges', 'Every gateway charge is written to the audit log.'),
    'src/pay/charge.ts': '// @spec SPEC-PAY-001\n// @decision DEC-PAY-001\n// @decision DEC-PAY-002\nexport function charge(gateway: { charge(cents: number): void }, cents: number) {\n  gateway.charge(cents);\n}\n',
    'src/pay/refund.ts': '// @decision DEC-PAY-001\n// @decision DEC-PAY-002\nexport function refund(gateway: { charge(cents: number): void }, cents: number) {\n  gateway.charge(-cents);\n}\n',
  });
  repo.commit('pay');
  return repo;
}

type ForJson = { results: { id: string; slot: string; why: { kind: string; text: string }[] }[] };
const forPlace = (dir: string, place: string) => {
  const r = runCli(['for', place, '--json'], { cwd: dir, env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as ForJson;
};
const lastEpisode = (dir: string) => (JSON.parse(runCli(['episodes', '--limit', '1', '--json'], { cwd: dir, env }).stdout) as { episodes: { id: string }[] }).episodes[0]!.id;

function rec(id: string, slot: RetrievedRecord['slot']): RetrievedRecord {
  return { id, type: 'decision', title: id, status: null, file: `${id}.md`, slot, score: 1, why: [] };
}

describe('feedback ranking within a slot (retrieval.feedback_ranking)', () => {
  it('never moves a record across a slot, however the feedback reads (500 seeded random profiles)', () => {
    const results = [rec('D1', 'declared'), rec('D2', 'declared'), rec('D3', 'declared'), rec('F1', 'fused'), rec('F2', 'fused'), rec('F3', 'fused'), rec('F4', 'fused'), rec('L1', 'links'), rec('L2', 'links')];
    const rnd = seeded(42);
    let moves = 0;
    for (let trial = 0; trial < 500; trial++) {
      const profile: FeedbackProfile = { votes: [] };
      const n = Math.floor(rnd() * 40);
      for (let i = 0; i < n; i++) {
        const id = results[Math.floor(rnd() * results.length)]!.id;
        profile.votes.push({ episode: `e${i % 7}`, query: { kind: 'place', path: rnd() < 0.7 ? 'src/a.ts' : 'src/b.ts' }, ref: id, vote: rnd() < 0.5 ? 1 : -1 });
      }
      // feedback that screams: every slot-2 record useful 40 times, every slot-1 record not useful
      if (trial % 50 === 0) for (const r of results) for (let i = 0; i < 40; i++) profile.votes.push({ episode: `x${i}`, query: { kind: 'place', path: 'src/a.ts' }, ref: r.id, vote: r.slot === 'declared' ? -1 : 1 });
      const { results: out, moved } = rankWithFeedback(results, feedbackScores(profile, { kind: 'place', path: 'src/a.ts' }));
      moves += moved.length;
      expect(out.map((r) => r.slot)).toEqual(results.map((r) => r.slot));
      expect([...out.map((r) => r.id)].sort()).toEqual(results.map((r) => r.id).sort());
      const lastDeclared = Math.max(...out.flatMap((r, i) => (r.slot === 'declared' ? [i] : [])));
      const firstFused = Math.min(...out.flatMap((r, i) => (r.slot === 'fused' ? [i] : [])));
      expect(lastDeclared).toBeLessThan(firstFused);
      for (const m of moved) expect(out[m.to - 1]!.id).toBe(m.id);
    }
    expect(moves).toBeGreaterThan(100);
  });

  it('useful records move up and not-useful ones down within their slot; similar places count, others do not; an episode can be left out', () => {
    const results = [rec('D1', 'declared'), rec('D2', 'declared'), rec('D3', 'declared'), rec('F1', 'fused'), rec('F2', 'fused')];
    const profile: FeedbackProfile = {
      votes: [
        { episode: 'e1', query: { kind: 'place', path: 'src/pay/charge.ts' }, ref: 'D3', vote: 1 },
        { episode: 'e1', query: { kind: 'place', path: 'src/pay/charge.ts' }, ref: 'D1', vote: -1 },
        { episode: 'e2', query: { kind: 'place', path: 'src/pay/refund.ts' }, ref: 'F2', vote: 1 },
        { episode: 'e3', query: { kind: 'place', path: 'lib/other.ts' }, ref: 'D2', vote: 1 },
        { episode: 'e4', query: { kind: 'search', terms: ['charge', 'gateway'] }, ref: 'D2', vote: 1 },
      ],
    };
    const scores = feedbackScores(profile, { kind: 'place', path: 'src/pay/charge.ts' });
    expect(Object.fromEntries(scores)).toEqual({ D3: { score: 1, useful: 1, notUseful: 0 }, D1: { score: -1, useful: 0, notUseful: 1 }, F2: { score: 0.5, useful: 1, notUseful: 0 } });
    const { results: out, moved } = rankWithFeedback(results, scores);
    expect(out.map((r) => r.id)).toEqual(['D3', 'D2', 'D1', 'F2', 'F1']);
    expect(moved).toEqual([
      { id: 'D3', slot: 'declared', from: 3, to: 1, score: 1 },
      { id: 'D1', slot: 'declared', from: 1, to: 3, score: -1 },
      { id: 'F2', slot: 'fused', from: 5, to: 4, score: 0.5 },
      { id: 'F1', slot: 'fused', from: 4, to: 5, score: 0 },
    ]);
    expect(out[0]!.why.at(-1)).toMatchObject({ kind: 'feedback', text: expect.stringContaining('useful 1×') });
    expect(out[1]!.why).toEqual([]);
    // a question shares terms with e4's question: only its vote counts
    expect([...feedbackScores(profile, { kind: 'search', text: 'How does the gateway charge?' }).keys()]).toEqual(['D2']);
    expect(feedbackScores(profile, { kind: 'search', text: 'rounding of invoices' }).size).toBe(0);
    expect(feedbackScores(profile, { kind: 'place', path: 'src/pay/charge.ts' }, { exclude: 'e1' }).has('D3')).toBe(false);
  });

  it('end to end: off by default; on, feedback given through the CLI reorders `for` within slot 1 and the fused band, and eval --learn shows it', () => {
    const off = payRepo(false);
    const base = forPlace(off.dir, 'src/pay/charge.ts').results;
    const declared = base.filter((r) => r.slot === 'declared').map((r) => r.id);
    const fused = base.filter((r) => r.slot === 'fused').map((r) => r.id);
    expect(declared).toEqual(['SPEC-PAY-001', 'DEC-PAY-001', 'DEC-PAY-002']);
    expect(fused.length).toBeGreaterThanOrEqual(2);
    const ep = lastEpisode(off.dir);
    expect(runCli(['feedback', ep, '--useful', declared[2]!, fused.at(-1)!, '--not-useful', declared[0]!], { cwd: off.dir, env }).code).toBe(0);
    // off (the default): the same order, no feedback reasons
    const again = forPlace(off.dir, 'src/pay/charge.ts').results;
    expect(again.map((r) => r.id)).toEqual(base.map((r) => r.id));
    expect(again.flatMap((r) => r.why).some((w) => w.kind === 'feedback')).toBe(false);

    const on = payRepo(true);
    expect(forPlace(on.dir, 'src/pay/charge.ts').results.map((r) => r.id)).toEqual(base.map((r) => r.id));
    const ep1 = lastEpisode(on.dir);
    expect(runCli(['feedback', ep1, '--useful', declared[2]!, fused.at(-1)!, '--not-useful', declared[0]!], { cwd: on.dir, env }).code).toBe(0);
    const ranked = forPlace(on.dir, 'src/pay/charge.ts').results;
    const ep2 = lastEpisode(on.dir);
    const slots = ranked.map((r) => r.slot);
    expect(slots).toEqual(base.map((r) => r.slot));
    const d = ranked.filter((r) => r.slot === 'declared').map((r) => r.id);
    expect(d).toEqual([declared[2], declared[1], declared[0]]);
    expect(ranked.filter((r) => r.slot === 'fused')[0]!.id).toBe(fused.at(-1));
    expect(ranked[0]!.why.at(-1)).toMatchObject({ kind: 'feedback' });
    // the same directory counts half: refund.ts (DEC-PAY-001 then DEC-PAY-002 without feedback) sees the useful vote
    const refund = forPlace(on.dir, 'src/pay/refund.ts').results.filter((r) => r.slot === 'declared');
    expect(refund.map((r) => r.id)).toEqual(['DEC-PAY-002', 'DEC-PAY-001']);
    expect(refund[0]!.why.at(-1)!.text).toContain('useful 1× (score 0.5;');

    // new feedback is seen by the next retrieval (the store rewrites its profile with every feedback):
    // useful once now, not useful once before, it is back among the unjudged, in its original place
    expect(runCli(['feedback', ep2, '--useful', declared[0]!, '--note', 'changed my mind'], { cwd: on.dir, env }).code).toBe(0);
    const after = forPlace(on.dir, 'src/pay/charge.ts').results.filter((r) => r.slot === 'declared').map((r) => r.id);
    expect(after).toEqual([declared[2], declared[0], declared[1]]);

    const learn = runCli(['eval', '--learn', '--json'], { cwd: on.dir, env });
    expect(learn.stderr).toBe('');
    expect(learn.code).toBe(0);
    const report = JSON.parse(learn.stdout) as { episodes: { id: string; learn?: { moved: { id: string; slot: string }[] } }[]; learn: { enabled: boolean; votes: number; episodesChanged: number; moved: number } };
    expect(report.learn).toMatchObject({ enabled: true, votes: 4 });
    // each episode is ranked with the other's votes only
    expect(report.learn.episodesChanged).toBeGreaterThanOrEqual(1);
    const e1 = report.episodes.find((e) => e.id === ep2)!;
    expect(e1.learn!.moved.map((m) => m.id)).toContain(declared[2]);
    const human = runCli(['eval', '--learn'], { cwd: on.dir, env });
    expect(human.stdout).toContain('feedback ranking (retrieval.feedback_ranking is on; 4 votes, each episode ranked without its own):');
    expect(human.stdout).toMatch(/would reorder \d+ episodes? \(\d+ records? moved, none across a slot\); MRR/);
  });

  it('MCP: feedback from an agent reorders the next context_for_code answer within slot 1', async () => {
    const repo = payRepo(true);
    const c = await connect({ cwd: repo.dir });
    const ids = (r: { data: Record<string, unknown> }) => (r.data.results as { id: string; slot: string }[]).filter((x) => x.slot === 'declared').map((x) => x.id);
    const first = await c.call('context_for_code', { place: 'src/pay/charge.ts', session_id: 'agent-1' });
    expect(ids(first)).toEqual(['SPEC-PAY-001', 'DEC-PAY-001', 'DEC-PAY-002']);
    const fb = await c.call('feedback', { episode: first.data.episode as string, useful: ['DEC-PAY-002'], not_useful: ['SPEC-PAY-001'], session_id: 'agent-1' });
    expect(fb.isError).toBeFalsy();
    const second = await c.call('context_for_code', { place: 'src/pay/charge.ts', session_id: 'agent-1' });
    expect(ids(second)).toEqual(['DEC-PAY-002', 'DEC-PAY-001', 'SPEC-PAY-001']);
  });
});
