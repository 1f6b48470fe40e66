import { sourceMark } from '../artifacts/sources/federated-file.js';
import { code, escapeText, truncate } from './escape.js';
import { recordStateLabel } from '../staleness/vocabulary.js';
import { renderPrSarif } from './sarif.js';
import { fullListHint, madeStaleSection, notScoredNote } from './render-notes.js';
import { changedRecordIds, placesText, proposalText, recordChangesSection, recordLink } from './render-changes.js';
import type { ZeroConfig } from '../config.js';
import type { FailOn, PrArtifact, PrResult } from './types.js';

/** The hidden marker that identifies the bot's sticky comment. */
export const COMMENT_MARKER = '<!-- git-ctx:pr-comment -->';

/**
 * The comment's budget. GitHub rejects bodies over 65,536 characters, but a reviewer reads a
 * comment, not a report: 16,000 characters is a few screens with the collapsed sections shut.
 * Past it, tables shrink and the comment names the job summary and `git ctx pr --all`, which
 * carry everything (DEC-060).
 */
export const COMMENT_MAX_CHARS = 16_000;
/** Job summaries are limited to 1 MiB per step. */
export const SUMMARY_MAX_CHARS = 800_000;

export interface RenderPrOptions {
  /** rows per table before "…and N more" (default 50) */
  maxItems?: number;
  /** hard cap of the whole text (default COMMENT_MAX_CHARS; Infinity: never cut) */
  maxChars?: number;
  /** start with the hidden sticky-comment marker (default true) */
  marker?: boolean;
  /** where the full list is (the job summary's run page); named when something is cut */
  summaryUrl?: string;
  /** the command that reproduces this report locally (default built from the result) */
  command?: string;
  /** where a record file can be read (the Action: the file at the head commit on GitHub); absent, ids are not linked */
  recordUrl?: (file: string, side: 'head' | 'base') => string;
}

export type PrFormat = 'markdown' | 'json' | 'sarif';

/** True when nothing governs the change and the PR introduced no coherence finding. */
export function nothingApplies(r: PrResult): boolean {
  return r.artifacts.length === 0 && !r.ranked?.length && !r.recordChanges?.length && r.coherence.introduced.length === 0 && r.coherence.ruleErrors.length === 0 && !r.similarDecisions?.length && !r.proposals?.length;
}

/** The local command that reproduces a report: exact commits, so it still holds after the branches move. */
export function reproduceCommand(r: PrResult): string {
  return `git ctx pr --base ${r.base.commit} --head ${r.head.commit}`;
}

const TITLE_MAX = 120;
const MATCHES_SHOWN = 3;

/**
 * Marks that are not stated elsewhere: "changed without re-stamp" and "stale at head" are
 * each one item under "Needs attention" (with what to do), so the table does not repeat them.
 */
function flags(a: PrArtifact): string {
  const f: string[] = [];
  if (a.staleness?.status === 'stale' && a.inclusion === 'stale-elsewhere') f.push('⚠️ stale at head');
  else if (a.staleness?.status === 'moved') f.push('🔀 anchors moved');
  if (a.inactive) f.push(`💤 ${a.status ? escapeText(a.status) : 'inactive'}`);
  if (a.successor) f.push(`➡️ superseded by ${[...a.successor.via, a.successor.id].map(code).join(' → ')}`);
  return f.join(' · ');
}


function why(a: PrArtifact): string {
  switch (a.inclusion) {
    case 'edited':
      return 'edited in this PR';
    case 'required':
    case 'related':
      return a.via ? `via ${code(a.via.from)} (${escapeText(a.via.edge)})` : escapeText(a.inclusion);
    case 'stale-elsewhere':
      return 'stale at head (not touched by this PR)';
    case 'mentioned': {
      const parts = a.matches.slice(0, MATCHES_SHOWN).map((m) => `mentions ${code(m.file)}${m.pattern && m.pattern !== m.file ? ` (as ${code(m.pattern)})` : ''}`);
      if (a.matches.length > MATCHES_SHOWN) parts.push(`+${a.matches.length - MATCHES_SHOWN} more`);
      return parts.join('<br>');
    }
    case 'direct': {
      const parts = a.matches.slice(0, MATCHES_SHOWN).map((m) => {
        const where = m.symbol ? `${code(m.file)} › ${code(m.symbol)}` : code(m.file);
        const how = m.via === 'annotation' ? `@${escapeText(m.tag ?? 'annotation')}` : m.via === 'paths' ? `paths ${code(m.pattern ?? '')}` : `anchor`;
        return `${where} (${how}${m.side === 'base' ? ', removed' : ''})`;
      });
      if (a.matches.length > MATCHES_SHOWN) parts.push(`+${a.matches.length - MATCHES_SHOWN} more`);
      return parts.join('<br>');
    }
  }
}

