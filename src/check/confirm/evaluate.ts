// @spec SPEC-CONFIRM-001

import type { ArtifactSet } from '../../artifacts/load.js';
import type { Config } from '../../config.js';
import { isInactive } from '../../artifacts/in-force.js';
import { MAX_FILE_BYTES } from '../../code/extract.js';
import type { Snapshot } from '../../snapshot/types.js';
import { gitBlobHash, sha256 } from '../../util/hash.js';
import { compilePaths, entryBase } from '../../util/path-set.js';
import { normalizeRepoPath } from '../../util/paths.js';
import { mark } from '../../util/timing.js';
import { FactsCache } from './facts-cache.js';
import { nameMatches } from './glob.js';
import { readConfirmations } from './read.js';
import { BoundedRegex, REGEX_BOUND_MS, type RegexAnswer } from './regex.js';
import { extractStructure, structureLanguage, type StructureFacts } from './structure.js';
import type { BoundedRun, ConfirmProblem, ConfirmResult, Confirmation, Violation } from './types.js';

/** Which files to examine, and in each which lines count (undefined: every line). */
export type ConfirmScope = Map<string, Set<number> | undefined>;

export interface ConfirmOptions {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /**
   * only these files, and in them only violations on these lines (the hook: what a commit
   * adds); a function is asked only when some record carries confirmations
   */
  scope?: ConfirmScope | (() => Promise<ConfirmScope>);
  /** time bound of one file under regular expressions */
  boundMs?: number;
  /** facts cache file; false: none; undefined: the repository's */
  cache?: string | false;
}

const READ_CHUNK = 256;

/** NUL in the first 8000 bytes: git's own binary heuristic (as the code index). */
const isBinary = (buf: Buffer) => buf.subarray(0, 8000).includes(0);


/**
 * Every confirmation of the set's active repository records (global records carry none:
 * they name no code of this repository), and the entries that could not be read.
 */
export async function collectConfirmations(snapshot: Snapshot, config: Config, set: ArtifactSet): Promise<{ confirmations: Confirmation[]; problems: ConfirmProblem[] }> {
  const confirmations: Confirmation[] = [];
  const problems: ConfirmProblem[] = [];
  for (const a of set.artifacts) {
    if (a.origin !== 'repo' || isInactive(a, config)) continue;
    const front = a.data.confirm !== undefined;
    if (!front && !a.body.includes('git-ctx')) continue;
    const text = front ? (await snapshot.read(a.file))?.toString('utf8') : undefined;
    const r = readConfirmations(a, text);
    confirmations.push(...r.confirmations);
    problems.push(...r.problems);
  }
  return { confirmations, problems };
}

/** The default message of a violation. */
export function describe(v: Violation): string {
  const c = v.confirmation;
  const what =
    c.kind === 'forbid-call' ? `call of ${v.found}` : c.kind === 'forbid-import' ? `import of "${v.found}"` : c.kind === 'forbid-export-default' ? 'default export' : c.kind === 'forbid' ? `text matching /${c.pattern}/` : c.kind === 'require' ? `no text matching /${c.pattern}/` : `no import of "${c.pattern}"`;
  const verb = c.kind === 'require' || c.kind === 'require-import' ? 'required by' : 'forbidden by';
  return `${what}: ${verb} ${c.id}${c.message ? ` — ${c.message}` : ''}`;
}

/**
 * Evaluate confirmations over a snapshot (every file their `in:` covers, or the scope's
 * files). Reads only; runs nothing from the repository. Returns data, never throws for a
 * file's content: unreadable, huge and binary files are skipped and listed.
 */
