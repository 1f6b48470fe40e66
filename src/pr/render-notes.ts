// @spec SPEC-ACTION-001

import { countByReason, type UngovernableReason } from '../code/ungovernable.js';
import { code, escapeText, truncate, visibleFormatChars } from './escape.js';
import type { MadeStale, StampSuggestion } from './stale.js';
import type { PrResult } from './types.js';

/*
 * The parts of the PR comment this module owns: what the PR makes stale (first, with the
 * commands and a suggestion), the footnote counting the files no record can govern, and the
 * pointer to the full list when the comment had to be cut (DEC-060).
 */

/** Rows a table may show, and how many were cut (render.ts's budget). */
export interface RowBudget {
  rows: number;
  cut: number;
}

const TITLE_MAX = 120;
const CHANGES_SHOWN = 3;

/** A fenced block whose fence outgrows any backtick run inside. */
function fenced(info: string, lines: string[]): string[] {
  let longest = 2;
  for (const l of lines) for (const m of l.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  return [fence + info, ...lines, fence];
}

/**
 * The suggestion as GitHub applies it: the replacement lines verbatim. A line with control or
 * invisible format characters is never offered (it cannot be shown as it would be applied).
 */
export function suggestionBlock(s: StampSuggestion): string[] | undefined {
  // eslint-disable-next-line no-control-regex
  if (s.lines.some((l) => /[\u0000-\u0008\u000b-\u001f\u007f]/.test(l) || visibleFormatChars(l) !== l)) return undefined;
  return fenced('suggestion', s.lines);
}

function lineRange(s: StampSuggestion): string {
  return s.startLine === s.endLine ? `line ${s.startLine}` : `lines ${s.startLine}–${s.endLine}`;
}

function madeStaleItem(m: MadeStale): string[] {
  const what = m.changes.slice(0, CHANGES_SHOWN).map((u) => `${code(u.anchor)} ${escapeText(u.change)}${u.movedTo ? ` → ${code(u.movedTo)}` : ''}`);
  if (m.changes.length > CHANGES_SHOWN) what.push(`+${m.changes.length - CHANGES_SHOWN} more`);
  const lines = [
    m.mentioned
      ? `- ${code(m.id)} is stale (mentioned code only) at head: this PR changes code its text mentions without re-stamping it: ${what.join(', ')} — ${escapeText(truncate(m.title, TITLE_MAX))}.`
      : `- This PR changes code governed by ${code(m.id)} without re-stamping it: ${what.join(', ')} — ${escapeText(truncate(m.title, TITLE_MAX))}.`,
    `  - Still holds? Review the change, then ${code(m.restamp)} and commit the stamp.`,
    `  - No longer holds? Write its successor (${code(m.successor)}), then ${code(m.supersede)}.`,
  ];
  const block = m.suggestion && suggestionBlock(m.suggestion);
  if (m.suggestion && block) {
    const how = m.suggestion.inDiff ? `apply this suggestion to ${lineRange(m.suggestion)},` : `replace ${lineRange(m.suggestion)} with`;
    lines.push(`  - Its stamp is in ${code(m.suggestion.file)}, which this PR edits: ${how} the stamp ${code(m.restamp)} would write:`, '', ...block.map((l) => `    ${l}`), '');
  }
  return lines;
}

/** "Made stale by this PR": first in the comment, one item per record, within the row budget. */
export function madeStaleSection(r: PrResult, budget: RowBudget): string[] {
  const items = r.madeStale ?? [];
  if (!items.length) return [];
  const shown = items.slice(0, budget.rows);
  const lines = ['#### Made stale by this PR', ''];
  for (const m of shown) lines.push(...madeStaleItem(m));
  if (items.length > shown.length) {
    budget.cut += items.length - shown.length;
    lines.push(`- …and ${items.length - shown.length} more.`);
  }
  return [...lines, ''];
}

const REASON_WORDS: Record<UngovernableReason, [string, string]> = {
  lockfile: ['lockfile', 'lockfiles'],
  generated: ['generated file', 'generated files'],
  vendored: ['vendored file', 'vendored files'],
  binary: ['binary', 'binaries'],
  snapshot: ['test snapshot', 'test snapshots'],
  ci: ['CI configuration file', 'CI configuration files'],
  configured: ['file in `ungovernable.paths`', 'files in `ungovernable.paths`'],
};
const NAMES_SHOWN = 3;

/** The footnote: how many changed files were not scored, by reason, with a few names of each. */
export function notScoredNote(r: PrResult): string[] {
  const u = r.ungovernable ?? [];
  if (!u.length) return [];
  const parts = [...countByReason(u)].map(([reason, n]) => {
    const names = u.filter((f) => f.reason === reason).slice(0, NAMES_SHOWN).map((f) => code(f.path));
    return `${n} ${REASON_WORDS[reason][n === 1 ? 0 : 1]} (${names.join(', ')}${n > NAMES_SHOWN ? ', …' : ''})`;
  });
  return [`<sub>Not scored: ${u.length} changed file${u.length === 1 ? '' : 's'} no record can govern — ${parts.join(', ')}.</sub>`, ''];
}

/** The local command that prints the whole report, nothing cut. */
export function fullListCommand(r: PrResult): string {
  return `git ctx pr --all --base ${r.base.commit} --head ${r.head.commit}`;
}

/** Where the full list is, when the comment was cut: the job summary (in the Action) and `git ctx pr --all`. */
export function fullListHint(r: PrResult, what: string, summaryUrl?: string): string {
  const cmd = code(fullListCommand(r));
  return summaryUrl ? `${what} to keep this comment short: the full list is in the [job summary](${encodeURI(summaryUrl)}) and in ${cmd}.` : `${what} to keep this short: ${cmd} prints the full list.`;
}
