// @spec SPEC-STORE-001

import path from 'node:path';
import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import type { EpisodeDetail, EpisodeSummary } from '../../store/store.js';
import { parseSince } from '../../store/time.js';
import { plural } from '../../util/plural.js';
import { openCliStore } from '../record.js';
import { addRepoOptions, colors, formatOption, io, parsePositiveInt, type RepoOptions } from '../shared.js';
import { withPayloads } from '../../store/payloads.js';

interface EpisodesOptions extends RepoOptions {
  since?: string;
  place?: string;
  session?: string;
  limit: number;
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('episodes')
    .argument('[id]', 'show one episode (its id or a unique prefix of at least 4 characters)')
    .description('List recorded retrievals (episodes): who asked (cli, mcp with its session, hook, action), at which commit, what was asked, which lanes ran and what was returned')
    .option('--since <when>', 'only episodes since a duration ago (30m, 12h, 1d, 2w) or an ISO date')
    .option('--place <path>', 'only episodes about this path (a folder: anything under it), or that returned it')
    .option('--session <id>', 'only episodes of this agent session (MCP, agent hooks)')
    .option('-n, --limit <n>', 'most episodes listed, newest first', parsePositiveInt('--limit'), 50)
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText('after', '\nEpisodes are recorded by for, search, trace, bundles, pr, the MCP retrieval tools and agent-read hooks\n(off with GIT_CTX_NO_RECORD=1 or `record: false` in .contextia/config.yaml).\nExit codes: 0 listed (possibly nothing), 2 usage or environment error (an unknown id; SQLite not loadable).');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (id: string | undefined, o: EpisodesOptions) => {
    const { store, root, cwd } = await openCliStore(o);
    try {
      const json = o.json || o.format === 'json';
      if (id) {
        const found = store.getEpisode(id);
        if (!found) throw new CtxError('UNKNOWN_ID', `no episode ${id} in the evidence store`, { hint: 'list episodes with `git ctx episodes`' });
        // a long query is kept in the content-addressed payload folder: read it back whole
        const ep = withPayloads(store.dir, found);
        io().out(json ? `${JSON.stringify(ep, null, 2)}\n` : renderEpisode(ep));
        return;
      }
      const place = o.place === undefined ? undefined : path.relative(root, path.resolve(cwd, o.place)).split(path.sep).join('/');
      if (place !== undefined && (place.startsWith('..') || path.isAbsolute(place))) throw new CtxError('USAGE', `--place ${o.place} is outside the repository`);
      const list = store.listEpisodes({ since: o.since === undefined ? undefined : parseSince(o.since, Date.now()), place, session: o.session, limit: o.limit });
      io().out(json ? `${JSON.stringify({ episodes: list }, null, 2)}\n` : renderList(list));
    } finally {
      store.close();
    }
  });
}

function when(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function who(c: EpisodeSummary['caller']): string {
  return [c.kind, c.command, c.session ? `session ${c.session}` : ''].filter(Boolean).join(' ');
}

function what(q: EpisodeSummary['query']): string {
  return `${q.kind} ${JSON.stringify(q.text ?? q.place ?? '')}`;
}

function renderList(list: EpisodeSummary[]): string {
  if (!list.length) return 'no episodes recorded (yet): for, search, trace, bundles and the MCP tools record them\n';
  const p = colors();
  const lines = list.map((e) => {
    const fb = e.feedback_count ? `, ${plural(e.feedback_count, 'feedback', 'feedback')}` : '';
    return `${p.bold(e.id)}  ${when(e.at)}  ${who(e.caller)}  ${what(e.query)}  → ${plural(e.evidence_count, 'reference')}${fb}${e.dirty ? p.dim('  (dirty)') : ''}`;
  });
  return `${lines.join('\n')}\n${p.dim(`${plural(list.length, 'episode')}; \`git ctx episodes <id>\` shows one`)}\n`;
}

function renderEpisode(e: EpisodeDetail): string {
  const p = colors();
  const out = [
    `${p.bold(`episode ${e.id}`)}  ${when(e.at)}`,
    `caller:   ${who(e.caller)}`,
    `commit:   ${e.commit ?? '(unknown)'}${e.dirty === undefined ? '' : e.dirty ? ' (work tree dirty)' : ' (clean)'}`,
    `query:    ${what(e.query)}${e.query.place && e.query.place !== e.query.text ? ` at ${e.query.place}` : ''}`,
  ];
  if (e.ms !== undefined) out.push(`took:     ${e.ms} ms`);
  if (e.lanes.length) out.push(`lanes:    ${e.lanes.map((l) => `${l.name} ${l.status}${l.count ? ` (${l.count})` : ''}${l.message ? ` — ${l.message}` : ''}`).join(', ')}`);
  out.push(e.evidence.length ? 'returned:' : 'returned: nothing');
  for (const r of e.evidence) {
    const stale = r.stale ? `  ${p.red(`${r.stale.verdict} when shown`)} ${p.dim(`(${r.stale.run} run ${when(r.stale.at)}${r.stale.commit ? ` at ${r.stale.commit.slice(0, 8)}` : ''})`)}` : '';
    out.push(`  ${String(r.rank).padStart(2)}. ${r.kind} ${r.value}  ${p.dim(`[${[r.slot, r.grounding].filter(Boolean).join(', ')}]`)}${stale}`);
  }
  const refs = (role: string) => e.refs.filter((r) => r.role === role);
  if (refs('query').length) out.push(`asked:    ${refs('query').map((r) => `${r.kind} ${r.value} ${p.dim(`[${r.grounding}]`)}`).join(', ')}`);
  if (refs('via').length) {
    out.push('found via:');
    for (const r of refs('via')) out.push(`  ${String(r.rank).padStart(2)}. ${r.of} through ${r.kind} ${r.value}  ${p.dim(`[${r.grounding}]`)}`);
  }
  if (refs('context').length) out.push(`context:  ${refs('context').map((r) => `${r.kind} ${r.value} ${p.dim(`[${r.grounding}]`)}`).join(', ')}`);
  if (e.feedback.length) {
    out.push('feedback:');
    for (const f of e.feedback) out.push(`  ${when(f.at)}  ${f.verdict} ${f.ref}  ${p.dim(f.source)}${f.note ? `  “${f.note}”` : ''}`);
  }
  return `${out.join('\n')}\n`;
}
