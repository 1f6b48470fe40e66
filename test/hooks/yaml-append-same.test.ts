import { describe, expect, it } from 'vitest';
import { parseDocument, type YAMLSeq } from 'yaml';
import { appendToBlockSeq, sameDocument } from '../../src/hooks/yaml-append.js';

describe('a hook configuration edited as text is written only when it says what the structural edit says', () => {
  const orig = 'repos:\n  - repo: local\n    hooks:\n      - id: lint # keep\n        entry: npm run lint\n';
  const edited = () => {
    const doc = parseDocument(orig);
    const item = { repo: 'local', hooks: [{ id: 'git-ctx', entry: 'git ctx hook pre-commit' }] };
    const text = appendToBlockSeq(orig, doc.get('repos', true), item);
    (doc.get('repos', true) as YAMLSeq).add(doc.createNode(item));
    return { doc, text };
  };

  it('keeps the text edit when it reads as the edited document', () => {
    const { doc, text } = edited();
    expect(text).toContain('      - id: lint # keep\n');
    expect(sameDocument(text, doc)).toBe(text);
  });

  it('refuses a text that reads as other data, or does not parse', () => {
    const { doc, text } = edited();
    // the new entry one level too shallow: a second top-level key's worth of data, not a list item
    expect(sameDocument(text!.replace('  - repo: local\n    hooks:\n      - id: git-ctx', 'other:\n  - repo: local\n    hooks:\n      - id: git-ctx'), doc)).toBeUndefined();
    expect(sameDocument('repos: [\n', doc)).toBeUndefined();
    expect(sameDocument(undefined, doc)).toBeUndefined();
  });
});