export async function runConfirmations(opts: ConfirmOptions & { confirmations?: Confirmation[]; problems?: ConfirmProblem[] }): Promise<ConfirmResult> {
  const { snapshot, config, set } = opts;
  const collected = opts.confirmations ? { confirmations: opts.confirmations, problems: opts.problems ?? [] } : await collectConfirmations(snapshot, config, set);
  const result: ConfirmResult = { violations: [], bounded: [], problems: collected.problems, skipped: [], files: 0 };
  const confs = collected.confirmations;
  if (!confs.length) return result;
  mark(`confirmations: ${confs.length} read`);
  const scope = typeof opts.scope === 'function' ? await opts.scope() : opts.scope;

  // records are not code: a decision that forbids a word mentions it
  const recordFiles = new Set(set.artifacts.map((a) => a.file));
  const dirPrefix = `${config.dir}/`;
  // confirmations with the same `in:` share one path test per file
  type Group = { covers: (f: string) => boolean; confs: Confirmation[]; bases: string[] };
  const groups = new Map<string, Group>();
  for (const c of confs) {
    const key = c.in.join('\0');
    let g = groups.get(key);
    if (!g) {
      const ps = compilePaths(c.in);
      // the literal folders the inclusions start from: most files fail this prefix test,
      // and only the rest pay for the glob
      const bases = ps.includes.map((e) => entryBase(e));
      const under = (f: string) => bases.some((b) => !b || b === '.' || f === b || f.startsWith(`${b}/`));
      // `dir/**` and plain folders are the prefix test itself: no glob to compile
      const prefixOnly = !ps.excludes.length && ps.includes.every((e, k) => normalizeRepoPath(e).replace(/\/\*\*$/, '') === bases[k]);
      g = { covers: c.in.length ? (prefixOnly ? under : (f) => under(f) && ps.covers(f)) : () => true, confs: [], bases: c.in.length ? bases : [''] };
      groups.set(key, g);
    }
    g.confs.push(c);
  }
  const entries = scope
    ? [...scope.keys()].sort().map((path) => ({ path, blob: undefined as string | undefined, mode: '100644' }))
    : await snapshot.list();
  mark(`confirmations: ${entries.length} files listed`);
  // groups by the folders they start from: a file is tested only against the groups of its
  // ancestor folders (and those starting from the root), not against every confirmation
  const always: Group[] = [];
  const byBase = new Map<string, Group[]>();
  for (const g of groups.values()) {
    if (g.bases.some((b) => !b || b === '.')) always.push(g);
    else for (const b of new Set(g.bases)) byBase.set(b, [...(byBase.get(b) ?? []), g]);
  }
  const work: { path: string; blob?: string; confs: Confirmation[] }[] = [];
  for (const e of entries) {
    if (e.mode === '120000' || e.mode === '160000') continue;
    if (recordFiles.has(e.path) || e.path.startsWith(dirPrefix)) continue;
    // most files of a large repository start from no confirmation's folder: no set for them
    let candidates: Set<Group> | undefined = always.length ? new Set(always) : undefined;
    for (let at = e.path.indexOf('/'); ; at = e.path.indexOf('/', at + 1)) {
      const gs = byBase.get(at < 0 ? e.path : e.path.slice(0, at));
      if (gs) for (const g of gs) (candidates ??= new Set()).add(g);
      if (at < 0) break;
    }
    if (!candidates) continue;
    const mine: Confirmation[] = [];
    for (const g of candidates) if (g.covers(e.path)) mine.push(...g.confs);
    if (mine.length) work.push({ path: e.path, blob: e.blob, confs: mine });
  }
  mark(`confirmations: ${work.length} files covered`);
  if (!work.length) return result;

  const maxBytes = config.limits?.max_file_bytes ?? MAX_FILE_BYTES;
  const cache = FactsCache.open(snapshot.root, opts.cache);
  const regex = new BoundedRegex(opts.boundMs ?? REGEX_BOUND_MS);
  try {
    // a file only structural kinds examine, whose facts are cached by its blob, is not read
    // (nor is one whose regular expressions' answer is cached under its blob and the patterns)
    const toRead: typeof work = [];
    for (const w of work) {
      const textual = w.confs.filter((c) => c.kind === 'forbid' || c.kind === 'require');
      const lang = structureLanguage(w.path);
      const structural = lang && textual.length < w.confs.length;
      if (!structural && !textual.length) continue; // no kind reads this file
      const facts = structural && w.blob ? cache.get(`${w.blob}:${lang}`) : undefined;
      const answer = textual.length && w.blob ? cache.answer(answerKey(w.blob, textual)) : undefined;
      if ((structural && !facts) || (textual.length && !answer)) {
        toRead.push(w);
        continue;
      }
      result.files++;
      const lines = scope?.get(w.path);
      const found = [...(facts ? structuralViolations(w.path, facts, w.confs) : []), ...(answer ? answerViolations(w.path, textual, answer) : [])];
      for (const v of found) if (!lines || lines.has(v.line)) result.violations.push(v);
    }
    mark(`confirmations: ${work.length - toRead.length} files from cached facts, ${toRead.length} to read`);
    for (let i = 0; i < toRead.length; i += READ_CHUNK) {
      const chunk = toRead.slice(i, i + READ_CHUNK);
      const bufs = await snapshot.readMany(chunk.map((w) => w.path));
      // the chunk's regular expressions go to the worker in one message
      const pending: { path: string; text: string; confs: Confirmation[]; lines: Set<number> | undefined; key: string }[] = [];
      for (const [j, w] of chunk.entries()) {
        const buf = bufs[j];
        if (!buf) continue; // deleted in this snapshot (a scope names it) or unreadable
        if (buf.length > maxBytes) {
          result.skipped.push({ file: w.path, reason: `larger than limits.max_file_bytes (${maxBytes} bytes)` });
          continue;
        }
        if (isBinary(buf)) {
          result.skipped.push({ file: w.path, reason: 'binary' });
          continue;
        }
        result.files++;
        const lines = scope?.get(w.path);
        const text = buf.toString('utf8');
        const found = await structuralOfFile(w.path, w.blob, buf, text, w.confs, cache, result);
        for (const v of found) if (!lines || lines.has(v.line)) result.violations.push(v);
        const textual = w.confs.filter((c) => c.kind === 'forbid' || c.kind === 'require');
        if (textual.length) pending.push({ path: w.path, text, confs: textual, lines, key: answerKey(w.blob ?? gitBlobHash(buf), textual) });
      }
      const answers = await regex.runAll(pending.map((p) => ({ text: p.text, forbid: p.confs.filter((c) => c.kind === 'forbid').map((c) => c.pattern), require: p.confs.filter((c) => c.kind === 'require').map((c) => c.pattern) })));
      for (const [k, p] of pending.entries()) {
        const a = answers[k];
        // an answer within the bound is a pure function of the bytes and the patterns
        if (a) cache.setAnswer(p.key, a);
        const found = await textualViolations(p.path, p.text, p.confs, a, regex, result.bounded);
        for (const v of found) if (!p.lines || p.lines.has(v.line)) result.violations.push(v);
      }
    }
  } finally {
    regex.close();
    cache.save();
  }
  result.violations.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.confirmation.id.localeCompare(b.confirmation.id));
  return result;
}

