// @spec SPEC-CODEGRAPH-001

/*
 * Repository paths as the graph's resolvers read them: always `/`-separated and relative to
 * the repository's top, so these are string operations, never `node:path` (which would follow
 * the platform's separator and the process's working directory).
 */

/** The folder of a path (`''` at the top). */
export const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
/** Two path parts joined, either may be empty. */
export const join = (a: string, b: string): string => (a ? (b ? `${a}/${b}` : a) : b);
/** The last part of a path. */
export const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** `a/b/../c` → `a/c`; undefined when it climbs out of the repository. */
export function normalize(p: string): string | undefined {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/** Go modules of go.mod files: `[module path, its folder]`, the longest path first (the innermost module owns an import). */
export function goModules(manifests: ReadonlyMap<string, string>): [string, string][] {
  const mods: [string, string][] = [];
  for (const [p, text] of manifests) {
    const m = p === 'go.mod' || p.endsWith('/go.mod') ? /^\s*module\s+("?)([^\s"]+)\1/m.exec(text) : null;
    if (m) mods.push([m[2]!, dirOf(p)]);
  }
  return mods.sort((a, b) => b[0].length - a[0].length);
}
