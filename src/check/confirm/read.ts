// @spec SPEC-CONFIRM-001

import type { Artifact } from '../../artifacts/types.js';
import type { FindingSeverity } from '../../check/types.js';
import { loadJsYamlSync } from '../../util/js-yaml.js';
import { CONFIRM_KINDS, type ConfirmKind, type ConfirmProblem, type Confirmation } from './types.js';

const SEVERITIES: readonly FindingSeverity[] = ['error', 'warning', 'info'];
const OPTION_KEYS = new Set(['in', 'message', 'severity']);
/** an ADR's confirmation block: a fenced code block whose info string is `git-ctx` */
const FENCE_OPEN = /^(\s{0,3})(`{3,}|~{3,})\s*git-ctx\s*$/;

/** The confirmations a record carries, with the entries that could not be read as problems. */
export interface RecordConfirmations {
  confirmations: Confirmation[];
  problems: ConfirmProblem[];
}

/**
 * Lines where the items of the first YAML block list at or after `from` start (0-based
 * indexes into `lines`): the entries' lines, for messages. Items of nested lists (deeper
 * than the first item) are not entries.
 */
function itemLines(lines: string[], from: number, to = lines.length): number[] {
  const out: number[] = [];
  let indent: number | undefined;
  for (let i = from; i < to; i++) {
    const m = /^(\s*)-(\s|$)/.exec(lines[i]!);
    if (m) {
      if (indent === undefined) indent = m[1]!.length;
      if (m[1]!.length === indent) out.push(i);
      continue;
    }
    // a key at column 0 ends the list (the next frontmatter key)
    if (indent !== undefined && /^[^\s#-]/.test(lines[i]!)) break;
  }
  return out;
}

/** A regular expression's compile error, or undefined when it compiles. */
export function regexError(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Read one entry; a problem message when it is malformed. */
function entry(raw: unknown, base: Omit<Confirmation, 'kind' | 'pattern' | 'in' | 'message' | 'severity'>, paths: string[]): Confirmation | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return `a confirmation must be a mapping with one kind (${CONFIRM_KINDS.join(', ')}), got ${JSON.stringify(raw)}`;
  const obj = raw as Record<string, unknown>;
  const kinds = Object.keys(obj).filter((k) => !OPTION_KEYS.has(k));
  const known = kinds.filter((k): k is ConfirmKind => (CONFIRM_KINDS as readonly string[]).includes(k));
  const unknown = kinds.filter((k) => !known.includes(k as ConfirmKind));
  if (unknown.length) return `unknown confirmation key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (kinds: ${CONFIRM_KINDS.join(', ')}; options: in, message, severity)`;
  if (known.length !== 1) return known.length ? `a confirmation has one kind, this one has ${known.join(' and ')}` : `a confirmation needs a kind (${CONFIRM_KINDS.join(', ')})`;
  const kind = known[0]!;
  const value = obj[kind];
  let pattern: string;
  if (kind === 'forbid-export-default') {
    // `forbid-export-default: true` (or any note); `false` switches it off, which is no confirmation
    if (value === false || value === 'false') return 'forbid-export-default: false confirms nothing; remove the entry';
    pattern = '';
  } else {
    if (typeof value !== 'string' && typeof value !== 'number') return `${kind} needs a string, got ${JSON.stringify(value)}`;
    pattern = String(value);
    if (!pattern.trim()) return `${kind} needs a non-empty pattern`;
    if (kind === 'forbid' || kind === 'require') {
      const err = regexError(pattern);
      if (err) return `${kind}: invalid regular expression ${JSON.stringify(pattern)}: ${err}`;
    }
  }
  let scope: string[];
  const rawIn = obj.in;
  if (rawIn === undefined || rawIn === null) scope = paths;
  else if (typeof rawIn === 'string') scope = [rawIn];
  else if (Array.isArray(rawIn) && rawIn.every((x) => typeof x === 'string')) scope = rawIn as string[];
  else return `in: must be a glob or a list of globs, got ${JSON.stringify(rawIn)}`;
  const message = obj.message;
  if (message !== undefined && typeof message !== 'string') return `message: must be a string, got ${JSON.stringify(message)}`;
  const severity = obj.severity;
  if (severity !== undefined && !SEVERITIES.includes(severity as FindingSeverity)) return `severity: must be error, warning or info, got ${JSON.stringify(severity)}`;
  return { ...base, kind, pattern, in: scope, ...(message ? { message } : {}), ...(severity ? { severity: severity as FindingSeverity } : {}) };
}

function readList(list: unknown, art: Artifact, lines: number[], fallbackLine: number, out: RecordConfirmations): void {
  if (!Array.isArray(list)) {
    out.problems.push({ file: art.file, line: fallbackLine, id: art.id, message: `confirm: must be a list of confirmations, got ${JSON.stringify(list)}` });
    return;
  }
  list.forEach((raw, i) => {
    const line = lines[i] ?? fallbackLine;
    const r = entry(raw, { id: art.id, file: art.file, line }, art.paths);
    if (typeof r === 'string') out.problems.push({ file: art.file, line, id: art.id, message: `${art.id}: ${r}` });
    else out.confirmations.push(r);
  });
}

/**
 * The confirmations of one record: its frontmatter `confirm:` list, and every fenced block
 * of its body whose info string is `git-ctx` (an ADR's "Confirmation" section), holding
 * either that list or `confirm:` with it. `text` is the record file's content, for lines.
 */
export function readConfirmations(art: Artifact, text: string | undefined): RecordConfirmations {
  const out: RecordConfirmations = { confirmations: [], problems: [] };
  const fileLines = text?.split(/\r?\n/) ?? [];
  const front = art.data.confirm;
  if (front !== undefined) {
    const keyLine = art.keyLines.confirm ?? 1;
    // the frontmatter ends where the body starts
    readList(front, art, itemLines(fileLines, keyLine, Math.max(keyLine, art.bodyLine - 1)).map((i) => i + 1), keyLine, out);
  }
  if (!art.body.includes('git-ctx')) return out;
  const body = art.body.split(/\r?\n/);
  for (let i = 0; i < body.length; i++) {
    const open = FENCE_OPEN.exec(body[i]!);
    if (!open) continue;
    const fence = open[2]!;
    let end = i + 1;
    while (end < body.length && !(body[end]!.trim().startsWith(fence[0]!.repeat(fence.length)) && body[end]!.trim().replace(/[`~]/g, '') === '')) end++;
    const yaml = body.slice(i + 1, end);
    const firstLine = art.bodyLine + i + 1;
    let data: unknown;
    try {
      data = loadJsYamlSync().load(yaml.join('\n'), { schema: loadJsYamlSync().JSON_SCHEMA });
    } catch (e) {
      const mark = (e as { mark?: { line?: number } }).mark;
      out.problems.push({ file: art.file, line: firstLine + (mark?.line ?? 0), id: art.id, message: `${art.id}: the git-ctx block is not valid YAML: ${(e as Error).message.split('\n')[0]}` });
      i = end;
      continue;
    }
    const list = data && typeof data === 'object' && !Array.isArray(data) && 'confirm' in data ? (data as { confirm: unknown }).confirm : data;
    if (data && typeof data === 'object' && !Array.isArray(data) && !('confirm' in data)) {
      out.problems.push({ file: art.file, line: firstLine, id: art.id, message: `${art.id}: a git-ctx block holds a list of confirmations or confirm: with one` });
    } else if (data !== null && data !== undefined) {
      readList(list, art, itemLines(yaml, 0).map((k) => firstLine + k), firstLine, out);
    }
    i = end;
  }
  return out;
}
