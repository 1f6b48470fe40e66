// @spec SPEC-CODEGRAPH-001

/**
 * Bump when extraction or linking changes what they produce: old caches are then ignored.
 * A module of its own so that caches derived from the graph (impact's projections) can key
 * on it without loading the graph.
 */
export const CODE_GRAPH_VERSION = 3;
