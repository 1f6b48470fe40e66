// @spec SPEC-HOOK-001
import { isMap, isSeq, parseDocument, stringify, type Document, type YAMLMap, type YAMLSeq } from 'yaml';

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
  const lineStart = orig.lastIndexOf('\n', start - 1) + 1;
  const lead = orig.slice(lineStart, start);
  if (/\S/.test(lead)) return undefined;
  // the nested lists follow the file's own habit: indented under their key, or flush with it
  const indentSeq = nestedSeqIndented(orig) ?? true;
  const body = stringify(item, { lineWidth: 0, indent: indentStep(orig), indentSeq, flowCollectionPadding: false }).replace(/\n$/, '');
  const lines = body.split('\n').map((l, i) => (i === 0 ? `${lead}- ${l}` : `${lead}  ${l}`));
  // the sequence ends at its last item's text; comments and blank lines after it stay after
  let at = end;
  while (at > start && /\s/.test(orig[at - 1]!)) at--;
  const eol = orig.includes('\r\n') ? '\r\n' : '\n';
  return `${orig.slice(0, at)}${eol}${lines.join(eol)}${orig.slice(at)}`;
}

/** Whether the file writes a nested list's dashes deeper than its key (`hooks:` ⏎ `  - id:`); undefined when it has none. */
function nestedSeqIndented(orig: string): boolean | undefined {
  const lines = orig.split(/\r?\n/);
  for (let i = 0; i + 1 < lines.length; i++) {
    const key = /^(\s*)(?:-\s+)?[\w.-]+:\s*$/.exec(lines[i]!);
    if (!key) continue;
    const keyCol = lines[i]!.search(/[\w.]/);
    const dash = /^(\s*)-\s/.exec(lines[i + 1]!);
    if (dash && keyCol > 0) return dash[1]!.length > keyCol;
  }
  return undefined;
}

/**
 * How many spaces the file nests by: the most common step from a `key:` line to the deeper
 * line under it (CumulusCI's .pre-commit-config.yaml nests by 4, with prettier's tabWidth 4:
 * an entry nested by 2 would be rewritten by the team's own formatter). 2 when nothing nests.
 */
function indentStep(orig: string): number {
  const lines = orig.split(/\r?\n/).filter((l) => l.trim() && !/^\s*#/.test(l));
  const counts = new Map<number, number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!/^(\s*)(?:-\s+)?[\w.-]+:\s*$/.test(lines[i]!)) continue;
    const keyCol = lines[i]!.search(/[\w.]/);
    const step = lines[i + 1]!.search(/\S/) - keyCol;
    if (step >= 1 && step <= 8) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best = 2;
  for (const [step, n] of counts) if (n > (counts.get(best) ?? 0)) best = step;
  return best;
}

/**
 * A block sequence's item taken out as text (its lines, from its dash to its last line), the
 * rest of the file as written; undefined when the item is not written on lines of its own.
 */
export function removeBlockSeqItem(orig: string, item: { range?: [number, number, number] | null }): string | undefined {
  if (!item.range) return undefined;
  const [start, end] = item.range;
  const lineStart = orig.lastIndexOf('\n', start - 1) + 1;
  if (!/^\s*-\s+$/.test(orig.slice(lineStart, start))) return undefined;
  let stop = end;
  while (stop > start && /\s/.test(orig[stop - 1]!)) stop--;
  const nl = orig.indexOf('\n', stop);
  return orig.slice(0, lineStart) + (nl < 0 ? '' : orig.slice(nl + 1));
}

/** One `key: value` entry added at the end of a block mapping as text, indented as its keys are (see appendToBlockSeq). */
export function appendToBlockMap(orig: string, map: unknown, key: string, value: unknown): string | undefined {
  if (!isMap(map) || (map as YAMLMap).flow || !map.items.length || !map.range) return undefined;
  const [start, end] = map.range;
  const lineStart = orig.lastIndexOf('\n', start - 1) + 1;
  const lead = orig.slice(lineStart, start);
  if (/\S/.test(lead)) return undefined;
  const body = stringify({ [key]: value }, { lineWidth: 0, indent: indentStep(orig), indentSeq: nestedSeqIndented(orig) ?? true, flowCollectionPadding: false }).replace(/\n$/, '');
  let at = end;
  while (at > start && /\s/.test(orig[at - 1]!)) at--;
  const eol = orig.includes('\r\n') ? '\r\n' : '\n';
  return `${orig.slice(0, at)}${eol}${body.split('\n').map((l) => lead + l).join(eol)}${orig.slice(at)}`;
}

/** A block mapping's entry taken out as text (its key's line to its value's last line); undefined when not on lines of its own. */
export function removeBlockMapPair(orig: string, pair: { key: unknown; value: unknown }): string | undefined {
  const k = (pair.key as { range?: [number, number, number] | null }).range;
  const v = (pair.value as { range?: [number, number, number] | null } | null)?.range;
  if (!k || !v) return undefined;
  const lineStart = orig.lastIndexOf('\n', k[0] - 1) + 1;
  if (/\S/.test(orig.slice(lineStart, k[0]))) return undefined;
  let stop = v[1];
  while (stop > k[0] && /\s/.test(orig[stop - 1]!)) stop--;
  const nl = orig.indexOf('\n', stop);
  return orig.slice(0, lineStart) + (nl < 0 ? '' : orig.slice(nl + 1));
}

/**
 * `text` when it reads as the edited document `doc` (the same data, no error): the file edited
 * as text is written only when it says what the structural edit says. Undefined otherwise (a
 * layout the text edits did not foresee), and the caller serialises the document instead.
 */
export function sameDocument(text: string | undefined, doc: Document): string | undefined {
  if (text === undefined) return undefined;
  const read = parseDocument(text);
  if (read.errors.length) return undefined;
  return JSON.stringify(read.toJS()) === JSON.stringify(doc.toJS()) ? text : undefined;
}
