// @spec SPEC-RETRIEVE-001

import { paint, type Paint } from '../util/color.js';
import { sourceMark } from '../artifacts/sources/federated-file.js';
import { SEMANTIC_NOT_NEEDED, type LaneName, type NamedNote, type RetrievalResult, type RetrievedRecord } from './types.js';
import type { UngovernableReason } from '../code/ungovernable.js';

export type RetrievalFormat = 'human' | 'json' | 'context';

const BAND_LABEL: Record<RetrievedRecord['slot'], string> = {
  declared: 'declared',
  fused: 'related',
  links: 'linked',
};

/** Stable JSON (documented in docs/retrieval.md): query, ranked results, slot reports. */
export function renderRetrievalJson(r: RetrievalResult): string {
  return JSON.stringify({ version: 1, ...r }, null, 2) + '\n';
}

/** How a renderer shows matches under the relevance floor: `showWeak` lists them (`--all`). */
export interface RenderOptions {
  showWeak?: boolean;
  /** the repository has no record git-ctx reads: "nothing found" says why and what sets records up */
  noRecords?: boolean;
  /** with noRecords: the records folders read, found without a config file, that hold no record (`missing`: named by `from` and not in the tree) */
  emptyFolders?: { dir: string; from: string; missing?: boolean }[];
  /**
   * who reads the context text: an agent over MCP loads a record with the read_artifact tool
   * (it may have no shell for `git ctx show`); the file-read hook's agent and a person have one
   */
  reader?: 'mcp';
}

/** Where the context text sends its reader for a record's full text. */
export function fullTextPointer(reader: RenderOptions['reader']): string {
  return reader === 'mcp' ? 'read_artifact with the id' : '`git ctx show <id>`';
}

/**
 * A reason as an agent reads it: the semantic lane's score and embedder name
 * ("similar in meaning (0.58, default:glove-6b-100d-sif-1)") are bookkeeping, noise to a model.
 */
function agentWhy(w: RetrievedRecord['why'][number]): string {
  return w.kind === 'semantic' ? 'similar in meaning' : w.text;
}

/** What a file no record can govern is, for the honest answer (the classes of src/code/ungovernable.ts). */
const UNGOVERNABLE_KIND: Record<UngovernableReason, string> = {
  lockfile: 'a dependency lockfile, which a tool writes',
  generated: 'generated code, which a tool writes',
  vendored: "vendored code, someone else's",
  binary: 'a binary file',
  snapshot: 'a test snapshot, which the tests write',
  // never for a place (DEC-101: a record may decide a workflow); kept for the type's sake
  ci: 'CI settings no record names',
  configured: 'listed in ungovernable.paths',
};

/**
 * Why a repository whose records folders hold nothing answers nothing: a folder named and not in
 * the tree (records moved to another repository, a typo) is said to be absent, no "yet"
 * promised; one that is there and empty has no records yet. @decision DEC-137
 */
function emptyFoldersSaid(folders: NonNullable<RenderOptions['emptyFolders']>): string {
  const list = (fs: typeof folders): string => fs.map((f) => `${f.dir}/`).join(', ');
  const gone = folders.filter((f) => f.missing);
  const empty = folders.filter((f) => !f.missing);
  const said: string[] = [];
  if (gone.length) said.push(`${list(gone)} (named by ${[...new Set(gone.map((f) => f.from))].join(', ')}) ${gone.length === 1 ? 'is' : 'are'} not in the repository, so no decision records were read from ${gone.length === 1 ? 'it' : 'them'}`);
  if (empty.length) said.push(`${list(empty)} ${empty.length === 1 ? 'holds' : 'hold'} no decision records yet`);
  return `${said.join('; ')}; ${gone.length ? 'correct the folder named, or ' : ''}\`git ctx new decision\` writes the first${gone.length ? ' record there' : ''}`;
}

/**
 * The honest answer when nothing reaches the relevance floor (src/retrieve/floor.ts): nothing
 * here governs the place or answers the question, and how many weak matches were set aside
 * ("nothing found" when no record matched at all).
 */
