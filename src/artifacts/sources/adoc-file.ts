// @spec SPEC-SOURCES-001
//
// Whether a file is AsciiDoc, apart from its reader (adoc-record.ts): the commands that only
// ask (supersede's link form, in the module trace loads for a kept answer) load nothing else.

/** An AsciiDoc file: `.adoc` or `.asciidoc` (`.asc` is left out: it is also a signature's name). */
export const ADOC_FILE = /\.(?:adoc|asciidoc)$/i;

export function isAdoc(file: string): boolean {
  return ADOC_FILE.test(file);
}
