// @spec SPEC-ARTIFACTS-001

import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Document, isMap, isScalar, isSeq, Scalar, visit, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { CtxError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic.js';
import { containedPath, workTreeOf } from '../util/contained.js';
import { withLock, type LockOptions } from '../git/lock.js';
import { eolOf, indentUnit, lineStartAt, nextLineStart, readsBackAs, regionEnd, splice, trailingComment } from '../util/yaml-edit.js';
import { splitFrontmatter } from './parse.js';
import { parseYamlStrings } from './yaml-doc.js';

/**
 * A key path into the frontmatter. A string is split on "." (`relations.supersedes`);
 * pass an array when a key itself contains a dot.
 */
export type FrontmatterPath = string | readonly string[];

/** One surgical change. `set` with `value: undefined` is a removal. */
export type FrontmatterEdit = { op: 'set'; path: FrontmatterPath; value: unknown } | { op: 'remove'; path: FrontmatterPath };

/**
 * Edits as a list, or as a record `{ path: value }` (an `undefined` value removes the key).
 * Edits apply in order.
 */
export type FrontmatterEdits = readonly FrontmatterEdit[] | Readonly<Record<string, unknown>>;

/** Lock settings for updateFrontmatter (where the lock lives, how long to wait, when it is stale). */
export type UpdateFrontmatterOptions = LockOptions;

export interface UpdateFrontmatterResult {
  /** absolute path of the file */
  file: string;
  /** false when the edits left the bytes as they were (nothing was written) */
  changed: boolean;
  before: string;
  after: string;
}

type Seg = string;
interface Op {
  path: Seg[];
  remove: boolean;
  value: unknown;
}

function toSegments(p: FrontmatterPath): Seg[] {
  const segs = typeof p === 'string' ? p.split('.') : [...p];
  if (!segs.length || segs.some((s) => s === '')) throw new CtxError('USAGE', `invalid frontmatter key path ${JSON.stringify(p)}`);
  return segs;
}

function toOps(edits: FrontmatterEdits): Op[] {
  if (Array.isArray(edits)) {
    return (edits as readonly FrontmatterEdit[]).map((e) => {
      const remove = e.op === 'remove' || (e.op === 'set' && e.value === undefined);
      return { path: toSegments(e.path), remove, value: e.op === 'set' ? normalizeValue(e.value) : undefined };
    });
  }
  return Object.entries(edits as Record<string, unknown>).map(([k, v]) => ({ path: toSegments(k), remove: v === undefined, value: normalizeValue(v) }));
}

/**
 * Values are written as YAML that reads back (through parseYamlStrings) as the same data:
 * Dates become ISO strings, bigints strings, and undefined entries are dropped.
 */
function normalizeValue(v: unknown): unknown {
  if (v === undefined || v === null) return v;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && !Number.isFinite(v)) throw new CtxError('USAGE', `cannot write the number ${v} to frontmatter`);
  if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(normalizeValue);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = normalizeValue(x);
    return out;
  }
  if (typeof v === 'function' || typeof v === 'symbol') throw new CtxError('USAGE', `cannot write a ${typeof v} to frontmatter`);
  return v;
}

/** What the value reads back as: the parser keeps numbers as their source text. */
function readBackForm(v: unknown): unknown {
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map(readBackForm);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, readBackForm(x)]));
  return v;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The JS-level meaning of an op, used to verify the text edit (see verify in applyOp). */