async function structuralOfFile(path: string, blob: string | undefined, buf: Buffer, text: string, confs: Confirmation[], cache: FactsCache, result: ConfirmResult): Promise<Violation[]> {
  const out: Violation[] = [];
  const structural = confs.filter((c) => c.kind !== 'forbid' && c.kind !== 'require');
  const lang = structural.length ? structureLanguage(path) : undefined;
  if (lang) {
    const key = `${blob ?? gitBlobHash(buf)}:${lang}`;
    let facts = cache.get(key);
    if (!facts) {
      try {
        facts = await extractStructure(lang, path, text);
      } catch (e) {
        result.skipped.push({ file: path, reason: `could not be parsed: ${(e as Error).message}` });
      }
      if (facts) cache.set(key, facts);
    }
    if (facts) out.push(...structuralViolations(path, facts, structural));
  }
  return out;
}

function structuralViolations(file: string, facts: StructureFacts, confs: Confirmation[]): Violation[] {
  const out: Violation[] = [];
  for (const c of confs) {
    switch (c.kind) {
      case 'forbid-call':
        for (const [name, line, column, via] of facts.calls) {
          // a call through an alias is the call of what the alias stands for
          if (nameMatches(c.pattern, name)) out.push({ file, line, column, confirmation: c, found: `${name}(…)` });
          else if (via !== undefined && nameMatches(c.pattern, via)) out.push({ file, line, column, confirmation: c, found: `${via}(…) through ${name}(…)` });
        }
        break;
      case 'forbid-import':
        for (const [spec, line, column] of facts.imports) if (nameMatches(c.pattern, spec)) out.push({ file, line, column, confirmation: c, found: spec });
        break;
      case 'forbid-export-default':
        for (const [what, line, column] of facts.exportDefault) out.push({ file, line, column, confirmation: c, found: what });
        break;
      case 'require-import':
        if (!facts.imports.some(([spec]) => nameMatches(c.pattern, spec))) out.push({ file, line: 1, column: 1, confirmation: c, found: c.pattern });
        break;
      default:
        break;
    }
  }
  return out;
}

