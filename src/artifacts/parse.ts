// @spec SPEC-ARTIFACTS-001

import type JsYaml from 'js-yaml';
import { loadJsYamlSync } from '../util/js-yaml.js';
import { gitBlobHash } from '../util/hash.js';
import { checkYamlBounds, YAML_LIMITS } from '../util/yaml-bounds.js';
import { titleOfStem } from './sources/adr-title.js';
import { setExtra } from './sources/extra.js';
import { titleCodeNames } from './sources/adr-title.js';
import { mentionCandidates } from './sources/mentions.js';
import { RELATION_KINDS, type Artifact, type LoadProblem, type RelationKind, type Scope } from './types.js';

/** Files larger than this are reported and skipped rather than parsed. */
export const MAX_ARTIFACT_BYTES = 4 * 1024 * 1024;

export interface FrontmatterSplit {
  /** raw YAML text between the fences ('' when absent) */
  yaml: string;
  /** everything after the closing fence line */
  body: string;
  /** 1-based line of the first YAML line */
  yamlLine: number;
  bodyLine: number;
  hasFrontmatter: boolean;
  /** offsets into the original text, for surgical writes */
  yamlStart: number;
  yamlEnd: number;
}

/**
 * Split `---\n yaml \n---\n body`. Done by hand rather than through gray-matter's cache
 * so that offsets are exact and CRLF files round-trip byte for byte.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const bomless = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = /^---[ \t]*\r?\n/.exec(text.slice(bomless));
  if (!open) return { yaml: '', body: text, yamlLine: 0, bodyLine: 1, hasFrontmatter: false, yamlStart: 0, yamlEnd: 0 };
  const yamlStart = bomless + open[0].length;
  const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(yamlStart);
  // the closing fence must start a line
  let m: RegExpExecArray | null;
  let idx = -1;
  let len = 0;
  const re = new RegExp(close.source, 'gm');
  while ((m = re.exec(rest))) {
    if (m.index === 0 || rest[m.index - 1] === '\n') {
      idx = m.index;
      len = m[0].length;
      break;
    }
    if (m[0].length === 0) re.lastIndex++;
  }
  if (idx < 0) return { yaml: '', body: text, yamlLine: 0, bodyLine: 1, hasFrontmatter: false, yamlStart: 0, yamlEnd: 0 };
  const yaml = rest.slice(0, idx);
  const body = rest.slice(idx + len);
  const yamlLine = 2;
  const bodyLine = yamlLine + (yaml.match(/\n/g)?.length ?? 0) + 1;
  return { yaml, body, yamlLine, bodyLine, hasFrontmatter: true, yamlStart, yamlEnd: yamlStart + idx };
}


/**
 * The read path: js-yaml (about 10x faster than eemeli/yaml on 5,000 records: DEC-044) with
 * a schema that resolves only null and booleans, so ids, dates and versions stay exactly as
 * written. eemeli/yaml remains the write path, where comments and layout must survive.
 */
// loaded on first use: a warm run whose records all come from the parse cache never loads it
let stringsYaml: { jsYaml: typeof JsYaml; schema: JsYaml.Schema } | undefined;
function yamlReader(): { jsYaml: typeof JsYaml; schema: JsYaml.Schema } {
  if (stringsYaml) return stringsYaml;
  const jsYaml = loadJsYamlSync();
  // js-yaml exports its built-in types at runtime; @types/js-yaml does not declare them
  const builtin = (jsYaml as unknown as { types: Record<'null' | 'bool', JsYaml.Type> }).types;
  return (stringsYaml = { jsYaml, schema: jsYaml.FAILSAFE_SCHEMA.extend({ implicit: [builtin.null, builtin.bool] }) });
}

export type YamlLoad = { ok: true; data: unknown } | { ok: false; line: number; message: string };

