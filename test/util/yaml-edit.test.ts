import { describe, expect, it } from 'vitest';
import { parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import {
  eolOf,
  indentUnit,
  insertLinesAfter,
  lineLead,
  lineStartAt,
  nestedSeqIndented,
  nestingStep,
  nextLineStart,
  readsBackAs,
  regionEnd,
  removeLines,
  textEnd,
  trailingComment,
} from '../../src/util/yaml-edit.js';
import { appendToBlockMap, appendToBlockSeq, removeBlockMapPair, removeBlockSeqItem, sameDocument } from '../../src/hooks/yaml-append.js';
import { editFrontmatterText } from '../../src/artifacts/write.js';
import { parseYamlStrings } from '../../src/artifacts/yaml-doc.js';

/** The item appended at the end of a sequence, through the shared helpers alone. */
function appendItem(text: string, seqKey: string, line: string): string {
  const seq = parseDocument(text).get(seqKey, true) as YAMLSeq;
  const [start, end] = seq.range!;
  return insertLinesAfter(text, textEnd(text, start, end), [`${lineLead(text, start)}${line}`], eolOf(text, 'any-line'));
}

describe('util/yaml-edit: lines located and changed in the file’s own style', () => {
  it('finds lines and where a node starts its line', () => {
    const s = 'a: 1\n  b: 2\nc: [x]\n';
    expect(lineStartAt(s, s.indexOf('b'))).toBe(5);
    expect(nextLineStart(s, s.indexOf('b'))).toBe(s.indexOf('c'));
    expect(nextLineStart('a: 1', 1)).toBe(4);
    expect(lineLead(s, s.indexOf('b'))).toBe('  ');
    // the x of a flow list does not start its line
    expect(lineLead(s, s.indexOf('x'))).toBeUndefined();
    expect(textEnd('a: 1  \n\n', 0, 8)).toBe(4);
  });

  it('keeps CRLF: the line ending is detected, new lines get it and removed lines take theirs along', () => {
    const crlf = 'repos:\r\n  - a # keep\r\n  - b\r\nafter: 1\r\n';
    expect(eolOf(crlf, 'first-line')).toBe('\r\n');
    expect(eolOf(crlf, 'any-line')).toBe('\r\n');
    // a mixed file: the first line's ending, or CRLF when any line has it
    expect(eolOf('a: 1\nb: 2\r\n', 'first-line')).toBe('\n');
    expect(eolOf('a: 1\nb: 2\r\n', 'any-line')).toBe('\r\n');
    expect(eolOf('\na: 1\r\n', 'first-line')).toBe('\n');

    const added = appendItem(crlf, 'repos', '- c');
    expect(added).toBe('repos:\r\n  - a # keep\r\n  - b\r\n  - c\r\nafter: 1\r\n');
    const b = crlf.indexOf('- b');
    expect(removeLines(added, lineStartAt(added, b), b + 3)).toBe('repos:\r\n  - a # keep\r\n  - c\r\nafter: 1\r\n');
    // the last line without a newline goes whole
    expect(removeLines('a: 1\r\nb: 2', 6, 9)).toBe('a: 1\r\n');
  });

  it('follows the file’s indentation: two or four spaces, nested lists indented or flush with their key', () => {
    expect(indentUnit('a:\n  b: 1\n')).toBe('  ');
    expect(indentUnit('a:\n    b: 1\n')).toBe('    ');
    expect(indentUnit('a: 1\n# x\n')).toBe('  ');
    expect(nestedSeqIndented('repos:\n  - repo: local\n    hooks:\n      - id: x\n')).toBe(true);
    expect(nestedSeqIndented('repos:\n- repo: local\n  hooks:\n  - id: x\n')).toBe(false);
    expect(nestedSeqIndented('a: 1\n')).toBeUndefined();
    // the step inside entries, not where a top-level list starts; the unit when nothing nests
    expect(nestingStep('repos:\n    - repo: local\n      hooks:\n          - id: x\n')).toBe(4);
    expect(nestingStep('repos:\n- repo: local\n  hooks:\n  - id: x\n')).toBe(2);
    expect(nestingStep('a:\n    b: 1\n')).toBe(4);

    const four = 'repos:\n    - repo: local # ours\n      hooks:\n        - id: lint\n';
    const out = appendToBlockSeq(four, parseDocument(four).get('repos', true), { repo: 'x', hooks: [{ id: 'y' }] });
    expect(out).toBe(`${four}    - repo: x\n      hooks:\n        - id: y\n`);
    const flush = 'repos:\n- repo: local\n  hooks:\n  - id: lint\n';
    expect(appendToBlockSeq(flush, parseDocument(flush).get('repos', true), { repo: 'x', hooks: [{ id: 'y' }] })).toBe(`${flush}- repo: x\n  hooks:\n  - id: y\n`);
  });

  it('leaves flow lists to the caller’s fallback, or rewrites one as a flow list', () => {
    const flow = 'repos: [a, b]\n';
    expect(appendToBlockSeq(flow, parseDocument(flow).get('repos', true), 'c')).toBeUndefined();
    const map = 'pre-commit:\n  commands:\n    lint:\n      run: x\n';
    const commands = (parseDocument(map).get('pre-commit', true) as YAMLMap).get('commands', true);
    expect(appendToBlockMap(map, commands, 'git-ctx', { run: 'y', args: ['--a', '--b'] })).toBe(`${map}    git-ctx:\n      run: y\n      args:\n        - --a\n        - --b\n`);
    // a flow list in frontmatter is rewritten as a flow list, its trailing comment kept
    expect(editFrontmatterText('---\nkeywords: [a, b]  # sorted\n---\n', { keywords: ['a', 'b', 'c'] })).toBe('---\nkeywords: [a, b, c]  # sorted\n---\n');
  });

  it('keeps comments: trailing ones found quote-aware, comment lines stay outside a key’s region, removals take only their lines', () => {
    expect(trailingComment('a: "x # y"  # z', 0)).toBe('  # z');
    expect(trailingComment("a: 'it''s # no'\t# yes\r", 0)).toBe('\t# yes');
    expect(trailingComment("a: it's # yes", 0)).toBe(' # yes');
    expect(trailingComment('a: b#c', 0)).toBe('');

    const src = 'a:\n  - x\n  # about a\n# about b\n\nb: 1\n';
    const keyLineEnd = nextLineStart(src, 0);
    // a's region keeps its own indented comment, not the one introducing b
    expect(src.slice(0, regionEnd(src, keyLineEnd, src.indexOf('b:'), 0))).toBe('a:\n  - x\n  # about a\n');

    const lefthook = 'pre-commit:\n  commands:\n    lint: # first\n      run: x\n    git-ctx:\n      run: y\n  # end of commands\n';
    const doc = parseDocument(lefthook);
    const commands = (doc.get('pre-commit', true) as YAMLMap).get('commands', true) as unknown as YAMLMap;
    expect(removeBlockMapPair(lefthook, commands.items[1]!)).toBe('pre-commit:\n  commands:\n    lint: # first\n      run: x\n  # end of commands\n');
    const repos = 'repos:\n  - a # one\n  - b\n# tail\n';
    const seq = parseDocument(repos).get('repos', true) as YAMLSeq;
    expect(removeBlockSeqItem(repos, seq.items[1] as { range: [number, number, number] })).toBe('repos:\n  - a # one\n# tail\n');
  });
});

describe('util/yaml-edit: a text edit is kept only when it reads back as the data it meant', () => {
  it('reads back: same data in the same order, no parse error', () => {
    expect(readsBackAs('a: 1\nb: [x, y] # c\n', { a: 1, b: ['x', 'y'] })).toBe(true);
    expect(readsBackAs('b: [x, y]\na: 1\n', { a: 1, b: ['x', 'y'] })).toBe(false);
    expect(readsBackAs('a: [1\n', { a: [1] })).toBe(false);
    expect(readsBackAs('a: 2\n', { a: 1 })).toBe(false);
    // a caller's own reading: frontmatter keeps numbers as their text and reads nothing as {}
    const asFrontmatter = { parse: (t: string) => parseYamlStrings(t).doc, empty: {} };
    expect(readsBackAs('n: 007\n', { n: '007' }, asFrontmatter)).toBe(true);
    expect(readsBackAs('', {}, asFrontmatter)).toBe(true);
    expect(readsBackAs('', {})).toBe(false);
  });

  it('a hook configuration whose text edit would not read back falls back to the structural edit', () => {
    const orig = 'repos:\n  - a\nother: >\n  folded\n';
    const doc = parseDocument(orig);
    const text = appendItem(orig, 'repos', '- b');
    (doc.get('repos', true) as YAMLSeq).add('b');
    expect(sameDocument(text, doc)).toBe(text);
    // the same line inserted where a layout the edit did not foresee puts it (inside the folded
    // scalar) reads as other data: the document is serialised instead
    const wrong = `${orig}  - b\n`;
    expect(readsBackAs(wrong, doc.toJS())).toBe(false);
    expect(sameDocument(wrong, doc)).toBeUndefined();
    expect(sameDocument(wrong, doc) ?? doc.toString()).toBe('repos:\n  - a\n  - b\nother: >\n  folded\n');
  });
});
