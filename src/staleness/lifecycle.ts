import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { updateFrontmatter } from '../artifacts/write.js';
import type { Config } from '../config.js';
import { CtxError } from '../errors.js';

export interface LifecycleResult {
  id: string;
  file: string;
  changed: boolean;
  status?: string;
}

function checkStatus(config: Config, a: Artifact, status: string): void {
  const t = config.types[a.type];
  if (t && t.statuses.length && !t.statuses.includes(status)) {
    throw new CtxError('CONFIG', `type ${a.type} has no status "${status}" (configured: ${t.statuses.join(', ')})`, { file: a.file, hint: `add it to types.${a.type}.statuses in ${config.dir}/config.yaml` });
  }
}

function repoOnly(a: Artifact): void {
  if (a.origin !== 'repo') throw new CtxError('USAGE', `${a.id} is a global artifact; lifecycle changes are written only to repository artifacts`);
}

/**
 * Mark an artifact deprecated (status from the type's vocabulary), with an optional reason
 * written as `deprecated_reason`. Surgical: only those lines change.
 */
export async function deprecateArtifact(root: string, config: Config, a: Artifact, reason?: string): Promise<LifecycleResult> {
  repoOnly(a);
  checkStatus(config, a, 'deprecated');
  const edits: Record<string, unknown> = { status: 'deprecated' };
  if (reason !== undefined && reason.trim()) edits.deprecated_reason = reason.trim();
  const r = await updateFrontmatter(path.join(root, a.file), edits);
  return { id: a.id, file: a.file, changed: r.changed, status: 'deprecated' };
}

/**
 * `newer` supersedes `older`: the edge is written only on the newer record
 * (`relations.supersedes`, appended under the file lock so a concurrent edit is kept); the
 * older one gets `status: superseded`. The reverse edge (superseded_by) is computed.
 */
export async function supersedeArtifact(root: string, config: Config, set: ArtifactSet, older: Artifact, newer: Artifact): Promise<LifecycleResult[]> {
  repoOnly(older);
  repoOnly(newer);
  if (older.id === newer.id) throw new CtxError('USAGE', `${older.id} cannot supersede itself`);
  // a cycle would make both records claim to replace each other
  const seen = new Set<string>();
  const stack = [older.id];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === newer.id) throw new CtxError('USAGE', `${older.id} already (transitively) supersedes ${newer.id}; superseding it back would make a cycle`);
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(set.byId.get(id)?.relations.supersedes ?? []));
  }
  checkStatus(config, older, 'superseded');
  const rNew = await updateFrontmatter(path.join(root, newer.file), (cur) => {
    const rel = cur.relations && typeof cur.relations === 'object' && !Array.isArray(cur.relations) ? (cur.relations as Record<string, unknown>) : undefined;
    const topLevel = Array.isArray(cur.supersedes) || typeof cur.supersedes === 'string';
    const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
    // keep a record's own style: a top-level `supersedes:` stays top-level
    const keyPath = topLevel && !rel?.supersedes ? ['supersedes'] : ['relations', 'supersedes'];
    const existing = topLevel && !rel?.supersedes ? list(cur.supersedes) : list(rel?.supersedes);
    if (existing.includes(older.id)) return [];
    return [{ op: 'set', path: keyPath, value: [...existing, older.id] }];
  });
  const rOld = await updateFrontmatter(path.join(root, older.file), { status: 'superseded' });
  return [
    { id: newer.id, file: newer.file, changed: rNew.changed, status: newer.status },
    { id: older.id, file: older.file, changed: rOld.changed, status: 'superseded' },
  ];
}
