import path from 'node:path';
import type { Command } from '../commander.js';
import { parseTraceTarget } from '../../retrieve/trace.js';
import { analyzeImpact, openImpactBackend, DEFAULT_IMPACT_DEPTH, DEFAULT_IMPACT_LIMIT, type ImpactHit, type ImpactResult, type ImpactStep } from '../../impact/index.js';
import type { Paint } from '../../util/color.js';
import { plural } from '../../util/plural.js';
import { addRepoOptions, colors, formatOption, io, loadRepo, parsePositiveInt, type RepoOptions } from '../shared.js';

interface ImpactCliOptions extends RepoOptions {
  format: 'human' | 'json';
  json?: boolean;
  reverse?: boolean;
  depth: number;
  limit: number;
}

const stepText = (s: ImpactStep) => `${s.reverse ? `${s.to} ${s.kind} ${s.from}` : `${s.from} ${s.kind} ${s.to}`}${s.via ? ` (via ${s.via})` : ''}${s.where ? ` [${s.where}]` : ''}`;

function hitLines(h: ImpactHit, p: Paint): string[] {
  const head =
    h.node.kind === 'artifact'
      ? `${p.bold(h.node.id)}  ${h.type ?? ''}${h.status ? ` ${h.status}` : ''}  ${h.title ?? ''}`
      : `${p.bold(h.node.id)}`;
  const tags = [h.weak ? p.yellow('mentioned only (weaker)') : '', h.stale ? p.red(`${h.stale.verdict} (last judged ${h.stale.at.slice(0, 10)}${h.stale.commit ? ` at ${h.stale.commit.slice(0, 8)}` : ''})`) : ''].filter(Boolean);
  const lines = [`  ${String(h.distance).padStart(2)}  ${head}${tags.length ? `  ${tags.join('  ')}` : ''}`];
  for (const s of h.path) lines.push(`      ${p.dim(stepText(s))}`);
  return lines;
}

const RENDERERS: Record<'human' | 'json', (r: ImpactResult, p: Paint) => string> = {
  json: (r) => JSON.stringify({ version: 1, ...r }, null, 2) + '\n',
  human: (r, p) => {
    const q = r.query;
    const what = q.kind === 'artifact' ? (q.direction === 'forward' ? 'what a change to it touches' : 'what it relies on') : 'the records a change here touches';
    const lines = [`${p.bold(q.id)}  ${p.dim(`${what} (${q.direction}, depth ${q.depth})`)}`];
    lines.push(r.artifacts.length ? `records (${r.artifacts.length}):` : p.dim('no records reached'));
    for (const h of r.artifacts) lines.push(...hitLines(h, p));
    if (r.code.length) lines.push(`code (${r.code.length}):`);
    for (const h of r.code) lines.push(...hitLines(h, p));
    if (r.truncated) lines.push(p.yellow(`${plural(r.truncated, 'more result')} left out by --limit`));
    // nothing reached: say what would connect it, not only that nothing does
    if (!r.artifacts.length && !r.code.length) {
      lines.push(
        p.dim(
          q.kind === 'artifact'
            ? `  it names no code (paths:, anchors, @decision/@spec annotations or code named in its text) and ${q.direction === 'forward' ? 'no record relies on it' : 'requires no record'}`
            : `  no record is declared on this code or on the code that uses it; \`git ctx for ${q.id}\` lists records related by words, mentions and nearness`,
        ),
      );
    }
    return lines.join('\n') + '\n';
  },
};

export function register(program: Command): void {
  const cmd = program
    .command('impact')
    .argument('<target>', 'an artifact id, or a path, directory, path:line or path#Symbol (relative to the current directory)')
    .description('What a change touches: forward from a record, the code it governs and the records relying on it; reverse from code, the records declared on it and on the code that uses it; each result with its path of edges')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .option('--reverse', 'for an id: what the record relies on (its code, the records it requires); code targets are always walked this way')
    .option('--depth <n>', `edges to follow from the target (1-20, default ${DEFAULT_IMPACT_DEPTH})`, parsePositiveInt('--depth'), DEFAULT_IMPACT_DEPTH)
    .option('--limit <n>', `most records and most code places listed, each (default ${DEFAULT_IMPACT_LIMIT})`, parsePositiveInt('--limit'), DEFAULT_IMPACT_LIMIT)
    .addHelpText('after', '\nExit codes: 0 answered (also when nothing is reached), 2 unknown target, usage or environment error.');
  addRepoOptions(cmd, { at: true, staged: false }).action(async (target: string, o: ImpactCliOptions) => {
    // edges and markers live in the evidence store (without its SQLite module, in files under .git/ctx):
    // opened from where the command runs, so the driver loads while git lists the records
    const opening = openImpactBackend(o.root ? path.resolve(io().cwd, o.root) : io().cwd).then(
      (b) => ({ b }),
      (e: unknown) => ({ e }),
    );
    let repo: Awaited<ReturnType<typeof loadRepo>>;
    try {
      repo = await loadRepo(o);
    } catch (e) {
      const opened = await opening;
      if ('b' in opened) opened.b.close();
      throw e;
    }
    try {
      // an id is taken as it is; anything else is a path relative to where the command runs
      let t = target;
      if (!repo.set.byId.has(target)) {
        const place = parseTraceTarget(target, repo.snapshot.root, repo.cwd);
        t = `${place.path}${place.symbol ? `#${place.symbol}` : place.line !== undefined ? `:${place.line}` : ''}`;
      }
      const opened = await opening;
      if ('e' in opened) throw opened.e;
      const backend = opened.b;
      try {
        const result = await analyzeImpact({ snapshot: repo.snapshot, set: repo.set, target: t, reverse: o.reverse, depth: o.depth, limit: o.limit, store: backend.edges, markers: backend.markers });
        io().out(RENDERERS[o.json ? 'json' : o.format]({ ...result, edges: { ...result.edges, backend: backend.kind } }, colors()));
      } finally {
        backend.close();
      }
    } finally {
      repo.close();
    }
  });
}