const SUMMARY_MAX = 200;

function artifactRow(a: PrArtifact): string {
  const title = escapeText(truncate(a.title, TITLE_MAX));
  // the one-line summary: what docs/action.md promises the comment shows
  const summary = a.summary ? `<br>${escapeText(truncate(a.summary, SUMMARY_MAX))}` : '';
  // a record of another repository says which, and at which pinned commit (DEC-061)
  const from = sourceMark(a.file);
  return `| ${code(a.id)} ${title}${from ? ` (from ${code(from)})` : ''}${summary} | ${escapeText(a.type)} | ${a.status ? escapeText(a.status) : ''} | ${why(a)} | ${flags(a)} |`;
}

const ARTIFACT_HEAD = ['| Artifact | Type | Status | Why | Flags |', '|---|---|---|---|---|'];

interface Budget {
  rows: number;
  cut: number;
}

function table(head: string[], rows: string[], budget: Budget): string[] {
  if (!rows.length) return [];
  const shown = rows.slice(0, budget.rows);
  const out = shown.length ? [...head, ...shown] : [];
  if (rows.length > shown.length) {
    budget.cut += rows.length - shown.length;
    out.push('', `…and ${rows.length - shown.length} more.`);
  }
  return out;
}

function attention(r: PrResult, budget: Budget): string[] {
  const items: string[] = [];
  const listedFirst = new Set((r.madeStale ?? []).map((m) => m.id));
  for (const a of r.artifacts) {
    if (a.unstamped.length && !listedFirst.has(a.id)) {
      const what = a.unstamped.slice(0, MATCHES_SHOWN).map((u) => `${code(u.anchor)} ${escapeText(u.change)}${u.movedTo ? ` → ${code(u.movedTo)}` : ''}`);
      if (a.unstamped.length > MATCHES_SHOWN) what.push(`+${a.unstamped.length - MATCHES_SHOWN} more`);
      items.push(`- This PR changes code governed by ${code(a.id)} without re-stamping it: ${what.join(', ')}. Review it, then run ${code(`git ctx ack ${a.id}`)}.`);
    }
  }
  for (const a of r.artifacts) {
    if (a.successor && a.inclusion === 'direct') {
      const s = a.successor;
      items.push(`- ${code(a.id)} governs this code but is superseded by ${[...s.via, s.id].map(code).join(' → ')}${s.title ? ` (${escapeText(truncate(s.title, TITLE_MAX))})` : ''}: follow ${code(s.id)}.`);
    }
  }
  for (const a of r.artifacts) {
    if (a.staleness?.status === 'stale' && a.inclusion !== 'stale-elsewhere' && !listedFirst.has(a.id)) {
      const d = a.staleness.anchors.slice(0, MATCHES_SHOWN).map((x) => {
        const last = x.last ? `, last ${code(x.last.id.slice(0, 7))} by ${escapeText(truncate(x.last.author, 60))}` : '';
        return `${code(x.anchor)} ${escapeText(x.state)}${x.movedTo ? ` → ${code(x.movedTo)}` : ''}${x.commits ? ` (${x.commits} commit${x.commits === 1 ? '' : 's'}${last})` : ''}`;
      });
      if (a.staleness.anchors.length > MATCHES_SHOWN) d.push(`+${a.staleness.anchors.length - MATCHES_SHOWN} more`);
      items.push(`- ${code(a.id)} is ${recordStateLabel('stale', a.staleness.mentioned)} at head${d.length ? `: ${d.join('; ')}` : ''}.`);
    }
  }
  const shown = items.slice(0, budget.rows);
  if (items.length > shown.length) {
    budget.cut += items.length - shown.length;
    shown.push(`- …and ${items.length - shown.length} more.`);
  }
  return shown.length ? ['#### Needs attention', '', ...shown, ''] : [];
}

