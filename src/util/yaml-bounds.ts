// @spec SPEC-HOSTILE-001

/**
 * Bounds on YAML read from the repository. A pull request can carry any file, and every
 * front end parses artifacts and config.yaml, so what one file may cost is capped here:
 * - bytes of YAML text (checked before parsing),
 * - nesting depth (js-yaml's own `maxDepth`, passed explicitly),
 * - nodes after alias expansion. js-yaml resolves `*alias` to the same object, so a
 *   "billion laughs" document loads in microseconds as a small graph — but anything that
 *   later walks it as a tree (stringify, copy, cache) visits every expanded node and runs
 *   for minutes or dies with `RangeError: Invalid string length`. js-yaml has no alias
 *   option, so the loaded value is walked once, iteratively, counting expanded nodes and
 *   stopping at the bound: the cost of the check is bounded by the bound itself.
 */
export const YAML_LIMITS = {
  /** bytes of frontmatter (or config.yaml) text */
  maxBytes: 256 * 1024,
  /** nesting of collections */
  maxDepth: 64,
  /** scalars + collections, counting each alias use as a full copy of what it names */
  maxNodes: 20_000,
} as const;

export type YamlBound =
  | { ok: true }
  | {
      ok: false;
      /** top-level key whose value crossed the bound, when the document is a mapping */
      key?: string;
      message: string;
    };

/**
 * Walk a loaded YAML value as the tree it stands for (aliases expanded), without recursion,
 * and stop as soon as it exceeds `maxNodes` nodes or `maxDepth` levels.
 */
export function checkYamlBounds(value: unknown, limits: { maxNodes: number; maxDepth: number } = YAML_LIMITS): YamlBound {
  let nodes = 0;
  const stack: { v: unknown; depth: number; key: string | undefined }[] = [{ v: value, depth: 0, key: undefined }];
  while (stack.length) {
    const { v, depth, key } = stack.pop()!;
    if (++nodes > limits.maxNodes) {
      return { ok: false, key, message: `expands to more than ${limits.maxNodes} values through repeated aliases (a "billion laughs" bomb?); refused` };
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limits.maxDepth) return { ok: false, key, message: `nested more than ${limits.maxDepth} levels deep; refused` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, key });
    } else {
      for (const [k, c] of Object.entries(v as Record<string, unknown>)) {
        nodes++; // the key itself
        stack.push({ v: c, depth: depth + 1, key: depth === 0 ? k : key });
      }
    }
  }
  return { ok: true };
}