function applyToData(data: Record<string, unknown>, op: Op): Record<string, unknown> {
  const root = structuredClone(data);
  if (op.remove) {
    const rec = (obj: Record<string, unknown>, segs: Seg[]): boolean => {
      const [head, ...rest] = segs;
      if (!Object.prototype.hasOwnProperty.call(obj, head!)) return false;
      if (!rest.length) {
        delete obj[head!];
        return true;
      }
      const child = obj[head!];
      if (!isPlainObject(child)) return false;
      const removed = rec(child, rest);
      // a mapping emptied by the removal goes too, as the text edit removes its key line
      if (removed && Object.keys(child).length === 0) delete obj[head!];
      return removed;
    };
    rec(root, op.path);
    return root;
  }
  let obj = root;
  op.path.forEach((seg, i) => {
    if (i === op.path.length - 1) {
      obj[seg] = readBackForm(op.value);
      return;
    }
    if (!isPlainObject(obj[seg])) obj[seg] = {};
    obj = obj[seg] as Record<string, unknown>;
  });
  return root;
}

interface Style {
  /** the replaced value was a flow (or block) collection: keep that */
  flow?: boolean;
  /** the replaced value was a quoted string: keep the quote style */
  quote?: Scalar.Type;
  /** the replaced flow collection was written `{ a: b }` rather than `{a: b}` */
  padding?: boolean;
}

/**
 * Serialise `key: value` at an indentation. Strings are quoted when YAML 1.1 or 1.2 would
 * read them as something else (`"2026-03-14"`, `"001"`, `"yes"`), so ids and dates read back
 * as the same strings in every YAML reader (gray-matter/js-yaml included). Lists of scalars
 * are written in flow style, like hand-written frontmatter (`keywords: [a, b]`).
 */
function renderPair(keyText: string, value: unknown, indent: string, unit: string, eol: string, style: Style, comment: string): string {
  const doc = new Document(value, { version: '1.1' });
  visit(doc, {
    Seq(_k, n) {
      if (n.items.every((x) => isScalar(x))) n.flow = true;
    },
  });
  const top = doc.contents as Node | null;
  if (top && (isMap(top) || isSeq(top)) && style.flow !== undefined && top.items.length) top.flow = style.flow;
  if (top && isScalar(top) && typeof top.value === 'string' && style.quote && !top.value.includes('\n')) top.type = style.quote;
  const text = doc.toString({ lineWidth: 0, indent: unit.length || 2, flowCollectionPadding: false, directives: false }).replace(/\n$/, '');
  // keep an outer `{ a: b }` padded as the author wrote it; nested collections stay compact
  const padded = style.padding && top && (isMap(top) || isSeq(top)) && top.flow && top.items.length && /^[[{].*[\]}]$/.test(text) ? `${text[0]} ${text.slice(1, -1)} ${text.slice(-1)}` : text;
  const lines = padded.split('\n');
  const inner = indent + unit;
  const pad = (l: string) => (l === '' ? '' : inner + l);
  const block = top && (isMap(top) || isSeq(top)) && !top.flow && top.items.length > 0;
  if (block) return [`${indent}${keyText}:${comment}`, ...lines.map(pad)].join(eol) + eol;
  const [first, ...rest] = lines;
  return [`${indent}${keyText}: ${first}${comment}`, ...rest.map(pad)].join(eol) + eol;
}

/** Quote a new key only when it would not read back as itself. */
function renderKey(key: string): string {
  return new Document(key, { version: '1.1' }).toString({ lineWidth: 0 }).replace(/\n$/, '');
}

function nest(segs: Seg[], value: unknown): unknown {
  return segs.reduceRight<unknown>((acc, k) => ({ [k]: acc }), value);
}

/** Would removing `segs` from this node leave it an empty mapping? Then its own key goes too. */
function wouldEmpty(node: unknown, segs: Seg[]): boolean {
  if (!isMap(node) || node.items.length !== 1) return false;
  const only = node.items[0]!;
  if (!isScalar(only.key) || String(only.key.value) !== segs[0]) return false;
  return segs.length === 1 || wouldEmpty(only.value, segs.slice(1));
}

interface Ctx {
  src: string;
  eol: string;
  unit: string;
}

interface Region {
  pair: Pair;
  start: number;
  keyLineEnd: number;
  end: number;
  col: number;
}

