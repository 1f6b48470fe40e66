// @spec SPEC-CONFIRM-001

export { CONFIRM_KINDS, STRUCTURAL_KINDS, type BoundedRun, type ConfirmKind, type ConfirmProblem, type ConfirmResult, type Confirmation, type Violation } from './types.js';
export { readConfirmations, regexError } from './read.js';
export { collectConfirmations, describe, runConfirmations, type ConfirmOptions, type ConfirmScope } from './evaluate.js';
export { CONFIRM_BOUND_KEY, CONFIRM_RULES, CONFIRM_SCOPE_KEY, confirmResultFor } from './rules.js';
export { scopeOfChanges, scopeOfUnifiedDiff, stagedScope, worktreeScope } from './scope.js';
export { checkChange, renderConfirmResult, violationLine, type CheckChangeOptions } from './change.js';
export { violationNote } from './note.js';
export { confirmEntries, confirmationLines, confirmationSection, type ConfirmEntry, type ConfirmFlags } from './author.js';
