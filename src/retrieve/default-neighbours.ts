// @spec SPEC-RETRIEVE-001

import type { CodeIndex } from '../code/code-index.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import type { Snapshot } from '../snapshot/types.js';

/**
 * The code graph retrieval walks by default: the whole-repository index of src/code/graph/
 * (TypeScript/JavaScript through the compiler's module resolution; Python, Go, Java and Ruby
 * through tree-sitter), opened on first use only, so a question that never walks the graph
 * never lists the tree for it. Symbols the graph index does not declare fall back to the
 * code index's own symbol table for `symbolAt`. The graph reads `snapshot` (default: the
 * index's), the whole repository even when the index covers a few files (a place index).
 * With `focus`, the file a question is about: a tree whose graph was never built answers that
 * file from the files that can matter to it, and builds the whole graph on the next question.
 */
export function defaultNeighbours(index: CodeIndex, snapshot: Snapshot = index.snapshot, focus?: string): CodeNeighbours {
  let graph: Promise<CodeNeighbours> | undefined;
  // a question about one file asks the graph for that file first (DEC-089)
  const open = () => (graph ??= import('../code/graph/index.js').then((m) => (focus === undefined ? m.openCodeNeighbours(snapshot) : m.openFileNeighbours(snapshot, focus))));
  return {
    languages: ['typescript', 'javascript', 'python', 'go', 'java', 'ruby', 'rust'],
    imports: async (p) => (await open()).imports(p),
    importers: async (p) => (await open()).importers(p),
    callers: async (p, s) => (await open()).callers(p, s),
    callees: async (p, s) => (await open()).callees(p, s),
    declarations: async (p) => (await open()).declarations?.(p) ?? [],
    symbolAt: async (p, line) => (await (await open()).symbolAt(p, line)) ?? (await index.symbolAt(p, line))?.name,
  };
}