export function nothingGoverns(r: RetrievalResult, opts: RenderOptions = {}): string {
  // a file no record can govern says which kind it is (DEC-101): "a dependency lockfile"
  const what = r.query.kind === 'place' ? `nothing here governs this${r.ungovernable ? `: ${UNGOVERNABLE_KIND[r.ungovernable.reason]}` : ''}` : 'no record here answers this';
  const n = r.weak?.length ?? 0;
  if (!n && opts.noRecords && opts.emptyFolders?.length) return `nothing found: ${emptyFoldersSaid(opts.emptyFolders)}`;
  if (!n && opts.noRecords) return 'nothing found: no decision records are read here (no .contextia/ and no decision-record folder such as docs/adr/); `git ctx init` sets them up';
  // records out of force (or outside the filters) matched: say so, not "nothing found"
  const hidden = r.slots.metadata?.count ?? 0;
  if (!n && hidden) return `${what} (${hidden} matching record${hidden === 1 ? '' : 's'} hidden by filters${r.slots.metadata?.message?.includes('--all') ? ': inactive records need --all' : ''})`;
  if (!n) return 'nothing found';
  // a file no record can govern sets its matches aside whatever their relevance
  return `${what} (${n} weak match${n === 1 ? '' : 'es'}${r.ungovernable ? '' : ' under the relevance floor'}${opts.showWeak ? '' : ': --all shows them'})`;
}

/** Every note of the names a search read as files, in the order of its words. */
function namedOf(r: RetrievalResult): NamedNote[] {
  return r.named ? [r.named, ...(r.alsoNamed ?? [])] : [];
}

/** Which file a bare name was taken as, or the files an ambiguous one names (RetrievalResult.named). */
export function namedLine(n: NamedNote): string {
  if (n.count === 1) return `${n.word}: taken as ${n.files[0]}, the one file of that name`;
  const more = n.count > n.files.length ? `, and ${n.count - n.files.length} more` : '';
  return `${n.word} names ${n.count} files (${n.files.join(', ')}${more}): searched as words; \`git ctx for <path>\` asks about one`;
}

/** For people: bands in order, each result with its evidence; weaker evidence is labelled as such. */
export function renderRetrievalHuman(r: RetrievalResult, p: Paint = paint(false), opts: RenderOptions = {}): string {
  const lines: string[] = [p.bold(r.query.kind === 'place' ? r.query.place : `search: ${r.query.text}`)];
  for (const n of namedOf(r)) lines.push(p.dim(`  ${namedLine(n)}`));
  if (!r.results.length) lines.push(p.dim(`  ${nothingGoverns(r, opts)}`));
  const weak = opts.showWeak ? (r.weak ?? []).map((x) => ({ ...x, slot: 'weak' as const })) : [];
  let band: string | undefined;
  for (const x of [...r.results, ...weak]) {
    if (x.slot !== band) {
      band = x.slot;
      lines.push(
        x.slot === 'declared'
          ? p.dim('  declared (anchors, annotations, paths; nearest first)')
          : x.slot === 'fused'
            ? p.dim('  related (weaker: keywords, mentions, nearness — not declared)')
            : x.slot === 'weak'
              ? p.dim('  weak (under the relevance floor: probably not about this)')
              : p.dim('  linked (relations of the records above)'),
      );
    }
    const from = sourceMark(x.file);
    lines.push(`  ${p.bold(x.id)}  ${x.type}${x.status ? ` ${x.status}` : ''}${x.inactive ? ` ${p.yellow('(inactive)')}` : ''}  ${x.title}${x.slot === 'weak' && x.relevance !== undefined ? p.dim(`  (relevance ${x.relevance.toFixed(2)})`) : ''}${from ? p.dim(`  [from ${from}]`) : ''}`);
    for (const w of x.why.slice(0, 4)) lines.push(`      ${p.dim(`${w.contribution !== undefined ? `+${w.contribution.toFixed(2)} ` : ''}${w.text}`)}`);
    if (x.why.length > 4) lines.push(`      ${p.dim(`… ${x.why.length - 4} more`)}`);
    if (x.stale) lines.push(`      ${p.red(x.stale)}`);
    if (x.summary) lines.push(`      ${x.summary}`);
    if (x.body) lines.push('', ...x.body.trim().split('\n').map((l) => `      ${l}`), '');
  }
  // a lane that failed or was cut short, and what an ok lane has to say (records hidden by
  // filters); the place's semantic fallback that was not needed says nothing to a reader (JSON keeps it)
  const notes = (Object.entries(r.slots) as [LaneName, RetrievalResult['slots'][LaneName]][]).filter(([n, s]) => s.status === 'failed' || s.status === 'timeout' || s.status === 'partial' || (s.message && s.status === 'ok' && !(n === 'semantic' && s.message === SEMANTIC_NOT_NEEDED)));
  for (const [n, s] of notes) lines.push(p.dim(`  ${n}: ${s.status}${s.message ? ` (${s.message})` : ''}`));
  return lines.join('\n') + '\n';
}