/** digests of pattern lists: the files of one folder share theirs */
const patternDigests = new Map<string, string>();

/** The cache key of a file's answer under some patterns: its blob and the patterns, in order. */
function answerKey(blob: string, confs: Confirmation[]): string {
  const text = JSON.stringify(confs.map((c) => [c.kind, c.pattern]));
  let digest = patternDigests.get(text);
  if (digest === undefined) {
    if (patternDigests.size > 1_000) patternDigests.clear();
    patternDigests.set(text, (digest = sha256(text)));
  }
  return `${blob}:re:${digest}`;
}

/** The violations an answer (of `confs`' patterns, forbid first then require, in order) means. */
function answerViolations(file: string, confs: Confirmation[], a: RegexAnswer): Violation[] {
  const out: Violation[] = [];
  const forbid = confs.filter((c) => c.kind === 'forbid');
  const require = confs.filter((c) => c.kind === 'require');
  a.forbid.forEach((hits, k) => {
    for (const [line, column] of hits) out.push({ file, line, column, confirmation: forbid[k]!, found: forbid[k]!.pattern });
  });
  a.require.forEach((ok, k) => {
    if (!ok) out.push({ file, line: 1, column: 1, confirmation: require[k]!, found: require[k]!.pattern });
  });
  return out;
}

/** The violations of one file's regular expressions, from the batch's answer (undefined: it passed the bound). */
async function textualViolations(file: string, text: string, confs: Confirmation[], first: RegexAnswer | undefined, regex: BoundedRegex, bounded: BoundedRun[]): Promise<Violation[]> {
  const forbid = confs.filter((c) => c.kind === 'forbid');
  const require = confs.filter((c) => c.kind === 'require');
  let answer = first;
  const out: Violation[] = [];
  const collect = (a: RegexAnswer, f: Confirmation[], r: Confirmation[]) => {
    a.forbid.forEach((hits, k) => {
      for (const [line, column] of hits) out.push({ file, line, column, confirmation: f[k]!, found: f[k]!.pattern });
    });
    a.require.forEach((ok, k) => {
      if (!ok) out.push({ file, line: 1, column: 1, confirmation: r[k]!, found: r[k]!.pattern });
    });
  };
  if (answer) {
    collect(answer, forbid, require);
    return out;
  }
  // one of them passed the bound: run each alone to name the one (the others still count)
  for (const c of confs) {
    const t0 = Date.now();
    answer = await regex.run({ text, forbid: c.kind === 'forbid' ? [c.pattern] : [], require: c.kind === 'require' ? [c.pattern] : [] });
    if (answer) collect(answer, c.kind === 'forbid' ? [c] : [], c.kind === 'require' ? [c] : []);
    else bounded.push({ file, confirmation: c, ms: Date.now() - t0 });
  }
  return out;
}
