import { zeroConfigLine } from '../artifacts/sources/zero-config-line.js';
import { paint, type Paint } from '../util/color.js';
import type { ChangeAnswer } from './change.js';
import { fullTextPointer, type RenderOptions } from '../retrieve/render.js';
import type { PrRanked, PrRecordChange } from './types.js';

/*
 * How `git ctx for --diff/--staged` and MCP context_for_change say a change's ranked records:
 * JSON (stable, documented in docs/retrieval.md), for people, and compact markdown for agents.
 */

export type ChangeFormat = 'human' | 'json' | 'context';

const BAND: Record<PrRanked['strength'], string> = { declared: 'declared', retrieved: 'related' };

/** The band, and whether the change also edits the record. */
const band = (x: PrRanked) => `${BAND[x.strength]}${x.editedHere ? ', edited here' : ''}`;

const VERB: Record<PrRecordChange['change'], string> = { added: 'adds', edited: 'edits', removed: 'removes' };

/**
 * What the change does to record files (DEC-080), one item per record: its line, then — for a
 * record the change edits that also governs it — that role on an indented line, so the record
 * is said once, as the PR comment says it (DEC-084). `ranked` is left without those records.
 */
export function recordChangeItems(a: Pick<ChangeAnswer, 'recordChanges' | 'ranked'>): { items: { line: string; also?: string }[]; ranked: PrRanked[] } {
  const changed = new Set((a.recordChanges ?? []).map((c) => c.id));
  const items = (a.recordChanges ?? []).map((c) => {
    const line = `This change ${VERB[c.change]} ${c.type} ${c.id} — ${c.title}${c.status ? ` (${c.status})` : ''}`;
    const x = a.ranked.find((r) => r.id === c.id);
    return x ? { line, also: `it governs this change too (${BAND[x.strength]}): ${x.why}${x.places.length ? ` [${placesLine(x)}]` : ''}` } : { line };
  });
  return { items, ranked: a.ranked.filter((x) => !changed.has(x.id)) };
}

const what = (a: ChangeAnswer) => (a.query.staged ? 'the staged change' : `the change ${a.query.range}`);

/** Where a record was brought in, `file:start-end`, the first few. */
export function placesLine(x: PrRanked): string {
  const shown = x.places.slice(0, 3).map((p) => `${p.path}${p.lines[0] ? `:${p.lines[0][0]}${p.lines[0][1] !== p.lines[0][0] ? `-${p.lines[0][1]}` : ''}` : ''}`);
  return shown.join(', ') + (x.places.length > shown.length ? ` and ${x.places.length - shown.length} more` : '');
}

/** The line said when no record governs the change. */
export function noneLine(a: ChangeAnswer): string {
  const n = a.retrieval.skipped.length + (a.ungovernable?.length ?? 0);
  const skipped = n ? ` (${n} of ${a.query.files} changed files cannot be governed: lockfiles, CI settings, generated or binary files)` : '';
  return `No decision governs ${what(a)}${skipped}.`;
}

/** The tree the change was read at, as the zero-config line names it: the index, or the head commit. */
const headOf = (a: ChangeAnswer): string => (a.query.staged ? 'in the index' : `at the change's head ${a.query.head.slice(0, 7)}`);

export function renderChangeJson(a: ChangeAnswer): string {
  return JSON.stringify({ version: 1, ...a }, null, 2) + '\n';
}

export function renderChangeHuman(a: ChangeAnswer, p: Paint = paint(false)): string {
  const lines: string[] = [p.bold(`${what(a)} (${a.query.files} file${a.query.files === 1 ? '' : 's'})`)];
  if (a.zeroConfig) lines.push(p.dim(`  ${zeroConfigLine(a.zeroConfig, undefined, headOf(a))}`));
  const { items, ranked } = recordChangeItems(a);
  for (const i of items) lines.push(`  ${i.line}`, ...(i.also ? [`      ${p.dim(i.also)}`] : []));
  if (!a.ranked.length) lines.push(`  ${noneLine(a)}`);
  for (const x of ranked) {
    lines.push(`  ${p.bold(x.id)}  ${x.type}${x.status ? ` ${x.status}` : ''}${x.inactive ? ` ${p.yellow('(inactive)')}` : ''}  ${x.title}  ${p.dim(`[${band(x)}]`)}`);
    lines.push(`      ${p.dim(x.why)}`);
    if (x.places.length) lines.push(`      ${p.dim(placesLine(x))}`);
  }
  for (const l of a.limitations) lines.push(p.dim(`  ${l}`));
  return lines.join('\n') + '\n';
}

export function renderChangeContext(a: ChangeAnswer, reader?: RenderOptions['reader']): string {
  const zero = a.zeroConfig ? `\n(${zeroConfigLine(a.zeroConfig, undefined, headOf(a))})` : '';
  const { items, ranked } = recordChangeItems(a);
  const news = items.flatMap((i) => [`${i.line}.`, ...(i.also ? [`  - ${i.also}`] : [])]);
  if (!a.ranked.length) return [...news, `${noneLine(a)}${zero}`].join('\n') + '\n';
  const out = [`# Records for ${what(a)}`, ''];
  if (news.length) out.push(...news, '');
  for (const x of ranked) {
    out.push(`- ${x.id} — ${x.title} (${x.type}${x.status ? `, ${x.status}` : ''}${x.inactive ? ', inactive' : ''}; ${band(x)}): ${x.why}${x.places.length ? ` [${placesLine(x)}]` : ''}`);
  }
  out.push('', `Full text: ${fullTextPointer(reader)}.${zero}`);
  return out.join('\n') + '\n';
}

export function renderChange(format: ChangeFormat, a: ChangeAnswer, p?: Paint): string {
  return format === 'json' ? renderChangeJson(a) : format === 'context' ? renderChangeContext(a) : renderChangeHuman(a, p);
}
