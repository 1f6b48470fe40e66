// @spec SPEC-ACTION-001

import { sourceMark } from '../artifacts/sources/federated-file.js';
import { code, escapeText, truncate } from './escape.js';
import type { PrArtifact, PrRecordChange, PrResult } from './types.js';

/** Options the record lines need from the comment's renderer. */
export interface RecordLinkOptions {
  recordUrl?: (file: string, side: 'head' | 'base') => string;
}

/** A record's id in bold, linked to its file when the renderer knows where files are read. */
export function recordLink(id: string, file: string, side: 'head' | 'base', opts: RecordLinkOptions): string {
  const bold = `**${escapeText(id)}**`;
  // a record of another repository (DEC-061) is not a file of this one
  const url = file && !sourceMark(file) && opts.recordUrl ? opts.recordUrl(file, side) : '';
  // a URL with a parenthesis or a space would end the link early: such a file goes unlinked
  return url && /^https:\/\/[^\s()<>]+$/.test(url) ? `[${bold}](${url})` : bold;
}

/** Where a ranked record was brought in: its first places, `file:start-end`. */
export function placesText(places: PrResult['ranked'][number]['places']): string {
  const shown = places.slice(0, 3).map((p) => code(`${p.path}${p.lines[0] ? `:${p.lines[0][0]}${p.lines[0][1] !== p.lines[0][0] ? `-${p.lines[0][1]}` : ''}` : ''}`));
  return shown.length ? ` · ${shown.join(', ')}${places.length > shown.length ? ` and ${places.length - shown.length} more` : ''}` : '';
}

/** The ids of the records this PR adds, edits or removes: said under "Records this PR changes" and nowhere else. */
export function changedRecordIds(r: PrResult): Set<string> {
  return new Set((r.recordChanges ?? []).map((c) => c.id));
}

const CHANGE_VERB: Record<PrRecordChange['change'], string> = { added: 'Adds', edited: 'Edits', removed: 'Removes' };
const TITLE_MAX = 120;

/**
 * The record files this PR adds, edits or removes: news a reviewer must see, said apart from
 * what governs the change — a record the PR adds is written about the change, not a decision it
 * answers to (DEC-080). Each is said here once, with what else it is to the change below its
 * line: that it declares the changed code or was found by it, that it resembles an active
 * decision, that it waits for confirmation. The other sections leave it out, so a reviewer
 * does not meet one record under three headings (DEC-084).
 */
export function recordChangesSection(r: PrResult, rows: number, opts: RecordLinkOptions, declaredWhy: (a: PrArtifact) => string): { lines: string[]; cut: number } {
  const changes = r.recordChanges ?? [];
  if (!changes.length) return { lines: [], cut: 0 };
  const items = changes.map((c) => {
    const head = `- ${CHANGE_VERB[c.change]} ${escapeText(c.type)} ${recordLink(c.id, c.file, c.change === 'removed' ? 'base' : 'head', opts)} ${escapeText(truncate(c.title, TITLE_MAX))}${c.status ? ` (${escapeText(c.status)})` : ''} · ${code(c.file)}`;
    return [head, ...alsoLines(r, c).map((l) => `  - ${l}`)].join('\n');
  });
  const shown = items.slice(0, rows);
  if (items.length > shown.length) shown.push(`- …and ${items.length - shown.length} more.`);
  return { lines: shown.length ? [`#### Records this PR changes`, '', ...shown, ''] : [], cut: items.length - Math.min(rows, items.length) };

  function alsoLines(res: PrResult, c: PrRecordChange): string[] {
    const out: string[] = [];
    const a = res.artifacts.find((x) => x.id === c.id);
    const ranked = (res.ranked ?? []).find((x) => x.id === c.id);
    if (a?.inclusion === 'direct') out.push(`${c.change === 'added' ? 'it declares the changed code' : 'it governs this change too'}: ${declaredWhy(a)}`);
    else if (ranked) out.push(`it governs this change too, found by its lines, paths or description: ${escapeText(truncate(ranked.why, 200))}${placesText(ranked.places)}`);
    else if (a && (a.inclusion === 'required' || a.inclusion === 'related' || a.inclusion === 'mentioned')) out.push(`it is related to the change: ${declaredWhy(a)}`);
    const similar = res.similarDecisions?.find((d) => d.id === c.id);
    if (similar) out.push(`⚠️ it resembles ${similar.similar.slice(0, 5).map((s) => `**${escapeText(s.id)}** ${escapeText(truncate(s.title, 80))} (${s.similarity.toFixed(2)})`).join(', ')}: supersede, merge or link them if both stand.`);
    const p = res.proposals?.find((x) => x.id === c.id);
    if (p) out.push(`📝 ${proposalText(p)}`);
    return out;
  }
}

/** Who proposed a record and how to settle it (DEC-054). */
export function proposalText(p: NonNullable<PrResult['proposals']>[number]): string {
  const by = p.source === 'ai_chat' ? `proposed by an agent${p.session_id ? ` in session ${code(p.session_id)}` : ''}` : `proposed${p.owner ? ` by ${escapeText(p.owner)}` : ''}`;
  const at = p.commit ? ` at ${code(p.commit.slice(0, 12))}` : '';
  return `${by}${at}. Confirm: ${code(`git ctx confirm ${p.id}`)} (or ${code(`git ctx reject ${p.id}`)}), then commit.`;
}
