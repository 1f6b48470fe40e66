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

function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}