function regionsOf(ctx: Ctx, map: YAMLMap, end: number): Region[] {
  const { src } = ctx;
  const starts = map.items.map((p) => {
    const k = p.key as Node | null;
    const off = k?.range?.[0];
    if (off === undefined) throw new CtxError('PARSE', 'frontmatter mapping has a key without a source position (complex keys are not supported for writes)');
    return off;
  });
  return map.items.map((pair, i) => {
    const start = lineStartAt(src, starts[i]!);
    const keyLineEnd = nextLineStart(src, starts[i]!);
    const rawEnd = i + 1 < starts.length ? lineStartAt(src, starts[i + 1]!) : end;
    return { pair, start, keyLineEnd, end: regionEnd(src, keyLineEnd, rawEnd, starts[i]! - start), col: starts[i]! - start };
  });
}

/** Whether a flow collection in the source is padded (`{ a: b }`, `[ a ]`). */
function flowPadding(src: string, node: Node): boolean | undefined {
  const r = node.range;
  if (!r) return undefined;
  const open = src[r[0]];
  return open === '{' || open === '[' ? /[ \t]/.test(src[r[0] + 1] ?? '') : undefined;
}

const keyOf = (p: Pair): string | undefined => (isScalar(p.key) ? String(p.key.value) : undefined);

/**
 * Apply one op to a block mapping whose entries end at `end`. Only the lines of the
 * touched entry change; a new entry is appended after the last one, at its indentation.
 */
function editMap(ctx: Ctx, map: YAMLMap | null, mapEnd: number, appendAt: number, indent: string, segs: Seg[], op: Op): string {
  const { src, eol, unit } = ctx;
  const regions = map ? regionsOf(ctx, map, mapEnd) : [];
  const hit = regions.find((r) => keyOf(r.pair) === segs[0]);
  const edit = (from: number, to: number, text: string) => splice(src, from, to, text);

  if (!hit) {
    if (op.remove) return src;
    const at = appendAt;
    const col = regions.length ? ' '.repeat(regions[0]!.col) : indent;
    const lead = at > 0 && src[at - 1] !== '\n' ? eol : '';
    return edit(at, at, lead + renderPair(renderKey(segs[0]!), nest(segs.slice(1), op.value), col, unit, eol, {}, ''));
  }

  const { pair } = hit;
  const value = pair.value as Node | null;
  const keyNode = pair.key as Node;
  const keyText = src.slice(keyNode.range![0], keyNode.range![1]);
  const col = ' '.repeat(hit.col);
  const keyLine = src.slice(hit.start, hit.keyLineEnd).replace(/\r?\n$/, '');
  const comment = trailingComment(keyLine, keyNode.range![1] - hit.start);

  if (segs.length === 1) {
    if (op.remove) return edit(hit.start, hit.end, '');
    const current = value ? (value as unknown as { toJSON(): unknown }).toJSON() : null;
    if (deepEqual(readBackForm(current ?? null), readBackForm(op.value))) return src;
    const items = value && isSeq(value) ? replaceItems(src, value, op.value) : undefined;
    if (items !== undefined) return items;
    const style: Style = {};
    if (value && (isMap(value) || isSeq(value))) {
      style.flow = !!value.flow;
      style.padding = flowPadding(src, value);
    }
    if (value && isScalar(value) && (value.type === Scalar.QUOTE_DOUBLE || value.type === Scalar.QUOTE_SINGLE)) style.quote = value.type;
    return edit(hit.start, hit.end, renderPair(keyText, op.value, col, unit, eol, style, comment));
  }

  if (isSeq(value)) throw new CtxError('USAGE', `cannot edit ${segs.join('.')}: ${segs[0]} is a list, not a mapping`);
  if (op.remove && wouldEmpty(value, segs.slice(1))) return edit(hit.start, hit.end, '');
  if (op.remove && !isMap(value)) return src;
  if (isMap(value) && !value.flow && value.items.length) {
    return editMap(ctx, value, hit.end, regionsOf(ctx, value, hit.end).at(-1)!.end, col + unit, segs.slice(1), op);
  }
  // a flow mapping (`relations: { supersedes: [A] }`), an empty value or a scalar:
  // rewrite this one entry, keeping flow style when it was flow
  const base = isMap(value) ? (value.toJSON() as Record<string, unknown>) : {};
  const next = applyToData(base, { ...op, path: segs.slice(1) });
  if (deepEqual(readBackForm(base), next) && isMap(value)) return src;
  return edit(hit.start, hit.end, renderPair(keyText, next, col, unit, eol, isMap(value) ? { flow: value.flow, padding: flowPadding(src, value) } : {}, comment));
}