/** Parse frontmatter YAML to plain data; `line` is 1-based within the YAML text. */
export function loadYamlStrings(src: string): YamlLoad {
  // bounded: size before parsing, depth while parsing, alias expansion after (SPEC-HOSTILE-001)
  if (src.length > YAML_LIMITS.maxBytes) return { ok: false, line: 1, message: `frontmatter is ${Math.ceil(src.length / 1024)} KB; over the ${YAML_LIMITS.maxBytes / 1024} KB bound, not loaded` };
  try {
    const { jsYaml, schema } = yamlReader();
    const data = jsYaml.load(src, { schema, json: false, maxDepth: YAML_LIMITS.maxDepth } as JsYaml.LoadOptions);
    const bound = checkYamlBounds(data);
    if (!bound.ok) return { ok: false, line: (bound.key !== undefined ? topLevelKeyLines(src)[bound.key] : undefined) ?? 1, message: bound.message };
    return { ok: true, data };
  } catch (e) {
    const err = e as { reason?: string; message: string; mark?: { line: number; position: number } };
    let line = (err.mark?.line ?? 0) + 1;
    // an unterminated quote or bracket is reported at end of input; point at the last real line
    if (err.mark && err.mark.position >= src.trimEnd().length) line = src.trimEnd().split('\n').length;
    return { ok: false, line, message: err.reason ?? err.message.split('\n')[0]! };
  }
}

/** 1-based line (within the YAML) of each top-level key, from a plain scan. */
export function topLevelKeyLines(src: string): Record<string, number> {
  const res: Record<string, number> = {};
  const lines = src.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const c = lines[i]!.charCodeAt(0);
    // top-level keys start at column 0: skip indented, list, comment and empty lines cheaply
    if (c === 32 || c === 9 || c === 45 || c === 35 || Number.isNaN(c)) continue;
    const m = /^(?:"([^"]+)"|'([^']+)'|([^\s#:'"\-?][^:#]*?))[ \t]*:(?:[ \t]|$)/.exec(lines[i]!.replace(/\r$/, ''));
    if (m) {
      const key = (m[1] ?? m[2] ?? m[3])!.trim();
      if (!(key in res)) res[key] = i + 1;
    }
  }
  return res;
}

function firstHeading(body: string): string | undefined {
  const m = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(body);
  return m?.[1]?.trim();
}

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === 'string' ? v : typeof v === 'boolean' ? String(v) : undefined);
function strList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  return [];
}

export interface ParseResult {
  artifact?: Artifact;
  problems: LoadProblem[];
}

/**
 * The title of a record with no title, heading or description: its file name's words
 * (`use-postgres.md` → "Use postgres"), never its folder's; its id when the file is named by
 * the id (`DEC-001.md`), whose words would only spell the id apart. The parse cache keys a
 * record by its path too (load.ts), since the title depends on it.
 */
function titleOfFile(file: string, id: string): string {
  const stem = file.slice(file.lastIndexOf('/') + 1).replace(/\.(?:md|markdown)$/i, '');
  return !stem || stem.toLowerCase() === id.toLowerCase() ? id : titleOfStem(stem) || id;
}

/**
 * Parse one artifact file. Never throws: every problem is returned with file and line,
 * so one malformed file never stops the others.
 */
