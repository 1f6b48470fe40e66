import { LineCounter, parseDocument, visit, type Document } from 'yaml';

// eemeli/yaml keeps comments and layout, which surgical writes need; reads use the faster
// js-yaml path in parse.ts, so this module (and the yaml package) loads only when writing.

/** Parse YAML keeping every scalar that YAML would coerce to a number as its source text. */
export function parseYamlStrings(src: string): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(src, { schema: 'core', lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  visit(doc, {
    Scalar(_k, node) {
      if (typeof node.value === 'number' || typeof node.value === 'bigint') {
        node.value = (node as { source?: string }).source ?? String(node.value);
      }
    },
  });
  return { doc, lines };
}