/** Stale artifacts listed under "Needs attention" (those the PR touches or pulls in). */
function staleInScope(r: PrResult): number {
  const first = new Set((r.madeStale ?? []).map((m) => m.id));
  return r.artifacts.filter((a) => a.staleness?.status === 'stale' && a.inclusion !== 'stale-elsewhere' && !first.has(a.id)).length;
}

function headline(r: PrResult): string {
  const c = r.counts;
  // the count is the number of rows of the "Governing artifacts" table below; the files are
  // those scored: lockfiles, generated and vendored files … are not, and saying "of 3 changed
  // files" of a PR that changes ten would undercount it (the note at the end names them)
  const notScored = r.ungovernable?.length ?? 0;
  const of = notScored ? `${c.governed} of ${c.files} scored file${c.files === 1 ? '' : 's'}; ${notScored} more changed file${notScored === 1 ? '' : 's'} not scored, listed at the end` : `${c.governed} of ${c.files} changed file${c.files === 1 ? '' : 's'}`;
  // a record this PR adds or edits is counted apart: it is listed under "Records this PR changes" (DEC-084)
  const changed = changedRecordIds(r);
  const direct = r.artifacts.filter((a) => a.inclusion === 'direct' && !changed.has(a.id)).length;
  const retrieved = (r.ranked ?? []).filter((x) => x.strength === 'retrieved');
  const found = retrieved.filter((x) => !changed.has(x.id)).length;
  const declaredByChanged = r.artifacts.filter((a) => a.inclusion === 'direct' && changed.has(a.id)).length;
  const concernedChanged = new Set([...r.artifacts.filter((a) => a.inclusion === 'direct').map((a) => a.id), ...retrieved.map((x) => x.id)].filter((id) => changed.has(id))).size;
  const s = (n: number) => (n === 1 ? '' : 's');
  // the headline opens the comment: the records it points to are in the section after it, not "above" @decision DEC-132
  const tail = concernedChanged ? `; ${concernedChanged} record${s(concernedChanged)} this PR adds or edits concern${concernedChanged === 1 ? 's' : ''} it too (under Records this PR changes)` : '';
  const matchText = `**${found} record${s(found)}** match${found === 1 ? 'es' : ''} its lines, paths or description`;
  const checked = `${c.files} changed file${c.files === 1 ? '' : 's'}${notScored ? `; ${notScored} more not scored, listed at the end` : ''}`;
  // an ADR folder declares nothing: what the change's words find is then the whole answer, said as such
  const parts = [
    direct
      ? `**${direct} artifact${s(direct)}** govern${direct === 1 ? 's' : ''} the code this PR changes (${of})${found ? `; ${found} more record${s(found)} found by its lines, paths or description` : ''}${tail}`
      : declaredByChanged
        ? `Only record${s(declaredByChanged)} this PR adds or edits declare${declaredByChanged === 1 ? 's' : ''} the code it changes (${checked}; under Records this PR changes)${found ? `; ${matchText}` : ''}`
        : found
          ? `No record declares the code this PR changes (${checked}); ${matchText}${tail}`
          : concernedChanged
            ? `No record that stood before this PR governs the code it changes (${checked}); ${concernedChanged} record${s(concernedChanged)} it edits concern${concernedChanged === 1 ? 's' : ''} it (under Records this PR changes)`
            : `No decision, spec or norm governs the code this PR changes (${checked})`,
  ];
  const more: string[] = [];
  const stale = staleInScope(r);
  const made = r.madeStale?.length ?? 0;
  if (made) more.push(`✏️ ${made} made stale by this PR`);
  else if (c.unstamped) more.push(`✏️ ${c.unstamped} changed without re-stamp`);
  if (stale) more.push(`⚠️ ${stale} ${made ? 'more ' : ''}stale at head`);
  if (c.errors) more.push(`❌ ${c.errors} coherence error${c.errors === 1 ? '' : 's'} introduced`);
  if (c.warnings) more.push(`${c.warnings} warning${c.warnings === 1 ? '' : 's'} introduced`);
  return parts[0] + (more.length ? `. ${more.join(' · ')}` : '.');
}

