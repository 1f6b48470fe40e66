// @spec SPEC-CONFIRM-001

const compiled = new Map<string, RegExp>();

/**
 * A callee or module pattern: `*` stands for any run of characters (dots and slashes
 * included), `?` for one; everything else is literal and the whole name must match.
 * `console.*` matches `console.log`, `moment*` matches `moment` and `moment-timezone/x`.
 */
export function nameMatches(pattern: string, name: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    const src = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*').replace(/\?/g, '.');
    re = new RegExp(`^${src}$`);
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re.test(name);
}
