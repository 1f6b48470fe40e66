import { stringify } from 'yaml';
import { agentVisible } from './sources/provenance.js';
import { isSyncKey, SITE_KEYS } from './sources/site-keys.js';
import type { Artifact } from './types.js';

/** Longest written status shown beside the mapped one: a longer one is a sentence, which the record's status line (and `show --json`) holds whole. */
const WRITTEN_MAX = 60;

/**
 * A status for people: the mapped one, with the words the record wrote beside it when they
 * differ in more than case (`accepted (written "[Approved]")`), so neither markup nor quoting
 * stands in for it. A status written as a long sentence ("Accepted on 2021-03-04 after the
 * review by …") is not quoted whole: the mapped word, and the line that says more.
 */
export function statusText(a: Pick<Artifact, 'status' | 'statusText'> & { keyLines?: Artifact['keyLines'] }): string | undefined {
  if (a.status === undefined) return undefined;
  // "Accepted" for accepted is the same word: only a different one is worth showing
  if (a.statusText === undefined || a.statusText.toLowerCase() === a.status.toLowerCase()) return a.status;
  if (a.statusText.length <= WRITTEN_MAX) return `${a.status} (written ${JSON.stringify(a.statusText)})`;
  const line = a.keyLines?.status;
  return `${a.status} (written at length${line ? ` on line ${line}` : ''})`;
}

/**
 * Frontmatter as YAML text, without the stamp (an implementation detail at every depth but
 * full), with the status read as `statusText` says, and without the internal confidence
 * (DEC-054: agents treat every record alike) unless a person reads it (`withConfidence`),
 * without a read-in-place record's site navigation and sync keys (SITE_KEYS, isSyncKey). A
 * record that wrote no metadata (an ADR without a Status line) says so instead of printing an
 * empty object.
 */
export function metaText(a: Artifact, opts: { withStamp?: boolean; withConfidence?: boolean } = {}): string {
  const data: Record<string, unknown> = opts.withConfidence ? { ...a.data } : { ...agentVisible(a.data) };
  if (!opts.withStamp) delete data.stamp;
  // a published record's place in the site's menu says nothing to its reader (`show --json` keeps it)
  if (a.format === 'adr') for (const k of Object.keys(data)) if (SITE_KEYS.has(k) || isSyncKey(k)) delete data[k];
  const status = statusText(a);
  if (status !== undefined && status !== data.status) data.status = status;
  if (!Object.keys(data).length) return '(no metadata written in the record)';
  return stringify(data, { lineWidth: 0 }).trimEnd();
}