/**
 * An agent reads a record's summary as guidance; a rejected record's summary is the proposal
 * that was turned down (DEC-076), so its tag says so in words rather than "inactive".
 */
function inactiveNote(x: RetrievedRecord): string {
  return x.status === 'rejected' ? ': a proposal turned down, not a rule to follow; the record says why' : ', inactive';
}

/**
 * For agents: compact markdown, summaries first with ids to fetch in full; no fingerprints,
 * stamps or scores (noise to a model), evidence in one line.
 */
export function renderRetrievalContext(r: RetrievalResult, opts: { shownEarlier?: ReadonlySet<string> } & RenderOptions = {}): string {
  // "governing" is a claim only a declared record makes: an agent reading related records
  // under that heading takes a keyword match for a rule of this file
  const declared = r.results.some((x) => x.slot === 'declared');
  const head = r.query.kind === 'place' ? (declared || !r.results.length ? `Records governing ${r.query.place}` : `Records related to ${r.query.place} (none declared)`) : `Records for "${r.query.text}"`;
  const named = r.named ? ` (${namedOf(r).map(namedLine).join('; ')})` : '';
  if (!r.results.length) {
    // said plainly, so an agent does not go on as if a record had been found
    const weak = opts.showWeak && r.weak?.length ? `\nWeak matches (probably not about this): ${r.weak.map((x) => `${x.id} — ${x.title}`).join('; ')}.` : '';
    return `${head}: none${named}. Nothing in this repository's records governs this${r.weak?.length ? '; the closest matches are under the relevance floor' : ''}.${weak}\n`;
  }
  const out: string[] = [`# ${head}`, '', ...namedOf(r).map((n) => `${namedLine(n)}.`), ...(r.named ? [''] : [])];
  for (const x of r.results) {
    const from = sourceMark(x.file);
    const tag = `${x.type}${x.status ? `, ${x.status}` : ''}${x.inactive ? inactiveNote(x) : ''}${from ? `, from ${from}` : ''}`;
    if (opts.shownEarlier?.has(x.id)) {
      out.push(`- ${x.id} (${tag}) — ${x.title}: shown earlier in this session.`);
      continue;
    }
    out.push(`## ${x.id} — ${x.title} (${tag}; ${BAND_LABEL[x.slot]})`);
    out.push(`Why: ${x.why.slice(0, 2).map(agentWhy).join('; ')}`);
    if (x.stale) out.push(`Warning: ${x.stale}`);
    if (x.summary) out.push(x.summary);
    if (x.body) out.push('', x.body.trim());
    out.push('');
  }
  out.push(`Full text: ${fullTextPointer(opts.reader)} (file paths: ${r.results.map((x) => x.file).filter(Boolean).slice(0, 3).join(', ')}${r.results.length > 3 ? ', …' : ''}).`);
  return out.join('\n') + '\n';
}

export function renderRetrieval(format: RetrievalFormat, r: RetrievalResult, p?: Paint, opts: RenderOptions = {}): string {
  return format === 'json' ? renderRetrievalJson(r) : format === 'context' ? renderRetrievalContext(r, opts) : renderRetrievalHuman(r, p, opts);
}
