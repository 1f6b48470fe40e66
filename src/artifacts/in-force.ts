// @spec SPEC-ARTIFACTS-001

import type { Config } from '../config.js';
import type { Artifact } from './types.js';

/**
 * Is a record out of force (superseded, deprecated, rejected, done…)? Each type's `inactive`
 * statuses in the configuration say so; a record without a status is in force.
 */
export function isInactive(a: Pick<Artifact, 'type' | 'status'>, config: Pick<Config, 'types'>): boolean {
  return !!a.status && (config.types[a.type]?.inactive ?? []).includes(a.status);
}

/**
 * Is a record out of force and also no answer to a question about its subject? A rejected
 * record is out of force as a rule (rule files, "governs this change" leave it out), but it is
 * the team's standing "no" with its reasons: "why don't the batch endpoints stream?" is
 * answered by the proposal to stream that was turned down, and an agent about to re-propose it
 * should read it. So retrieval answers with it, marked, as it does with any record in force
 * (DEC-076). Superseded and deprecated records are history: they answer only with `--all`, and
 * a superseded one found leads to its successor.
 */
export function isRetired(a: Pick<Artifact, 'type' | 'status'>, config: Pick<Config, 'types'>): boolean {
  return isInactive(a, config) && a.status !== 'rejected';
}
