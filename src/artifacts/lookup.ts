// @spec SPEC-ARTIFACTS-001

import { closeMatches } from '../util/close-match.js';
import { CtxError } from '../errors.js';
import type { ArtifactSet } from './load.js';
import type { Artifact } from './types.js';

/** The artifact with this id, or UNKNOWN_ID with close-match suggestions. Case-insensitive fallback. */
export function requireArtifact(set: ArtifactSet, id: string): Artifact {
  const a = set.byId.get(id) ?? [...set.byId.values()].find((x) => x.id.toLowerCase() === id.toLowerCase());
  if (a) return a;
  const near = closeMatches(id, [...set.byId.keys()]);
  throw new CtxError('UNKNOWN_ID', `unknown artifact id: ${id}`, { hint: near.length ? `did you mean ${near.join(', ')}?` : 'run git ctx list to see the ids' });
}
