// @spec SPEC-CONFIRM-001

import type { ArtifactSet } from '../../artifacts/load.js';
import type { Config } from '../../config.js';
import type { Snapshot } from '../../snapshot/types.js';
import { describe, runConfirmations } from './evaluate.js';
import { scopeOfUnifiedDiff, worktreeScope } from './scope.js';
import type { ConfirmResult, Violation } from './types.js';

export interface CheckChangeOptions {
  /** the working tree */
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /**
   * A unified diff whose added lines to check, already in the working tree (e.g. the
   * output of `git diff main`); undefined: the working tree's changes against HEAD, and
   * untracked files whole.
   */
  diff?: string;
}

/**
 * The violations a change adds: confirmations evaluated on the working tree, counting only
 * the lines the change adds — what an agent asks before it says it is done.
 */
export async function checkChange(opts: CheckChangeOptions): Promise<ConfirmResult> {
  const { snapshot } = opts;
  const diff = opts.diff;
  return runConfirmations({
    snapshot,
    config: opts.config,
    set: opts.set,
    scope: diff !== undefined ? async () => scopeOfUnifiedDiff(diff) : () => worktreeScope(snapshot.root, snapshot.commit),
  });
}

/** `file:line:column  message` (the message names the decision). */
export function violationLine(v: Violation): string {
  return `${v.file}:${v.line}:${v.column}  ${describe(v)}`;
}

/** The result as text for a person or an agent. */
export function renderConfirmResult(r: ConfirmResult): string {
  const lines: string[] = [];
  for (const v of r.violations) lines.push(violationLine(v));
  for (const b of r.bounded) lines.push(`${b.file}  ${b.confirmation.kind} /${b.confirmation.pattern}/ of ${b.confirmation.id} stopped after ${b.ms} ms (bounded): not checked`);
  for (const p of r.problems) lines.push(`${p.file}:${p.line}  malformed confirmation: ${p.message}`);
  if (!lines.length) lines.push(`no decision is violated by the change (${r.files} file${r.files === 1 ? '' : 's'} examined)`);
  else lines.push(`${r.violations.length} violation${r.violations.length === 1 ? '' : 's'} in ${r.files} file${r.files === 1 ? '' : 's'} examined`);
  return lines.join('\n') + '\n';
}
