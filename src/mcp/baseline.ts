import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadYamlStrings, splitFrontmatter } from '../artifacts/parse.js';
import type { Config } from '../config.js';
import type { Snapshot } from '../snapshot/types.js';

/** The file name of a baseline manifest, in the artifact directory or the global store. */
export const BASELINE_FILE = 'baseline.md';

/** Ids an agent should load at session start, merged from the global and the project manifest. */
export interface Baseline {
  /** ids in manifest order (global first), each once */
  ids: string[];
  /** manifests that were read (repo-relative, or ~global/baseline.md) */
  sources: string[];
  /** manifests that could not be read as intended */
  problems: { file: string; message: string }[];
}

/**
 * Ids listed in a baseline manifest: frontmatter `ids:` and/or markdown list items.
 * A list item's id is its first token, with backticks, brackets and a trailing colon
 * removed, so `- \`NORM-ERROR-001\` — why` and `- [DEC-1](../x.md)` both work.
 */
export function parseBaselineManifest(text: string): { ids: string[]; problems: string[] } {
  const ids: string[] = [];
  const problems: string[] = [];
  const split = splitFrontmatter(text);
  if (split.hasFrontmatter) {
    const loaded = loadYamlStrings(split.yaml);
    if (!loaded.ok) problems.push(`invalid YAML frontmatter (line ${loaded.line + split.yamlLine - 1}): ${loaded.message}`);
    else {
      const data = loaded.data as Record<string, unknown> | null;
      const list = data?.ids;
      if (Array.isArray(list)) ids.push(...list.filter((x) => x !== null && x !== undefined).map(String));
      else if (typeof list === 'string') ids.push(...list.split(',').map((s) => s.trim()).filter(Boolean));
      else if (list !== undefined && list !== null) problems.push('ids: must be a list of artifact ids');
    }
  }
  let fence = false;
  for (const line of split.body.split(/\r?\n/)) {
    // list items inside code fences are examples, not entries
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/.exec(line);
    if (!m) continue;
    let token = m[1]!.trim();
    const link = /^\[([^\]]+)\]\([^)]*\)/.exec(token);
    if (link) token = link[1]!;
    token = token.split(/\s/)[0]!.replace(/^[`*_]+|[`*_:,;]+$/g, '');
    if (token) ids.push(token);
  }
  return { ids: [...new Set(ids)], problems };
}

/** Read the global manifest (when the global store is in use) and the project's `.contextia/baseline.md`. */
export async function loadBaseline(snapshot: Snapshot, config: Config, globalDir: string | undefined): Promise<Baseline> {
  const res: Baseline = { ids: [], sources: [], problems: [] };
  const add = (file: string, text: string) => {
    const r = parseBaselineManifest(text);
    res.sources.push(file);
    for (const p of r.problems) res.problems.push({ file, message: p });
    for (const id of r.ids) if (!res.ids.includes(id)) res.ids.push(id);
  };
  if (globalDir) {
    const text = await readFile(path.join(globalDir, BASELINE_FILE), 'utf8').catch(() => undefined);
    if (text !== undefined) add(`~global/${BASELINE_FILE}`, text);
  }
  const file = `${config.dir}/${BASELINE_FILE}`;
  const buf = await snapshot.read(file);
  if (buf) add(file, buf.toString('utf8'));
  return res;
}
