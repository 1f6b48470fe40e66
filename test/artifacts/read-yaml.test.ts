// What the frontmatter reader (loadYamlStrings: js-yaml with a schema of strings, null and
// booleans) gives for the common shapes, and the top-level keys' lines beside it.
import { describe, expect, it } from 'vitest';
import { loadYamlStrings, topLevelKeyLines } from '../../src/artifacts/parse.js';

describe('frontmatter reader', () => {
  it('reads the common shapes: strings as written, null and booleans resolved', () => {
    const src = [
      'id: DEC-1',
      'type: decision',
      'title: Don\u2019t round [yet], a:b-c {x}',
      'status: accepted',
      "summary: 'it''s \"quoted\"'",
      'owner: "Ann # not a comment"',
      'draft: True',
      'empty:',
      'tilde: ~',
      'keywords: [billing, "two words", \'x\', null, FALSE]',
      'none: []',
      'links:',
      '  specs: [SPEC-1, SPEC-2]',
      '  decisions: DEC-0',
      'paths:',
      '  - src/**/*.ts',
      '  - "!src/gen/**"',
      'anchors:',
      '- a',
      '- b',
      '',
      '# a comment',
      'created: 2026-11-22',
      'version: 1.10',
      '',
    ].join('\n');
    const got = loadYamlStrings(src);
    expect(got.ok).toBe(true);
    expect(got.ok && got.data).toStrictEqual({
      id: 'DEC-1',
      type: 'decision',
      title: 'Don\u2019t round [yet], a:b-c {x}',
      status: 'accepted',
      summary: 'it\'s "quoted"',
      owner: 'Ann # not a comment',
      draft: true,
      empty: null,
      tilde: null,
      keywords: ['billing', 'two words', 'x', null, false],
      none: [],
      links: { specs: ['SPEC-1', 'SPEC-2'], decisions: 'DEC-0' },
      paths: ['src/**/*.ts', '!src/gen/**'],
      anchors: ['a', 'b'],
      created: '2026-11-22',
      version: '1.10',
    });
    expect(topLevelKeyLines(src)).toMatchObject({ id: 1, links: 12, paths: 15, anchors: 18, created: 23 });
  });

  it('names the line of a duplicate key and of an unterminated quote', () => {
    expect(loadYamlStrings('id: a\ntype: b\nid: c\n')).toMatchObject({ ok: false, line: 3 });
    const open = loadYamlStrings('id: a\ntitle: "unclosed\n');
    expect(open.ok).toBe(false);
    expect(!open.ok && open.line).toBe(2);
  });
});
