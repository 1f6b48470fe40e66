// @spec SPEC-CONFIRM-001

import type { ArtifactSet } from '../../artifacts/load.js';
import type { Config } from '../../config.js';
import type { Snapshot } from '../../snapshot/types.js';
import { describe, runConfirmations } from './evaluate.js';

/** Most violations one note lists: the agent's context is not ours to fill. */
const MAX_LISTED = 20;

/**
 * For an agent opening a file: which of its lines violate which decision, as a short
 * markdown note ('' when none). Every line counts: the agent is about to work on the file.
 */
export async function violationNote(snapshot: Snapshot, config: Config, set: ArtifactSet, file: string): Promise<string> {
  const r = await runConfirmations({ snapshot, config, set, scope: new Map([[file, undefined]]) });
  if (!r.violations.length) return '';
  const lines = [`## Decisions ${file} violates (git-ctx confirmations)`, ''];
  for (const v of r.violations.slice(0, MAX_LISTED)) lines.push(`- line ${v.line}: ${describe(v)}`);
  if (r.violations.length > MAX_LISTED) lines.push(`- … ${r.violations.length - MAX_LISTED} more (git ctx check)`);
  lines.push('', 'Do not add more; fix them when the change touches them.', '');
  return lines.join('\n') + '\n';
}
