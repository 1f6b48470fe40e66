// @spec SPEC-STORE-001

import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import type { EvalReport } from '../../retrieve/eval.js';
import { parseSince } from '../../store/time.js';
import { plural } from '../../util/plural.js';
import { openCliStore } from '../record.js';
import { ExitCode, addRepoOptions, colors, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';

interface EvalOptions extends RepoOptions {
  since?: string;
  limit?: number;
  minRecall?: string;
  learn?: boolean;
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('eval')
    .description('Replay recorded episodes that received feedback against the current engine and records: recall and precision of what feedback marked useful or missing, now and as recorded')
    .option('--since <when>', 'only episodes since a duration ago (30m, 12h, 1d, 2w) or an ISO date')
    .option('--min-recall <r>', 'exit 1 when recall now is below this (0..1): a retrieval regression gate')
    .option('--learn', 'also show what feedback ranking (retrieval.feedback_ranking) would change: records moved within their slot by the feedback of other episodes, and the rank of the first relevant record with and without it')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText(
      'after',
      [
        '',
        'Feedback ranking is off by default; `retrieval: { feedback_ranking: true }` in .contextia/config.yaml turns it on for',
        'for, search, trace and the MCP tools. It only reorders records within their slot (declared, fused, links), never across.',
        'Exit codes: 0 evaluated, 1 recall below --min-recall, 2 usage or environment error (SQLite not loadable).',
      ].join('\n'),
    );
  addRepoOptions(cmd, { at: true, staged: false }).action(async (o: EvalOptions) => {
    const min = o.minRecall === undefined ? undefined : Number(o.minRecall);
    if (min !== undefined && !(min >= 0 && min <= 1)) throw new CtxError('USAGE', `--min-recall must be a number from 0 to 1 (got ${JSON.stringify(o.minRecall)})`);
    const since = o.since === undefined ? undefined : parseSince(o.since, Date.now());
    const { store } = await openCliStore(o);
    let report: EvalReport;
    try {
      const repo = await loadRepo(o);
      try {
        const { evaluateEpisodes } = await import('../../retrieve/eval.js');
        const { semanticLaneFor } = await import('../../semantic/lane.js');
        report = await evaluateEpisodes({ store, snapshot: repo.snapshot, set: repo.set, semantic: semanticLaneFor(repo.snapshot.root, repo.set, io().env), since, learn: o.learn });
      } finally {
        repo.close();
      }
    } finally {
      store.close();
    }
    io().out(o.json || o.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderEval(report));
    if (min !== undefined && report.totals.recall !== null && report.totals.recall < min) throw new ExitCode(1);
  });
}

const num = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const rank = (rr: number) => (rr ? `#${Math.round(1 / rr)}` : 'none');
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

function renderEval(r: EvalReport): string {
  const p = colors();
  if (!r.episodes.length && !r.skipped.length) return 'no episodes with feedback to replay: give feedback with `git ctx feedback <episode> --useful ID`\n';
  const out: string[] = [];
  for (const e of r.episodes) {
    const change = e.lost.length ? p.red(` lost ${e.lost.join(', ')}`) : e.gained.length ? p.green(` gained ${e.gained.join(', ')}`) : '';
    out.push(`${e.id}  ${e.query.kind} ${JSON.stringify(e.query.text ?? e.query.place ?? '')}  recall ${pct(e.recall)} (was ${pct(e.recordedRecall)})  precision ${pct(e.precision)} (was ${pct(e.recordedPrecision)})${change}`);
  }
  for (const s of r.skipped) out.push(p.dim(`${s.id}  not replayed: ${s.reason}`));
  if (r.learn) {
    const l = r.learn;
    out.push('', p.bold(`feedback ranking (retrieval.feedback_ranking is ${l.enabled ? 'on' : 'off'}; ${plural(l.votes, 'vote')}, each episode ranked without its own):`));
    for (const e of r.episodes) {
      if (!e.learn?.moved.length) continue;
      const moves = e.learn.moved.map((m) => `${m.id} ${m.from}→${m.to} (${m.slot}, ${m.score > 0 ? '+' : ''}${m.score})`).join(', ');
      out.push(`${e.id}  ${moves}  first relevant ${rank(e.learn.mrr)} → ${rank(e.learn.mrrWithFeedback)}`);
    }
    out.push(
      l.episodesChanged
        ? `would reorder ${plural(l.episodesChanged, 'episode')} (${plural(l.moved, 'record')} moved, none across a slot); MRR ${num(l.mrr)} → ${num(l.mrrWithFeedback)}`
        : 'would change no answer: no similar place or question has feedback on what these answers return',
    );
  }
  const t = r.totals;
  out.push('', `${plural(r.episodes.length, 'episode')} replayed, ${plural(t.relevant, 'relevant reference')}: recall ${pct(t.recall)} (recorded ${pct(t.recordedRecall)}), precision ${pct(t.precision)} (recorded ${pct(t.recordedPrecision)})`);
  return `${out.join('\n')}\n`;
}
