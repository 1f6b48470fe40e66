import { paint, type Paint } from '../util/color.js';
import { plural } from '../util/plural.js';
import type { ArtifactJudgement, StaleReport, StaleStatus } from './types.js';
import { anchorStateText, recordStateLabel } from './vocabulary.js';

export type StaleFormat = 'human' | 'json';

const short = (id: string) => id.slice(0, 10);
const day = (iso: string) => iso.slice(0, 10);

function human(r: StaleReport, p: Paint, opts: { all?: boolean }): string {
  const color: Record<StaleStatus, (s: string) => string> = { stale: p.red, moved: p.yellow, unstamped: p.yellow, unanchored: p.dim, fresh: p.green };
  const lines: string[] = [];
  for (const w of r.warnings) lines.push(p.yellow(`warning: ${w}`));
  // unanchored artifacts (most norms and principles) have nothing to drift: counted in the
  // summary, listed only with --all, so the default output is what needs attention
  const shown = r.artifacts.filter((j) => opts.all || (j.status !== 'fresh' && j.status !== 'unanchored') || (j.status === 'fresh' && (j.lifecycle.supersededBy.length || j.lifecycle.inactive)));
  for (const j of shown) lines.push(...artifactLines(j, p, color));
  const c = r.counts;
  const summary = `${plural(r.artifacts.length, 'artifact')}: ${c.stale} stale, ${c.moved} moved, ${c.unstamped} unstamped, ${c.unanchored} unanchored, ${c.fresh} fresh`;
  lines.push(c.stale || c.moved ? summary : p.green(`✓ ${summary}`));
  if (c.moved) lines.push(p.dim('moved anchors can be re-stamped with: git ctx stamp --fix'));
  return lines.join('\n') + '\n';
}

function artifactLines(j: ArtifactJudgement, p: Paint, color: Record<StaleStatus, (s: string) => string>): string[] {
  const out: string[] = [];
  const life = j.lifecycle.supersededBy.length ? p.yellow(` [superseded by ${j.lifecycle.supersededBy.join(', ')}]`) : j.lifecycle.inactive ? p.yellow(` [${j.lifecycle.status}]`) : '';
  const how = j.method === 'fingerprints' ? 'fingerprints' : j.method === 'history' ? `history since ${short(j.base!.commit)}` : '';
  // the state in the shared vocabulary (src/staleness/vocabulary.ts, docs/states.md)
  const label = recordStateLabel(j.status, j.mentioned);
  out.push(`${color[j.status](label.padEnd(10))} ${p.bold(j.id)}${life}  ${p.dim(j.file)}${how ? p.dim(`  (${how})`) : ''}`);
  for (const n of j.notes) if (!n.startsWith('superseded by')) out.push(`    ${p.dim(n)}`);
  for (const v of j.anchors) {
    if (v.state === 'ok') continue;
    const mentioned = v.origins.length === 1 && v.origins[0] === 'mentioned';
    out.push(`    ${anchorStateText(v.state, v.anchor, { record: j.id, mentioned, recordStamped: j.status !== 'unstamped', movedTo: v.movedTo })}${v.note ? p.dim(`  (${v.note})`) : ''}`);
    if (v.changedSymbols?.length && !(v.kind === 'symbol' && v.changedSymbols.length === 1)) out.push(`              symbols: ${v.changedSymbols.join(', ')}`);
    for (const c of v.commits ?? []) out.push(`              ${p.cyan(short(c.id))} ${day(c.date)} ${c.author}  ${c.subject}${p.dim(`  [${c.change}]`)}`);
    for (const u of v.uncommitted ?? []) out.push(`              ${p.yellow(u === 'staged' ? 'staged' : 'working tree (uncommitted)')}`);
    for (const f of v.files ?? []) out.push(`              ${f.change.padEnd(8)} ${f.from ? `${f.from} → ` : ''}${f.path}${f.commits.length ? p.dim(`  (${f.commits.map(short).join(', ')})`) : ''}`);
  }
  return out;
}

function json(r: StaleReport): string {
  return JSON.stringify({ tool: 'git-ctx', ...r }, null, 2) + '\n';
}

/** Renderers by format name. */
export const STALE_RENDERERS: Record<StaleFormat, (r: StaleReport, p: Paint, opts: { all?: boolean }) => string> = {
  human,
  json: (r) => json(r),
};

/** Render a staleness report (human lists only what is not fresh unless `all`). */
export function renderStale(r: StaleReport, format: StaleFormat, p: Paint = paint(false), opts: { all?: boolean } = {}): string {
  return STALE_RENDERERS[format](r, p, opts);
}

/** Which statuses make `git ctx stale` exit 1. */
export type StaleFailOn = 'stale' | 'moved' | 'unstamped' | 'never';

/** 1 when some artifact is at or beyond the fail-on level (stale < moved < unstamped in breadth). */
export function staleExitCode(r: StaleReport, failOn: StaleFailOn): 0 | 1 {
  if (failOn === 'never') return 0;
  const set: StaleStatus[] = failOn === 'stale' ? ['stale'] : failOn === 'moved' ? ['stale', 'moved'] : ['stale', 'moved', 'unstamped'];
  return r.artifacts.some((j) => set.includes(j.status)) ? 1 : 0;
}
