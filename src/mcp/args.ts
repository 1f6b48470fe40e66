import { z } from 'zod';
import { closeMatches } from '../util/close-match.js';

/**
 * A tool's argument shape as a strict object: an argument name the tool does not take is
 * refused, not dropped. Dropping it (zod's default) answered another question than the one
 * asked — `query_text` for `query` became a missing query, `type` for `types` an unfiltered
 * search — and the agent never learnt why. The schema advertised in tools/list says
 * `additionalProperties: false`, and the SDK turns the refusal into an isError result the
 * model reads and can correct: it names the unknown arguments, the likely meant one and
 * every argument the tool takes (DEC-084).
 */
export function strictArgs<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  const takes = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownArgumentsMessage(issue.keys, takes) : undefined),
  });
}

/** "unknown argument query_text (did you mean query?); this tool takes: query, terms, …" */
export function unknownArgumentsMessage(unknown: readonly string[], takes: readonly string[]): string {
  const named = unknown.map((k) => {
    const near = meant(k, takes);
    return near ? `${k} (did you mean ${near}?)` : k;
  });
  const list = takes.length ? `this tool takes: ${takes.join(', ')}` : 'this tool takes no arguments';
  return `unknown argument${unknown.length === 1 ? '' : 's'} ${named.join(', ')}; ${list}`;
}

/** The argument an agent most likely meant: a small misspelling, or a name that is a part of it (query_text → query, ids → id). */
function meant(asked: string, takes: readonly string[]): string | undefined {
  const close = closeMatches(asked, [...takes], 1)[0];
  if (close) return close;
  const parts = asked.split(/[_\-\s]+|(?<=[a-z])(?=[A-Z])/).map((p) => p.toLowerCase());
  return takes.find((t) => parts.includes(t.toLowerCase()) || t.toLowerCase().split('_').includes(asked.toLowerCase()));
}
