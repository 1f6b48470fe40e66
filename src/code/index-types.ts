// @spec SPEC-ANCHORS-001

/** A partial code index (CodeIndexOptions.known) was asked for what only a whole one knows. */
export class PartialIndexError extends Error {
  constructor(what: string) {
    super(`internal: a partial code index does not know ${what}`);
    this.name = 'PartialIndexError';
  }
}

/** Counters of one index build, for benchmarks and `--verbose` output. */
export interface CodeIndexStats {
  /** files considered (known language, after include/exclude) */
  files: number;
  /** files the pre-filter matched */
  candidates: number;
  /** files read in this run (cache misses) */
  read: number;
  /** files parsed/extracted in this run */
  extracted: number;
  /** carriers taken from the classification kept by the git index's stamp (DEC-070); 0: classified file by file */
  kept: number;
  ms: number;
}