function footer(r: PrResult, opts: RenderPrOptions): string[] {
  const cmd = opts.command ?? reproduceCommand(r);
  return ['---', `<sub>git-ctx · head ${code(r.head.commit.slice(0, 12))} · reproduce locally: ${code(cmd)}</sub>`];
}

function renderFull(r: PrResult, opts: RenderPrOptions, budget: Budget): string {
  const lines: string[] = [];
  if (opts.marker !== false) lines.push(COMMENT_MARKER);
  lines.push('### git-ctx: context for this pull request', '', headline(r), '');
  lines.push(...madeStaleSection(r, budget));
  lines.push(...attention(r, budget));
  const changes = recordChangesSection(r, budget.rows, opts, (a) => [why(a), flags(a)].filter(Boolean).join(' · '));
  lines.push(...changes.lines);
  budget.cut += changes.cut;

  // a record this PR adds, edits or removes is said once, under "Records this PR changes" (DEC-084)
  const changed = changedRecordIds(r);
  const direct = r.artifacts.filter((a) => a.inclusion === 'direct' && !changed.has(a.id));
  if (direct.length) lines.push('#### Governing artifacts', '', ...table(ARTIFACT_HEAD, direct.map(artifactRow), budget), '');
  lines.push(...foundSection(r, budget, direct.length > 0, opts));
  lines.push(...lookAlikes(r));
  lines.push(...proposed(r));
  // a record the ranked list already shows (retrieval found it too) is said once, there
  const ranked = new Set((r.ranked ?? []).map((x) => x.id));
  const indirect = r.artifacts.filter((a) => (a.inclusion === 'required' || a.inclusion === 'related' || a.inclusion === 'mentioned') && !ranked.has(a.id) && !changed.has(a.id));
  if (indirect.length) {
    const what = indirect.some((a) => a.inclusion === 'mentioned') ? 'required, related or mentioning' : 'required or related';
    lines.push(`<details><summary>Also relevant: ${indirect.length} ${what} artifact${indirect.length === 1 ? '' : 's'}</summary>`, '');
    lines.push(...table(ARTIFACT_HEAD, indirect.map(artifactRow), budget), '', '</details>', '');
  }
  const elsewhere = r.artifacts.filter((a) => a.inclusion === 'stale-elsewhere' && !changed.has(a.id));
  if (elsewhere.length) {
    lines.push(`<details><summary>Stale elsewhere: ${elsewhere.length} artifact${elsewhere.length === 1 ? '' : 's'} stale at head that this PR does not touch</summary>`, '');
    lines.push(...table(ARTIFACT_HEAD, elsewhere.map(artifactRow), budget), '', '</details>', '');
  }
  const findings = r.coherence.introduced;
  if (findings.length || r.coherence.ruleErrors.length) {
    lines.push('#### Coherence findings introduced by this PR', '');
    const rank = { error: 0, warning: 1, info: 2 };
    const rows = [...findings].sort((x, y) => rank[x.severity] - rank[y.severity]).map((f) => `| ${f.severity === 'error' ? '❌ error' : f.severity === 'warning' ? '⚠️ warning' : 'info'} | ${f.file ? code(`${f.file}${f.line ? `:${f.line}` : ''}`) : ''} | ${code(f.rule)} | ${escapeText(truncate(f.message, 300))} |`);
    for (const e of r.coherence.ruleErrors) rows.push(`| ❌ rule failed | | ${code(e.rule)} | ${escapeText(truncate(e.message, 300))} |`);
    lines.push(...table(['| Severity | Where | Rule | Message |', '|---|---|---|---|'], rows, budget), '');
  }
  if (r.limitations.length) {
    lines.push('#### Could not judge', '');
    const shown = r.limitations.slice(0, budget.rows);
    for (const l of shown) lines.push(`- ${escapeText(truncate(l, 500))}`);
    if (r.limitations.length > shown.length) {
      budget.cut += r.limitations.length - shown.length;
      lines.push(`- …and ${r.limitations.length - shown.length} more.`);
    }
    lines.push('');
  }
  if (r.zeroConfig) lines.push(zeroConfigNote(r.zeroConfig), '');
  lines.push(...notScoredNote(r));
  if (budget.cut) lines.push(fullListHint(r, `${budget.cut} item${budget.cut === 1 ? ' was' : 's were'} left out`, opts.summaryUrl), '');
  lines.push(...footer(r, opts));
  return lines.join('\n') + '\n';
}

