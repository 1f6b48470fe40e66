// @spec SPEC-SOURCES-001
// @decision DEC-129

/**
 * A line with its HTML comments blanked (same length, so offsets hold); `open`: a comment goes
 * on to the next line. A template's prompts are comments (`<!-- What is the status … -->`,
 * `<!--- … -->` with a third dash): no text of the record.
 */
export function blankComments(line: string, open: boolean): { text: string; open: boolean } {
  let out = '';
  let at = 0;
  for (;;) {
    if (open) {
      const end = line.indexOf('-->', at);
      if (end < 0) return { text: out + ' '.repeat(line.length - at), open: true };
      out += ' '.repeat(end + 3 - at);
      at = end + 3;
    }
    const start = line.indexOf('<!--', at);
    if (start < 0) return { text: out + line.slice(at), open: false };
    out += line.slice(at, start);
    at = start;
    open = true;
  }
}

/** Lines with their HTML comments blanked, a comment over several lines too (the lines and their lengths kept). */
export function linesWithoutComments(lines: readonly string[]): string[] {
  let open = false;
  return lines.map((l) => {
    if (!open && !l.includes('<!--')) return l;
    const r = blankComments(l, open);
    open = r.open;
    return r.text;
  });
}
