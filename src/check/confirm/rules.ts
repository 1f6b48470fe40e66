// @spec SPEC-CONFIRM-001

import type { CheckContext, Finding, Rule } from '../../check/types.js';
import { describe, runConfirmations, type ConfirmScope } from './evaluate.js';
import type { ConfirmResult } from './types.js';

/**
 * Key of ctx.cache under which a caller limits confirmations to some files and lines (a
 * ConfirmScope): the pre-commit hook passes what the commit adds, so a legacy violation
 * elsewhere never blocks an unrelated commit. Without it every covered file is examined. A
 * function is called only when some record carries confirmations (it may run git).
 */
export const CONFIRM_SCOPE_KEY = 'confirm-scope';
/** Key of ctx.cache for a time bound other than the default (tests). */
export const CONFIRM_BOUND_KEY = 'confirm-bound-ms';

type Out = Omit<Finding, 'severity'> & Partial<Pick<Finding, 'severity'>>;

/** One evaluation per check run, shared by the rules below. */
export function confirmResultFor(ctx: CheckContext): Promise<ConfirmResult> {
  let p = ctx.cache.get('confirm-result') as Promise<ConfirmResult> | undefined;
  if (!p) {
    p = runConfirmations({
      snapshot: ctx.snapshot,
      config: ctx.config,
      set: ctx.set,
      scope: ctx.cache.get(CONFIRM_SCOPE_KEY) as ConfirmScope | (() => Promise<ConfirmScope>) | undefined,
      boundMs: ctx.cache.get(CONFIRM_BOUND_KEY) as number | undefined,
    });
    ctx.cache.set('confirm-result', p);
  }
  return p;
}

export const CONFIRM_RULES: Rule[] = [
  {
    id: 'confirmation-violated',
    severity: 'error',
    description: "code that breaks a decision's confirmation (forbid-call, forbid-import, forbid, require, forbid-export-default, require-import)",
    run: async (ctx): Promise<Out[]> =>
      (await confirmResultFor(ctx)).violations.map((v) => ({
        rule: 'confirmation-violated',
        id: v.confirmation.id,
        file: v.file,
        line: v.line,
        column: v.column,
        message: describe(v),
        ...(v.confirmation.severity ? { severity: v.confirmation.severity } : {}),
      })),
  },
  {
    id: 'confirmation-malformed',
    severity: 'error',
    description: "a decision's confirmation entry that cannot be read (unknown kind, wrong type, invalid regular expression)",
    run: async (ctx) => (await confirmResultFor(ctx)).problems.map((p) => ({ rule: 'confirmation-malformed', id: p.id, file: p.file, line: p.line, message: p.message })),
  },
  {
    id: 'confirmation-bounded',
    severity: 'warning',
    description: "a confirmation's regular expression stopped at its time bound on a file (catastrophic backtracking): that file was not checked for it",
    run: async (ctx) =>
      (await confirmResultFor(ctx)).bounded.map((b) => ({
        rule: 'confirmation-bounded',
        id: b.confirmation.id,
        file: b.file,
        message: `${b.confirmation.kind} /${b.confirmation.pattern}/ of ${b.confirmation.id} was stopped after ${b.ms} ms on this file (bounded: the pattern backtracks catastrophically here); the file is not checked for it — simplify the pattern (${b.confirmation.file}:${b.confirmation.line})`,
      })),
  },
];
