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
 */
export function defaultNeighbours(index: CodeIndex, snapshot: Snapshot = index.snapshot): CodeNeighbours {
  let graph: Promise<CodeNeighbours> | undefined;
  const open = () => (graph ??= import('../code/graph/index.js').then((m) => m.openCodeNeighbours(snapshot)));
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
