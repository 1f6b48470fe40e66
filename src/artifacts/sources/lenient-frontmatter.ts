// @spec SPEC-SOURCES-001
import { loadYamlStrings, type YamlLoad } from '../parse.js';

/**
 * A top-level `key: value` line whose plain value starts with a character YAML reserves:
 * `@` and the backtick may not begin a plain scalar (`author: @ana` is invalid YAML; js-yaml
 * reports it as "bad indentation of a mapping entry").
 */
const RESERVED_START = /^([A-Za-z_][\w-]*[ \t]*:[ \t]+)([@`][^\r\n]*?)((?:[ \t]+#[^\r\n]*)?[ \t]*)(\r?)$/;

export interface LenientLoad {
  load: YamlLoad;
  /** the keys whose values were read as quoted text, with their 1-based lines in the YAML */
  quoted: { key: string; line: number; value: string }[];
}

/**
 * The frontmatter of a record read in place, as the record's writer meant it: when the YAML
 * does not parse only because top-level values start with `@` or a backtick (CumulusCI's
 * `author: @jstvz`), those values are read as the text they are (DEC-123) and named in
 * `quoted`; any other error stands as it was. A repository's record is read, not corrected:
 * one unquoted handle must not cost the record its status and date.
 */
export function loadRecordFrontmatter(yaml: string): LenientLoad {
  const load = loadYamlStrings(yaml);
  if (load.ok) return { load, quoted: [] };
  const quoted: LenientLoad['quoted'] = [];
  const lines = yaml.split('\n').map((l, i) => {
    const m = RESERVED_START.exec(l);
    if (!m) return l;
    const value = m[2]!;
    quoted.push({ key: m[1]!.replace(/[ \t]*:[ \t]+$/, ''), line: i + 1, value });
    return `${m[1]}${JSON.stringify(value)}${m[3]}${m[4]}`;
  });
  if (!quoted.length) return { load, quoted };
  const retried = loadYamlStrings(lines.join('\n'));
  return retried.ok ? { load: retried, quoted } : { load, quoted: [] };
}