/**
 * A list replaced by a list of the same length whose changed items are strings (what
 * `stamp --fix` does to a moved `anchors:` entry): only the changed items' text is
 * replaced, each in the quote style it was written in, so the list's style, its other
 * items and its comments stay byte for byte. Undefined when this does not apply.
 */
function replaceItems(src: string, seq: YAMLSeq, next: unknown): string | undefined {
  if (!Array.isArray(next) || next.length !== seq.items.length) return undefined;
  const edits: { from: number; to: number; text: string }[] = [];
  for (const [i, item] of seq.items.entries()) {
    const want = next[i];
    if (!isScalar(item) || !item.range) return undefined;
    if (deepEqual(readBackForm(item.toJSON()), readBackForm(want))) continue;
    if (typeof want !== 'string' || want.includes('\n')) return undefined;
    edits.push({ from: item.range[0], to: item.range[1], text: scalarText(want, item.type, !!seq.flow) });
  }
  let out = src;
  for (const e of edits.reverse()) out = splice(out, e.from, e.to, e.text);
  return out;
}

/** A string as a YAML scalar in a given quote style (plain only when it reads back as itself). */
function scalarText(v: string, type: Scalar.Type | undefined, inFlow: boolean): string {
  if (type === Scalar.QUOTE_SINGLE) return `'${v.replace(/'/g, "''")}'`;
  if (type === Scalar.QUOTE_DOUBLE) return JSON.stringify(v);
  const plain = new Document(v, { version: '1.1' }).toString({ lineWidth: 0 }).replace(/\n$/, '');
  return plain === v && !(inFlow && /[,[\]{}]/.test(v)) ? v : JSON.stringify(v);
}

function yamlError(doc: ReturnType<typeof parseYamlStrings>['doc'], yamlLine: number, file?: string): CtxError {
  const e = doc.errors[0]!;
  const line = (e.linePos?.[0]?.line ?? 1) + yamlLine - 1;
  return new CtxError('PARSE', `invalid YAML frontmatter: ${e.message.split('\n')[0]}; not editing`, { file, line });
}

function applyOp(text: string, op: Op, file?: string): string {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const eol = eolOf(text, 'first-line');
  let split = splitFrontmatter(text);
  if (!split.hasFrontmatter) {
    if (/^---[ \t]*\r?$/m.test(text.slice(bom.length).split('\n')[0] ?? '')) {
      throw new CtxError('PARSE', 'frontmatter is not closed: expected a second "---" line; not editing', { file, line: 1 });
    }
    if (op.remove) return text;
    text = `${bom}---${eol}---${eol}${text.slice(bom.length)}`;
    split = splitFrontmatter(text);
  }
  const yaml = split.yaml;
  const { doc } = parseYamlStrings(yaml);
  if (doc.errors.length) throw yamlError(doc, split.yamlLine, file);
  const root = doc.contents as Node | null;
  if (root !== null && !isMap(root)) throw new CtxError('PARSE', 'frontmatter must be a YAML mapping (key: value lines); not editing', { file, line: split.yamlLine });
  if (root && root.flow) throw new CtxError('PARSE', 'frontmatter written as one flow mapping ({ … }) cannot be edited line by line; write it as key: value lines', { file, line: split.yamlLine });
  const before = (doc.toJS() ?? {}) as Record<string, unknown>;
  const ctx: Ctx = { src: yaml, eol, unit: indentUnit(yaml) };
  const edited = editMap(ctx, root, yaml.length, yaml.length, '', op.path, op);
  if (edited === yaml) return text;

  // Self-check: the new YAML must parse and mean exactly the old data with this one change.
  // A bug in the line arithmetic then fails loudly instead of corrupting a committed file.
  if (!readsBackAs(edited, applyToData(before, op), { parse: (t) => parseYamlStrings(t).doc, empty: {} })) {
    throw new CtxError('PARSE', `internal error: editing ${op.path.join('.')} would change other frontmatter; file left unchanged`, { file, line: split.yamlLine, hint: 'please report this with the file' });
  }
  return text.slice(0, split.yamlStart) + edited + text.slice(split.yamlEnd);
}

