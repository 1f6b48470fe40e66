// @spec SPEC-FEDERATION-001

/**
 * The names of federated records' files (DEC-061): `~<source>@<commit12>/<path in the
 * upstream>`. Kept apart from the loading and fetching of sources (federated.ts, the source
 * store) so that whatever only shows a record's file (retrieval's and the PR comment's
 * renderers, list, bundles) does not load git, the fetcher and node:crypto with it.
 */

export const SHORT = 12;

/** `~name@commit12`: the prefix of every file of a pinned source. */
export function pinPrefix(name: string, commit: string): string {
  return `~${name}@${commit.slice(0, SHORT)}`;
}

/** The source and short commit a federated file names (undefined for any other file). */
export function federatedFile(file: string): { name: string; commit: string; path: string } | undefined {
  const m = /^~([A-Za-z0-9][A-Za-z0-9._-]*)@([0-9a-f]+)\/(.*)$/.exec(file);
  return m ? { name: m[1]!, commit: m[2]!, path: m[3]! } : undefined;
}

/** `standards@34ce34493c38` for a federated record's file: how a line naming it says where it is from. */
export function sourceMark(file: string): string | undefined {
  const f = federatedFile(file);
  return f ? `${f.name}@${f.commit}` : undefined;
}