/** One line per decision the PR adds that resembles an active one, with the similar ids and scores. */
function lookAlikes(r: PrResult): string[] {
  const changed = changedRecordIds(r);
  const similar = (r.similarDecisions ?? []).filter((d) => !changed.has(d.id));
  if (!similar.length) return [];
  const lines = similar.slice(0, 20).map(
    (d) => `- ⚠️ **${escapeText(d.id)}** (added) resembles ${d.similar.slice(0, 5).map((s) => `**${escapeText(s.id)}** ${escapeText(truncate(s.title, 80))} (${s.similarity.toFixed(2)})`).join(', ')}: supersede, merge or link them if both stand.`,
  );
  return ['#### Resembles an active decision', '', ...lines, ''];
}

/** Records proposed in the PR, by whom, with the command that confirms each (DEC-054). */
function proposed(r: PrResult): string[] {
  const changed = changedRecordIds(r);
  const proposals = (r.proposals ?? []).filter((p) => !changed.has(p.id));
  if (!proposals.length) return [];
  const lines = proposals.slice(0, 20).map((p) => `- 📝 **${escapeText(p.id)}** ${escapeText(truncate(p.title, 120))} — ${proposalText(p)}`);
  if (proposals.length > lines.length) lines.push(`- …and ${proposals.length - lines.length} more: ${code('git ctx proposals')}`);
  return ['#### Proposed decisions to confirm', '', ...lines, ''];
}

/** One record found by retrieval over the change: id, title, status, why, where, and whether this PR edits it. */
function foundItem(x: PrResult['ranked'][number], n: number, opts: RenderPrOptions): string {
  const inactive = x.inactive ? ' · 💤 no longer in force' : '';
  return `${n}. ${recordLink(x.id, x.file, 'head', opts)} ${escapeText(truncate(x.title, 120))}${x.status ? ` (${escapeText(x.status)})` : ''} — ${escapeText(truncate(x.why, 200))}${placesText(x.places)}${inactive}`;
}

/**
 * What retrieval over the change found, strongest first, numbered: the comment's answer when
 * nothing is declared (an ADR folder declares nothing), after the declared records otherwise.
 */
function foundSection(r: PrResult, budget: Budget, afterDeclared: boolean, opts: RenderPrOptions): string[] {
  const changed = changedRecordIds(r);
  const found = (r.ranked ?? []).filter((x) => x.strength === 'retrieved' && !changed.has(x.id));
  if (!found.length) return [];
  const head = afterDeclared ? `#### Also relevant, not declared: found by the change's lines, paths or description` : '#### Decisions this change concerns, strongest first';
  const lines = [head, ''];
  for (const [i, x] of found.entries()) {
    if (i >= budget.rows) {
      budget.cut++;
      continue;
    }
    lines.push(foundItem(x, i + 1, opts));
  }
  lines.push('');
  return lines;
}

