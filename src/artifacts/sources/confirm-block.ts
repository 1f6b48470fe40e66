// @spec SPEC-CONFIRM-001

/**
 * One confirmation entry as written in a record: one kind and its pattern,
 * `{ forbid-call: Math.round }`. The kinds and their meaning belong to src/check/confirm;
 * writing a new record only needs the text.
 */
export type ConfirmEntry = Readonly<Record<string, string>>;

/**
 * An ADR's confirmation section: a heading at the record's own level (MADR 4 keeps
 * "Confirmation" under "Decision Outcome", an h3; Nygard records use h2) and the fenced
 * `git-ctx` block holding the entries.
 */
export function confirmationSection(entries: readonly ConfirmEntry[], level: 2 | 3): string {
  const yaml = entries.map((e) => {
    const [k, v] = Object.entries(e)[0]!;
    return `  - ${k}: ${JSON.stringify(v)}`;
  });
  return `${'#'.repeat(level)} Confirmation\n\n\`\`\`git-ctx\nconfirm:\n${yaml.join('\n')}\n\`\`\`\n`;
}
