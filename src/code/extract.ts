import { COMMENT_SYNTAX, scanComments } from './languages.js';
import { findTags } from './tags.js';
import type { Config } from '../config.js';
import type { CodeLanguage, CodeSymbol, FileRecord } from './types.js';

/** Files above this size are skipped (generated bundles, data dumps), and reported. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Everything the code index's classification of a file depends on besides its content (and
 * CODE_CACHE_VERSION): the tags looked for, the anchor globs, the artifact directory and the
 * size limit, as one string for the keys of memos derived from the index (DEC-033, DEC-036).
 */
export function classificationSettings(config: Pick<Config, 'tags' | 'anchors' | 'dir' | 'limits'>): string {
  return JSON.stringify([config.tags, config.anchors.include, config.anchors.exclude, config.dir, config.limits?.max_file_bytes ?? MAX_FILE_BYTES]);
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * Annotations of a file in a language without a parser here: every tag inside a comment
 * becomes a file-level annotation with its line.
 */
export function extractByComments(text: string, language: Exclude<CodeLanguage, 'ts'>, tagRe: RegExp): FileRecord {
  const lines = countLines(text);
  const record: FileRecord = { annotations: [], symbols: [], routes: [], lines };
  const matches = findTags(text, tagRe);
  if (!matches.length) return record;
  const comments = scanComments(text, COMMENT_SYNTAX[language]);
  let lineNo = 1;
  let lastPos = 0;
  let ci = 0;
  for (const m of matches) {
    while (ci < comments.length && comments[ci]![1] <= m.index) ci++;
    const c = comments[ci];
    if (!c || c[0] > m.index) continue;
    for (let i = text.indexOf('\n', lastPos); i >= 0 && i < m.index; i = text.indexOf('\n', i + 1)) lineNo++;
    lastPos = m.index;
    record.annotations.push({ tag: m.tag, ids: m.ids, line: lineNo, startLine: 1, endLine: lines });
  }
  return record;
}

/** Extract one file's record, parsing TS/JS (loads the compiler on first use). */
export async function extractFile(path: string, text: string, language: CodeLanguage, tagRe: RegExp): Promise<FileRecord> {
  if (language === 'ts') {
    // the TS extractor (and the compiler behind it) load only when a TS/JS file is parsed
    const { extractTypeScript, loadTypeScript } = await import('./ts-extract.js');
    return extractTypeScript(await loadTypeScript(), path, text, tagRe);
  }
  return extractByComments(text, language, tagRe);
}

/** NUL in the first 8000 bytes: git's own binary heuristic. */
export function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8000).includes(0);
}

/** Innermost symbol whose lines (attached doc comments included) contain `line`. */
export function innermostSymbol(symbols: CodeSymbol[], line: number): CodeSymbol | undefined {
  let best: CodeSymbol | undefined;
  for (const s of symbols) {
    if (line < s.docLine || line > s.endLine) continue;
    if (!best || s.endLine - s.docLine < best.endLine - best.docLine || (s.endLine - s.docLine === best.endLine - best.docLine && s.line > best.line)) best = s;
  }
  return best;
}

/** A file over the configured `limits.max_file_bytes` (SPEC-HOSTILE-001): reported, never read further. */
export function tooLarge(size: number, max: number): FileRecord {
  return skipped('too-large', `${size} bytes, over the ${max}-byte bound (limits.max_file_bytes); not scanned`);
}

export function skipped(kind: 'too-large' | 'binary', message: string): FileRecord {
  return { annotations: [], symbols: [], routes: [], lines: 0, problem: { kind, message } };
}
