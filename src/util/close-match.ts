// Lives apart from the check rules so that a lookup ("did you mean …?") loads no rule code.

/** Ids within a small edit distance, best first. */
export function closeMatches(id: string, ids: string[], max = 3): string[] {
  const norm = (s: string) => s.toLowerCase();
  // the same id but for leading zeros in its numbers is the closest match: ADR-32 is ADR-0032
  const unpadded = (s: string) => norm(s).replace(/(^|\D)0+(?=\d)/g, '$1');
  const want = unpadded(id);
  const scored = ids
    .map((c) => ({ c, d: unpadded(c) === want ? 0 : editDistance(norm(id), norm(c)) }))
    .filter((x) => x.d <= (id.length >= 12 ? 2 : 1))
    .sort((a, b) => a.d - b.d || (a.c < b.c ? -1 : 1));
  return scored.slice(0, max).map((x) => x.c);
}

/** Edit distance counting a swap of two neighbouring letters as one edit (`ture` → `true`). */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * A hint listing `names` for someone who asked for `asked`: the close ones first ("did you
 * mean"), then the others, at most `max`, saying how many more there are.
 */
export function namesHint(asked: string, names: readonly string[], max = 8): string {
  const unique = [...new Set(names)];
  const near = closeMatches(asked, unique);
  const rest = unique.filter((n) => !near.includes(n));
  const shown = [...near, ...rest].slice(0, max);
  const more = unique.length - shown.length;
  return `${near.length ? `did you mean ${near.join(', ')}? ` : ''}symbols: ${shown.join(', ')}${more > 0 ? ` … and ${more} more` : ''}`;
}
