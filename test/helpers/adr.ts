/**
 * adr-tools records for fixture repositories: `# N. Title`, a date, `## Status` Accepted and
 * the Context, Decision and Consequences sections, as the development sets' folders write them.
 */
export const adrText = (n: number, title: string, context: string, decision: string, consequences: string, year = 2024): string =>
  `# ${n}. ${title}\n\nDate: ${year}-${String(n).padStart(2, '0')}-01\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n\n## Consequences\n\n${consequences}\n`;

/** A record as a `makeRepo` entry: `<dir>/<NNNN>-<slug>.md` and its text. */
export const adrEntry = (dir: string, n: number, slug: string, title: string, context: string, decision: string, consequences: string, year?: number): readonly [string, string] =>
  [`${dir}/${String(n).padStart(4, '0')}-${slug}.md`, adrText(n, title, context, decision, consequences, year)] as const;
