// @spec SPEC-CODEGRAPH-001

/**
 * The declaration a symbol as a person writes it names, among a file's declarations (qualified
 * with dots: `BulkData.Cache.read`): the exact name; else the name with Ruby's separators read as
 * dots (`BulkData::Cache`, `Cache#read` for an instance method, `Cache.read` for a class
 * method); else the one declaration whose qualified name ends with it (`Cache`, `read`), the
 * shortest when several do (an outer class before a nested one of the same name).
 */
export function findDeclaration<T extends { name: string }>(decls: readonly T[], wanted: string): T | undefined {
  const exact = decls.find((d) => d.name === wanted);
  if (exact) return exact;
  const dotted = wanted.replace(/::|#/g, '.').replace(/^\.+/, '');
  if (!dotted) return undefined;
  const same = decls.find((d) => d.name === dotted);
  if (same) return same;
  let best: T | undefined;
  for (const d of decls) if (d.name.endsWith(`.${dotted}`) && (!best || d.name.length < best.name.length)) best = d;
  return best;
}
