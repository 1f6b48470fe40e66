import { stringify } from 'yaml';
import type { Artifact } from './types.js';

/** Frontmatter as YAML text, without the stamp (an implementation detail at every depth but full). */
export function metaText(a: Artifact, opts: { withStamp?: boolean } = {}): string {
  const data = { ...a.data };
  if (!opts.withStamp) delete data.stamp;
  return stringify(data, { lineWidth: 0 }).trimEnd();
}
