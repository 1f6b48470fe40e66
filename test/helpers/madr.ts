/**
 * MADR-shaped fixtures, written for these tests (placeholders in braces): a folder template and
 * records in its shape. `optional` adds what MADR marks optional (deciders, Positive
 * Consequences, comments saying so); the short template has neither.
 */
export function madrTemplate(o: { optional?: boolean } = {}): string {
  const optional = '<!-- This is an optional element. Feel free to remove. -->';
  return [
    '---',
    'status: {proposed | rejected | accepted | deprecated}',
    'date: {YYYY-MM-DD when the decision was last updated}',
    ...(o.optional ? ['deciders: {everyone involved in the decision}'] : []),
    '---',
    '# {short title of solved problem and solution}',
    '',
    '## Context and Problem Statement',
    '',
    '{Describe the context and problem statement in two or three sentences, or as a question.}',
    '',
    '## Considered Options',
    '',
    '* {title of option 1}',
    '* {title of option 2}',
    '',
    '## Decision Outcome',
    '',
    'Chosen option: "{title of option 1}", because',
    '{justification: the only option meeting a driver, or the one that comes out best}.',
    '',
    ...(o.optional ? [optional, '### Positive Consequences', '', '* {an improvement of a quality the team cares about}', '', optional] : []),
    '## More Information',
    '',
    '{Evidence for the outcome, how it is validated, when to revisit it, links to other decisions.}',
    '',
  ].join('\n');
}

/** A MADR record (accepted, dated by its number) with its context and chosen option. */
export const madrRecord = (n: number, title: string, why: string, outcome: string): string =>
  `---\nstatus: accepted\ndate: 2024-0${n}-02\n---\n# ${title}\n\n## Context and Problem Statement\n\n${why}\n\n## Decision Outcome\n\nChosen option: ${outcome}\n`;

/** The two records both template fixtures start from, as `makeRepo` entries under `dir`. */
export const madrRecords = (dir: string): Record<string, string> => ({
  [`${dir}/0001-use-markdown-records.md`]: madrRecord(1, 'Use Markdown Architectural Decision Records', 'We want to keep a record of our decisions beside the code.', '"MADR", because it is lean and fits our needs.'),
  [`${dir}/0002-cache-sessions-in-redis.md`]: madrRecord(2, 'Cache sessions in Redis', 'Every deploy logged everybody out: the web tier kept sessions in its own memory.', '"Redis", sessions live in Redis with a thirty-minute expiry, so a deploy keeps them.'),
});
