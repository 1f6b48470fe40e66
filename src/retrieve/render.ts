// @spec SPEC-RETRIEVE-001

import { paint, type Paint } from '../util/color.js';
import type { LaneName, RetrievalResult, RetrievedRecord } from './types.js';

export type RetrievalFormat = 'human' | 'json' | 'context';

const BAND_LABEL: Record<RetrievedRecord['slot'], string> = {
  declared: 'declared',
  fused: 'related',
  links: 'linked',
};

/** Stable JSON (documented in docs/retrieval.md): query, ranked results, slot reports. */
export function renderRetrievalJson(r: RetrievalResult): string {
  return JSON.stringify({ version: 1, ...r }, null, 2) + '\n';
}

/** For people: bands in order, each result with its evidence; weaker evidence is labelled as such. */
export function renderRetrievalHuman(r: RetrievalResult, p: Paint = paint(false)): string {
  const lines: string[] = [p.bold(r.query.kind === 'place' ? r.query.place : `search: ${r.query.text}`)];
  if (!r.results.length) lines.push(p.dim('  nothing found'));
  let band: string | undefined;
  for (const x of r.results) {
    if (x.slot !== band) {
      band = x.slot;
      lines.push(
        x.slot === 'declared'
          ? p.dim('  declared (anchors, annotations, paths; nearest first)')
          : x.slot === 'fused'
            ? p.dim('  related (weaker: keywords, mentions, nearness — not declared)')
            : p.dim('  linked (relations of the records above)'),
      );
    }
    lines.push(`  ${p.bold(x.id)}  ${x.type}${x.status ? ` ${x.status}` : ''}${x.inactive ? ` ${p.yellow('(inactive)')}` : ''}  ${x.title}`);
    for (const w of x.why.slice(0, 4)) lines.push(`      ${p.dim(`${w.contribution !== undefined ? `+${w.contribution.toFixed(2)} ` : ''}${w.text}`)}`);
    if (x.why.length > 4) lines.push(`      ${p.dim(`… ${x.why.length - 4} more`)}`);
    if (x.stale) lines.push(`      ${p.red(x.stale)}`);
    if (x.summary) lines.push(`      ${x.summary}`);
    if (x.body) lines.push('', ...x.body.trim().split('\n').map((l) => `      ${l}`), '');
  }
  const notes = (Object.entries(r.slots) as [LaneName, RetrievalResult['slots'][LaneName]][]).filter(([, s]) => s.status === 'failed' || s.status === 'timeout' || s.status === 'partial' || (s.message && s.status === 'ok'));
  for (const [n, s] of notes) lines.push(p.dim(`  ${n}: ${s.status}${s.message ? ` (${s.message})` : ''}`));
  return lines.join('\n') + '\n';
}

/**
 * For agents: compact markdown, summaries first with ids to fetch in full; no fingerprints,
 * stamps or scores (noise to a model), evidence in one line.
 */
export function renderRetrievalContext(r: RetrievalResult, opts: { shownEarlier?: ReadonlySet<string> } = {}): string {
  const head = r.query.kind === 'place' ? `Records governing ${r.query.place}` : `Records for "${r.query.text}"`;
  if (!r.results.length) return `${head}: none found.\n`;
  const out: string[] = [`# ${head}`, ''];
  for (const x of r.results) {
    const tag = `${x.type}${x.status ? `, ${x.status}` : ''}${x.inactive ? ', inactive' : ''}`;
    if (opts.shownEarlier?.has(x.id)) {
      out.push(`- ${x.id} (${tag}) — ${x.title}: shown earlier in this session.`);
      continue;
    }
    out.push(`## ${x.id} — ${x.title} (${tag}; ${BAND_LABEL[x.slot]})`);
    out.push(`Why: ${x.why.slice(0, 2).map((w) => w.text).join('; ')}`);
    if (x.stale) out.push(`Warning: ${x.stale}`);
    if (x.summary) out.push(x.summary);
    if (x.body) out.push('', x.body.trim());
    out.push('');
  }
  out.push(`Full text: \`git ctx show <id>\` (file paths: ${r.results.map((x) => x.file).filter(Boolean).slice(0, 3).join(', ')}${r.results.length > 3 ? ', …' : ''}).`);
  return out.join('\n') + '\n';
}

export function renderRetrieval(format: RetrievalFormat, r: RetrievalResult, p?: Paint): string {
  return format === 'json' ? renderRetrievalJson(r) : format === 'context' ? renderRetrievalContext(r) : renderRetrievalHuman(r, p);
}
