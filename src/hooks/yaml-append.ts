// @spec SPEC-HOOK-001
import { isMap, isSeq, stringify, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { eolOf, insertLinesAfter, lineLead, lineStartAt, nestedSeqIndented, nestingStep, readsBackAs, removeLines, textEnd } from '../util/yaml-edit.js';

// A hook manager's configuration edited through the shared text editor (util/yaml-edit.ts,
// DEC-125); what stays here is how a new entry is written: as the managers' documentation
// writes it, nested lists following the file's own habit.

/**
 * One value as YAML lines, nested lists indented under their key or flush with it as the file
 * writes them, nested by the file's own unit: a file nested by 4 (CumulusCI's, formatted by
 * prettier with tabWidth 4) got an entry nested by 2, which the team's formatter would rewrite.
 */
function renderLines(orig: string, value: unknown): string[] {
  const indentSeq = nestedSeqIndented(orig) ?? true;
  return stringify(value, { lineWidth: 0, indent: nestingStep(orig), indentSeq, flowCollectionPadding: false }).replace(/\n$/, '').split('\n');
}

/**
 * A team's hook configuration as it was written plus one item at the end of a block
 * sequence: the new item's text is inserted after the sequence's last item, indented as its
 * items are, and nothing else in the file changes. Re-serialising the whole document instead
 * re-indents every list (`- id:` under `hooks:`), pads flow lists (`[ --strict ]`) and drops
 * the file's own layout. Undefined when the sequence is not a block sequence written in the
 * file (a flow list, an empty key): the caller then serialises the document.
 */
export function appendToBlockSeq(orig: string, seq: unknown, item: unknown): string | undefined {
  if (!isSeq(seq) || (seq as YAMLSeq).flow || !seq.items.length || !seq.range) return undefined;
  const [start, end] = seq.range;
  if (orig[start] !== '-') return undefined;
  const lead = lineLead(orig, start);
  if (lead === undefined) return undefined;
  const lines = renderLines(orig, item).map((l, i) => (i === 0 ? `${lead}- ${l}` : `${lead}  ${l}`));
  // the sequence ends at its last item's text; comments and blank lines after it stay after
  return insertLinesAfter(orig, textEnd(orig, start, end), lines, eolOf(orig, 'any-line'));
}

/**
 * A block sequence's item taken out as text (its lines, from its dash to its last line), the
 * rest of the file as written; undefined when the item is not written on lines of its own.
 */
export function removeBlockSeqItem(orig: string, item: { range?: [number, number, number] | null }): string | undefined {
  if (!item.range) return undefined;
  const [start, end] = item.range;
  const lineStart = lineStartAt(orig, start);
  if (!/^\s*-\s+$/.test(orig.slice(lineStart, start))) return undefined;
  return removeLines(orig, lineStart, textEnd(orig, start, end));
}

/** One `key: value` entry added at the end of a block mapping as text, indented as its keys are (see appendToBlockSeq). */
export function appendToBlockMap(orig: string, map: unknown, key: string, value: unknown): string | undefined {
  if (!isMap(map) || (map as YAMLMap).flow || !map.items.length || !map.range) return undefined;
  const [start, end] = map.range;
  const lead = lineLead(orig, start);
  if (lead === undefined) return undefined;
  const lines = renderLines(orig, { [key]: value }).map((l) => lead + l);
  return insertLinesAfter(orig, textEnd(orig, start, end), lines, eolOf(orig, 'any-line'));
}

/** A block mapping's entry taken out as text (its key's line to its value's last line); undefined when not on lines of its own. */
export function removeBlockMapPair(orig: string, pair: { key: unknown; value: unknown }): string | undefined {
  const k = (pair.key as { range?: [number, number, number] | null }).range;
  const v = (pair.value as { range?: [number, number, number] | null } | null)?.range;
  if (!k || !v || lineLead(orig, k[0]) === undefined) return undefined;
  return removeLines(orig, lineStartAt(orig, k[0]), textEnd(orig, k[0], v[1]));
}

/**
 * `text` when it reads as the edited document `doc` (the same data, no error): the file edited
 * as text is written only when it says what the structural edit says. Undefined otherwise (a
 * layout the text edits did not foresee), and the caller serialises the document instead.
 */
export function sameDocument(text: string | undefined, doc: Document): string | undefined {
  return text !== undefined && readsBackAs(text, doc.toJS()) ? text : undefined;
}