/**
 * Apply frontmatter edits to a markdown text and return the new text. Pure.
 * Comments, key order, quoting, line endings (LF or CRLF), a BOM and the body are kept
 * byte for byte; only the lines of an edited key change; new keys are appended at the
 * end of the frontmatter (a file without frontmatter gets one). Nested paths
 * (`relations.supersedes`, `stamp.commit`) edit inside a block mapping, or rewrite a flow
 * mapping in flow style. Throws a PARSE CtxError (with the line) on malformed frontmatter.
 */
export function editFrontmatterText(text: string, edits: FrontmatterEdits, file?: string): string {
  let out = text;
  for (const op of toOps(edits)) out = applyOp(out, op, file);
  return out;
}

/** The frontmatter of a text as data (scalars as strings), `{}` when absent. */
export function readFrontmatterData(text: string, file?: string): Record<string, unknown> {
  const split = splitFrontmatter(text);
  if (!split.hasFrontmatter) return {};
  const { doc } = parseYamlStrings(split.yaml);
  if (doc.errors.length) throw yamlError(doc, split.yamlLine, file);
  const data = doc.toJS() as unknown;
  return isPlainObject(data) ? data : {};
}

/**
 * Edit an artifact file's frontmatter in place: under an exclusive lock (so two writers
 * cannot interleave a read-modify-write), read, apply `edits`, and replace the file
 * atomically (temp file + fsync + rename; mode kept). Pass a function to compute the edits
 * from the current frontmatter under the lock, e.g. to append to a list without losing a
 * concurrent writer's change. Nothing is written when the bytes would not change.
 */
export async function updateFrontmatter(
  file: string,
  edits: FrontmatterEdits | ((current: Record<string, unknown>) => FrontmatterEdits),
  opts: UpdateFrontmatterOptions = {},
): Promise<UpdateFrontmatterResult> {
  const abs = path.resolve(file);
  // contained (SPEC-HOSTILE-001): never through a linked folder, never outside the work tree
  const tree = await workTreeOf(abs);
  if (tree) await containedPath(tree, abs);
  return withLock(
    abs,
    async () => {
      const st = await lstat(abs).catch((e: NodeJS.ErrnoException) => {
        throw new CtxError('IO', `cannot read ${abs}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`, { cause: e, file: abs });
      });
      if (st.isSymbolicLink()) throw new CtxError('IO', `${abs} is a symbolic link; git-ctx never writes through links`, { file: abs });
      const bytes = await readFile(abs);
      const before = bytes.toString('utf8');
      // a lossy decode would silently rewrite the bytes we promise to keep
      if (!Buffer.from(before, 'utf8').equals(bytes)) throw new CtxError('IO', `${abs} is not valid UTF-8; not editing`, { file: abs });
      const resolved = typeof edits === 'function' ? edits(readFrontmatterData(before, abs)) : edits;
      const after = editFrontmatterText(before, resolved, abs);
      if (after === before) return { file: abs, changed: false, before, after };
      await writeFileAtomic(abs, after);
      return { file: abs, changed: true, before, after };
    },
    opts,
  );
}
