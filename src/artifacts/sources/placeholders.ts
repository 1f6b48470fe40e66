// @spec SPEC-SOURCES-001

/**
 * MADR's templates write each value as a `{placeholder}` (`status: {proposed | accepted | …}`,
 * `date: {YYYY-MM-DD …}`), and teams fill a value in without removing the braces:
 * `status: {accepted}`, `date: { 2024-05-02 }`, `deciders: { Stephen Toub, Ben Thomas }`. YAML
 * reads those as flow mappings whose keys are the values and whose values are all null, which
 * printed as "[object Object]". Such a mapping is the value its keys spell: one key is that
 * string, several are a list. A real mapping (a key with a value) is left as it is. A key the
 * template offered and nobody filled (`consulted:` with nothing after it) says nothing: it is
 * left out rather than shown as "consulted: null", and so is a value that is only an HTML
 * comment, a template's prompt (`author: <!--@githubusername-->`, CumulusCI's template).
 */
export function unbraceValues(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const [k, v] of Object.entries(data)) {
    if (v === null || (typeof v === 'string' && /^\s*<!--(?:(?!-->)[\s\S])*-->\s*$/.test(v))) {
      delete out[k];
      continue;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Date) continue;
    const entries = Object.entries(v as Record<string, unknown>);
    if (!entries.length || entries.some(([, x]) => x !== null)) continue;
    const keys = entries.map(([key]) => key.trim()).filter(Boolean);
    out[k] = keys.length === 1 ? keys[0] : keys;
  }
  return out;
}

/**
 * A title that is still the template's placeholder, as a whole: `{short title of solved problem
 * and solution}`, `[short title …]`, `<title>`. Such a record has no title of its own yet; its
 * file name says what it is about.
 */
export function isPlaceholderTitle(title: string): boolean {
  // the template's own heading left as it was ("# Title" above the record's first line, as
  // two of SAP/cloud-sdk-js's records keep it) @decision DEC-104
  return /^(?:\{[^{}]*\}|\[[^[\]]*\]|<[^<>]*>|(?:(?:adr|decision|record|short)\s+)?title)$/i.test(title.trim());
}

/**
 * A title its author wrote inside the template's square brackets (MADR 2's `# [short title …]`
 * kept around `# [Gestion des Dates]`, SocialGouv/pass-emploi-api): the words in the brackets,
 * unless they are the template's own prompt (a title, a name, a placeholder such as `xxx`);
 * undefined for any other title. @decision DEC-136
 */
export function keptInBrackets(title: string): string | undefined {
  const inner = /^\[([^[\]]*)\]$/.exec(title.trim())?.[1]?.trim();
  if (!inner || !/\p{L}{2}/u.test(inner)) return undefined;
  const prompt = /(?<![\p{L}])(?:title|titre|titel|t[i\u00ed]tulo|titolo|name|nom|naam|nombre|xxx+|tbd|todo)(?![\p{L}])|\u2026|\.\.\./iu;
  return prompt.test(inner) ? undefined : inner;
}

/**
 * A heading's title without the emphasis written around its words ("Supporting _bound_
 * *operations* (*actions* …)" reads "Supporting bound operations (actions …)"); code spans and
 * a snake_case name keep their characters. @decision DEC-104
 */
export function unemphasized(title: string): string {
  if (!/[*_]/.test(title)) return title;
  return title.replace(/(^|[^\w*`])(\*{1,3}|_{1,3})(?=\S)([^*_`]*?\S)\2(?![\w*])/g, '$1$3');
}

/**
 * A "Tags:" line's tags: log4brains separates them by spaces and/or commas (`dev-tools, doc`,
 * `agile team daily`, `[identity, groups]`). The template's own prompt, kept in a record
 * (`[space and/or comma separated list of tags] <!-- optional -->`), is no tag.
 */
export function tagList(value: string): string[] {
  let v = value.replace(/<!--[\s\S]*?(?:-->|$)/g, '').trim();
  if (isPromptValue(v)) return [];
  const braced = /^[[{](.*)[\]}]$/.exec(v);
  if (braced) v = braced[1]!.trim();
  return v.split(/[\s,]+/).map((t) => t.replace(/^[#`'"]+|[`'".;]+$/g, '')).filter((t) => /[\p{L}\p{N}]/u.test(t));
}

/** A template's prompt in place of a value: a bracketed phrase (`[list everyone involved in the decision]`), not a bracketed list (`[Ana, Ben]`). */
export function isPromptValue(value: string): boolean {
  const braced = /^[[{](.*)[\]}]$/.exec(value.replace(/<!--[\s\S]*?(?:-->|$)/g, '').trim());
  return !!braced && !braced[1]!.includes(',') && braced[1]!.trim().split(/\s+/).length > 2;
}

/**
 * A template's list of choices left in place of a value, none chosen: `[ accepted | deprecated |
 * superseded by [xxx](yyyymmdd-xxx.md)]` (log4brains' MADR 2 template, kept in three of
 * hyperledger/identus-cloud-agent's records). No status, and the `[xxx](yyyymmdd-xxx.md)` it
 * offers is no reference. @decision DEC-132
 */
export function isChoicePrompt(value: string): boolean {
  const v = value.replace(/<!--[\s\S]*?(?:-->|$)/g, '').trim();
  return /^[[{]/.test(v) && /[\]}]$/.test(v) && /\s\|\s/.test(v);
}

/**
 * A date written in the template's brackets (`[2023-01-17]`) is that date; a bracketed prompt
 * (`[YYYY-MM-DD when the decision was last updated]`) is none. Other values are kept. @decision DEC-132
 */
export function dateValue(value: string): string | undefined {
  const v = value.replace(/<!--[\s\S]*?(?:-->|$)/g, '').trim();
  const braced = /^[[{]\s*(.*?)\s*[\]}]$/.exec(v);
  if (!braced) return v || undefined;
  return /\d/.test(braced[1]!) && !/[yd]{2}/i.test(braced[1]!) && braced[1]!.split(/\s+/).length <= 3 ? braced[1] : undefined;
}