export function parseArtifact(file: string, bytes: Buffer, origin: Artifact['origin'] = 'repo', blob?: string): ParseResult {
  const problems: LoadProblem[] = [];
  const problem = (rule: string, message: string, line?: number): ParseResult => {
    problems.push({ file, line, rule, message });
    return { problems };
  };
  if (bytes.length === 0) return problem('frontmatter-missing', 'empty file: expected YAML frontmatter with at least id and type', 1);
  if (bytes.length > MAX_ARTIFACT_BYTES) return problem('file-too-large', `file is ${(bytes.length / 1048576).toFixed(1)} MB; artifacts over ${MAX_ARTIFACT_BYTES / 1048576} MB are not loaded`);
  if (bytes.includes(0)) return problem('binary-file', 'binary file (contains NUL bytes) under the artifact directory; expected markdown text');
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(bytes)) {
    const bad = text.indexOf('\uFFFD');
    const line = text.slice(0, bad).split('\n').length;
    return problem('invalid-encoding', 'file is not valid UTF-8', line);
  }
  const split = splitFrontmatter(text);
  if (!split.hasFrontmatter) return problem('frontmatter-missing', 'no YAML frontmatter: the file must start with a line "---", then YAML, then a closing "---"', 1);
  const loaded = loadYamlStrings(split.yaml);
  if (!loaded.ok) return problem('frontmatter-malformed', `invalid YAML: ${loaded.message}`, loaded.line + split.yamlLine - 1);
  if (loaded.data !== undefined && loaded.data !== null && (typeof loaded.data !== 'object' || Array.isArray(loaded.data))) {
    return problem('frontmatter-malformed', 'frontmatter must be a YAML mapping (key: value lines)', split.yamlLine);
  }
  const keyLines: Record<string, number> = {};
  for (const [k, l] of Object.entries(topLevelKeyLines(split.yaml))) keyLines[k] = l + split.yamlLine - 1;
  const data = (loaded.data ?? {}) as Record<string, unknown>;
  const at = (k: string) => keyLines[k] ?? split.yamlLine;
  const rawId = data.id;
  if (rawId === undefined || rawId === null || rawId === '') return problem('missing-field', 'missing required field "id"', split.yamlLine);
  if (typeof rawId !== 'string') return problem('invalid-id', `id must be a string, got ${Array.isArray(rawId) ? 'a list' : typeof rawId === 'object' ? 'a mapping' : JSON.stringify(rawId)}; the file is not loaded`, at('id'));
  const type = str(data.type);
  if (!type) return problem('missing-field', `missing required field "type" (in ${rawId})`, split.yamlLine);

  const relations: Partial<Record<RelationKind, string[]>> = {};
  const rel = data.relations;
  if (rel !== undefined && rel !== null) {
    if (typeof rel !== 'object' || Array.isArray(rel)) problems.push({ file, line: at('relations'), rule: 'invalid-field', message: 'relations must be a mapping of kind → list of ids' });
    else
      for (const [k, v] of Object.entries(rel as Record<string, unknown>)) {
        if (!(RELATION_KINDS as readonly string[]).includes(k)) {
          problems.push({ file, line: at('relations'), rule: 'invalid-field', message: `unknown relation "${k}" (expected one of ${RELATION_KINDS.join(', ')})` });
          continue;
        }
        relations[k as RelationKind] = strList(v);
      }
  }
  // top-level relation keys are accepted too (supersedes: [...]) — common in hand-written records
  for (const k of RELATION_KINDS) if (data[k] !== undefined && !relations[k]) relations[k] = strList(data[k]);

  const links: { kind: string; id: string }[] = [];
  const lk = data.links;
  if (Array.isArray(lk)) for (const id of strList(lk)) links.push({ kind: 'links', id });
  else if (lk && typeof lk === 'object') for (const [k, v] of Object.entries(lk as Record<string, unknown>)) for (const id of strList(v)) links.push({ kind: k, id });
  else if (lk !== undefined && lk !== null) problems.push({ file, line: at('links'), rule: 'invalid-field', message: 'links must be a mapping (specs/decisions/norms/tasks → ids) or a list of ids' });

  let stamp: Artifact['stamp'];
  if (data.stamp && typeof data.stamp === 'object' && !Array.isArray(data.stamp)) {
    const s = data.stamp as Record<string, unknown>;
    stamp = { commit: str(s.commit), fingerprints: s.fingerprints && typeof s.fingerprints === 'object' ? (Object.fromEntries(Object.entries(s.fingerprints as Record<string, unknown>).map(([k, v]) => [k, String(v)])) as Record<string, string>) : undefined };
  }
  const scopeRaw = str(data.scope);
  const scope: Scope = scopeRaw === 'global' || scopeRaw === 'domain' ? scopeRaw : 'project';
  if (scopeRaw && scopeRaw !== scope) problems.push({ file, line: at('scope'), rule: 'invalid-field', message: `scope must be global, domain or project (got ${scopeRaw})` });

  const artifact: Artifact = {
    id: rawId,
    type,
    title: str(data.title) ?? firstHeading(split.body) ?? str(data.description) ?? titleOfFile(file, rawId),
    status: str(data.status),
    scope,
    domain: str(data.domain),
    summary: str(data.summary) ?? str(data.description),
    keywords: strList(data.keywords),
    links,
    relations,
    requires: strList(data.requires),
    paths: strList(data.paths),
    anchors: strList(data.anchors),
    owner: str(data.owner),
    created: str(data.created),
    source: str(data.source),
    stamp,
    file,
    origin,
    blob: blob ?? gitBlobHash(bytes),
    data,
    body: split.body,
    keyLines,
    bodyLine: split.bodyLine,
  };
  const tc = titleCodeNames(artifact.title);
  if (origin === 'repo') setExtra(artifact, { mc: mentionCandidates(split.body, file, split.bodyLine), ...(tc ? { tc } : {}) });
  return { artifact, problems };
}
