// @spec SPEC-CONFIRM-001

import type { FindingSeverity } from '../../check/types.js';

/** The kinds of confirmation a record may carry (DEC-052). */
export const CONFIRM_KINDS = ['forbid-call', 'forbid-import', 'forbid', 'require', 'forbid-export-default', 'require-import'] as const;
export type ConfirmKind = (typeof CONFIRM_KINDS)[number];

/** Kinds read from the syntax tree: a word in a comment or a string never counts. */
export const STRUCTURAL_KINDS: readonly ConfirmKind[] = ['forbid-call', 'forbid-import', 'forbid-export-default', 'require-import'];

/** One checkable statement of a decision record. */
export interface Confirmation {
  kind: ConfirmKind;
  /**
   * What it looks for: a callee (`Math.round`, `console.*`), a module glob (`moment*`), a
   * regular expression's source; empty for forbid-export-default written as `true`.
   */
  pattern: string;
  /** where it applies: `paths:`-style entries (`!` excludes); empty: the whole repository */
  in: string[];
  message?: string;
  severity?: FindingSeverity;
  /** the record it belongs to */
  id: string;
  /** the record's file, and the line of this entry in it */
  file: string;
  line: number;
}

/** A confirmation that does not hold at one place. */
export interface Violation {
  file: string;
  line: number;
  column: number;
  confirmation: Confirmation;
  /** what was found, e.g. `Math.round(…)`, `import "moment"` */
  found: string;
}

/** A confirmation entry that could not be read (reported, never thrown). */
export interface ConfirmProblem {
  file: string;
  line: number;
  id: string;
  message: string;
}

/** A regular expression stopped at its time bound on one file: the file was not checked for it. */
export interface BoundedRun {
  file: string;
  confirmation: Confirmation;
  ms: number;
}

export interface ConfirmResult {
  violations: Violation[];
  bounded: BoundedRun[];
  problems: ConfirmProblem[];
  /** files skipped as too large or binary */
  skipped: { file: string; reason: string }[];
  /** files examined by at least one confirmation */
  files: number;
}
