// @spec SPEC-CLI-001

/** "1 artifact", "2 artifacts", "0 errors"; `many` for irregular plurals ("1 info", "3 info"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