/** The head has no config file: which folders were read, in the comment's own words (zeroConfigLine for terminals). */
function zeroConfigNote(z: ZeroConfig): string {
  // a named folder not in the tree was read from nowhere (DEC-137)
  const read = z.sources.filter((s) => !s.missing);
  const gone = z.sources.filter((s) => s.missing).map((s) => code(`${s.dir}/`));
  const absent = gone.length ? `${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} named by ${escapeText(z.from)} but not in the repository, so nothing was read from ${gone.length === 1 ? 'it' : 'them'}` : '';
  if (!read.length) return `No ${code('.contextia/config.yaml')} at the head: ${absent}.`;
  return `No ${code('.contextia/config.yaml')} at the head: decision records were read from ${read.map((s) => code(`${s.dir}/`)).join(', ')} (found by ${escapeText(z.from)}${absent ? `; ${absent}` : ''}); ${code('git ctx init')} pins them.`;
}

function renderNothing(r: PrResult, opts: RenderPrOptions): string {
  const maxChars = opts.maxChars ?? COMMENT_MAX_CHARS;
  for (let rows = Math.max(0, opts.maxItems ?? 50); ; rows = Math.floor(rows / 2)) {
    const lines: string[] = [];
    if (opts.marker !== false) lines.push(COMMENT_MARKER);
    const notScored = r.ungovernable?.length ? `, ${r.ungovernable.length} not scored` : '';
    lines.push(`**git-ctx**: no decision, spec or norm governs the code this PR changes (${r.counts.files} file${r.counts.files === 1 ? '' : 's'} checked${notScored}), and it introduces no coherence finding.`);
    for (const l of r.limitations.slice(0, 5)) lines.push(`- ${escapeText(truncate(l, 500))}`);
    if (r.zeroConfig) lines.push('', zeroConfigNote(r.zeroConfig));
    const note = notScoredNote(r);
    if (note.length) lines.push('', ...note.slice(0, -1));
    lines.push('', ...footer(r, opts));
    const text = lines.join('\n') + '\n';
    if (text.length <= maxChars || rows === 0) return text;
  }
}

/**
 * The PR comment (or job summary) as GitHub markdown. Everything quoted from the repository
 * is escaped; tables hold at most `maxItems` rows each, and when the text would still pass
 * `maxChars` the rows are halved until it fits, with a pointer to where the full list is.
 */
export function renderPrComment(r: PrResult, opts: RenderPrOptions = {}): string {
  if (nothingApplies(r)) return renderNothing(r, opts);
  const maxChars = opts.maxChars ?? COMMENT_MAX_CHARS;
  // no table is longer than this: halving starts where it can change the text
  let rows = Math.min(Math.max(0, opts.maxItems ?? 50), longestTable(r));
  for (;;) {
    const text = renderFull(r, opts, { rows, cut: 0 });
    if (text.length <= maxChars) return text;
    if (rows === 0) {
      // only fixed text is left and it is still too long: cut it, keeping the marker and footer
      const tail = '\n\n…cut to fit.\n' + footer(r, opts).join('\n') + '\n';
      return truncate(text, maxChars - tail.length) + tail;
    }
    rows = Math.floor(rows / 2);
  }
}

/** An upper bound of the rows of any one table or list of the comment. */
function longestTable(r: PrResult): number {
  const found = (r.ranked ?? []).filter((x) => x.strength === 'retrieved').length;
  return 1 + r.artifacts.length + found + (r.recordChanges?.length ?? 0) + (r.madeStale?.length ?? 0) + r.coherence.introduced.length + r.coherence.ruleErrors.length + r.limitations.length;
}

/** Machine-readable report (the data the comment is rendered from). */
export function renderPrJson(r: PrResult): string {
  return JSON.stringify(r, null, 2) + '\n';
}

/** Renderers by name. */
export const PR_RENDERERS: Record<PrFormat, (r: PrResult, opts?: RenderPrOptions) => string> = {
  markdown: (r, o) => renderPrComment(r, o),
  json: (r) => renderPrJson(r),
  sarif: (r) => renderPrSarif(r),
};

/** Whether a result fails under a policy: error < warning < stale in strictness; never fails nothing. */
export function prFails(r: PrResult, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  const errors = r.counts.errors > 0 || r.coherence.ruleErrors.length > 0;
  if (failOn === 'error') return errors;
  const warnings = errors || r.counts.warnings > 0;
  if (failOn === 'warning') return warnings;
  return warnings || r.counts.stale > 0 || r.counts.unstamped > 0;
}
