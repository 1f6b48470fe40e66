import { mentionedIn } from '../artifacts/sources/mentions.js';
import { bodyAt } from '../artifacts/depth.js';
import { metaText } from '../artifacts/meta-text.js';
import { buildGraph, computedOnly, reverseEdges } from '../artifacts/graph.js';
import type { ArtifactSet } from '../artifacts/load.js';
import { requireArtifact } from '../artifacts/lookup.js';
import type { Artifact, Depth } from '../artifacts/types.js';
import { assembleBundle, renderBundle, type BundleFormat, type TokenCounter } from '../assemble/index.js';
import { renderCheck } from '../check/render.js';
import { runCheck } from '../check/run.js';
import { buildCodeIndex } from '../code/code-index.js';
import { parseTraceTarget, traceLocation, type TraceResult } from '../retrieve/trace.js';
import { AGENT_TERMS } from '../retrieve/floor.js';
import { successorOf, successorText, type Successor } from '../staleness/lifecycle.js';
import { isCtxError } from '../errors.js';
import { renderRetrievalContext } from '../retrieve/render.js';
import type { RetrievalResult } from '../retrieve/types.js';
import { judgeArtifacts } from '../staleness/judge.js';
import { renderStale } from '../staleness/render.js';
import type { ImpactHit, ImpactStep } from '../impact/types.js';
import type { Snapshot } from '../snapshot/types.js';
import { DEFAULT_BUDGET } from './get-context.js';
import type { RepoReader, RepoState } from './repo.js';
import { failure, shortCommit, type ToolOutput } from './result.js';
import { TokenMeter } from './tokens.js';
import { finishRetrieval } from '../retrieve/episode.js';
import { startEpisode } from '../store/record.js';

/** What the tool handlers share: the repository reader and long-lived token meters. */
export interface ToolContext {
  reader: RepoReader;
  /** one meter per encoding, kept for the server's life */
  meter(encoding: string): TokenMeter;
  /** where unexpected errors are logged (stderr) */
  log(message: string): void;
  /** this server's session, for episodes of calls that name none */
  session?: string;
  /** the JSON-RPC id of the tool call being answered (an episode's tool_call reference) */
  call?: string;
}

/** The context of one tool call: the server's, with the call's JSON-RPC request id. */
export function forCall(ctx: ToolContext, extra: { requestId?: string | number }): ToolContext {
  return extra.requestId === undefined ? ctx : { ...ctx, call: String(extra.requestId) };
}

/**
 * Run a handler and turn known failures into isError results. Unknown errors become
 * isError results too (a tool call must never take the server down), with the stack
 * logged to stderr so that they are not swallowed.
 */
export async function guard(ctx: ToolContext, name: string, fn: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await fn();
  } catch (e) {
    if (isCtxError(e)) {
      // an agent has no shell to run "git ctx list" in: the index of ids is a tool call away
      const hint = e.code === 'UNKNOWN_ID' && e.hint?.includes('git ctx list') ? 'call get_context without ids for the index of ids' : e.hint;
      return failure(`${e.located}${hint ? `\nhint: ${hint}` : ''}`, { code: e.code });
    }
    const err = e as Error;
    ctx.log(`git-ctx mcp: ${name} failed unexpectedly: ${err?.stack ?? String(e)}`);
    return failure(`${name} failed unexpectedly: ${err?.message ?? String(e)}. This is a bug in git-ctx; the server log (stderr) has the stack.`, { code: 'INTERNAL' });
  }
}

/** A loaded set bound to a live snapshot, for analyses that read more than artifacts. */
async function withLiveSet<T>(ctx: ToolContext, state: RepoState, fn: (set: ArtifactSet, snapshot: Snapshot) => Promise<T>): Promise<T> {
  const snapshot = await ctx.reader.openSnapshot();
  try {
    return await fn({ ...state.set, snapshot }, snapshot);
  } finally {
    snapshot.close();
  }
}

/** The artifact as markdown at a depth, with its computed reverse edges. */
export function renderArtifact(a: Artifact, depth: Depth, reverse: Record<string, string[]>): string {
  const lines = [`# ${a.id} [${[a.type, a.status, a.scope].filter(Boolean).join(' · ')}] ${a.title}`, `file: ${a.file} · depth: ${depth}`];
  for (const [k, v] of Object.entries(computedOnly(a, reverse))) lines.push(`${k} (computed): ${v.join(', ')}`);
  // stamps and fingerprints are bookkeeping for git-ctx, noise to the agent reading this
  // a record read in place (an ADR file) has no such block: fenced as frontmatter, an agent
  // editing the file wrote it back (agents33) @decision DEC-143
  if (a.format === 'adr') lines.push(`metadata as git-ctx reads it from ${a.file} (not a block of the file; keep the file's own format when editing it):`, ...metaText(a).split('\n').map((l) => `  ${l}`), '');
  else lines.push('---', metaText(a), '---');
  const body = bodyAt(a, depth);
  if (body) lines.push(body);
  return lines.join('\n') + '\n';
}

/** read_artifact: one artifact at meta, summary or full depth. */
export async function readArtifactTool(ctx: ToolContext, args: { id: string; depth?: Depth }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const a = requireArtifact(state.set, args.id);
  const depth = args.depth ?? 'full';
  const reverse = reverseEdges(buildGraph(state.set), a.id);
  return {
    text: renderArtifact(a, depth, reverse),
    data: { id: a.id, type: a.type, title: a.title, status: a.status ?? null, scope: a.scope, file: a.file, blob: a.blob, depth, reverse, commit: state.head ?? null },
  };
}

/** check: the coherence check of the working tree, as the CLI renders it. */
export async function checkTool(ctx: ToolContext, args: { rules?: string[] }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const snapshot = await ctx.reader.openSnapshot();
  try {
    let r: Awaited<ReturnType<typeof runCheck>>;
    try {
      r = await runCheck({ snapshot, config: state.config, rules: args.rules?.length ? args.rules : undefined, global: state.global });
    } catch (e) {
      // an unknown rule id: say so (and what was meant) instead of a clean result
      if (isCtxError(e) && e.code === 'USAGE') return failure(`${e.message}${e.hint ? `; ${e.hint}` : ''}`);
      throw e;
    }
    const count = (s: string) => r.findings.filter((f) => f.severity === s).length;
    return {
      text: renderCheck(r, 'human'),
      data: {
        artifacts: r.artifacts,
        errors: count('error'),
        warnings: count('warning'),
        info: count('info'),
        findings: r.findings.map(({ rule, severity, file, line, id, message }) => ({ rule, severity, file, line, id, message })),
        ruleErrors: r.ruleErrors,
      },
    };
  } finally {
    snapshot.close();
  }
}

function counterFor(ctx: ToolContext, encoding: string): TokenCounter {
  const meter = ctx.meter(encoding);
  return { encoding, count: (texts) => meter.count(texts) };
}

/** assemble_task: the deterministic bundle of a task (or any artifact), rendered. */
export async function assembleTaskTool(ctx: ToolContext, args: { id: string; depth?: Depth; budget?: number; format?: BundleFormat; max_depth?: number }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const encoding = state.config.assemble.encoding;
  const bundle = await withLiveSet(ctx, state, (set) =>
    assembleBundle({
      id: args.id,
      set,
      global: state.global,
      depth: args.depth,
      budget: args.budget ?? state.config.assemble.budget ?? DEFAULT_BUDGET,
      maxDepth: args.max_depth,
      tokenCounter: counterFor(ctx, encoding),
      staleness: async (arts, live) => (await import('../staleness/marks.js')).staleMarks(arts, live),
    }),
  );
  const format = args.format ?? 'context';
  const t = bundle.totals;
  return {
    text: renderBundle(bundle, format),
    data: {
      id: bundle.header.root,
      commit: bundle.header.commit,
      dirty: bundle.header.dirty,
      digest: bundle.header.digest,
      format,
      entries: bundle.entries.map((e) => ({ id: e.id, type: e.type, depth: e.depth, why: e.why, tokens: e.tokens })),
      adjustments: bundle.adjustments.map((a) => ({ id: a.id, action: a.action, from: a.from, to: a.to ?? null, reason: a.reason })),
      warnings: bundle.warnings,
      totals: t,
    },
  };
}

function renderTrace(r: TraceResult, commit: string | undefined, successors: Map<string, Successor> = new Map()): string {
  const t = r.target;
  const where = `${t.path || '.'}${t.symbol ? `#${t.symbol}` : t.line !== undefined ? `:${t.line}` : ''}`;
  const lines = [`# What governs ${where}${t.symbolRange ? ` (lines ${t.symbolRange.start}-${t.symbolRange.end})` : ''} — commit ${shortCommit(commit)}`];
  if (r.package !== undefined) lines.push(`package: ${r.package || '.'}`);
  if (r.skipped) lines.push(`Not parsed: ${r.skipped}; annotations inside it are not read.`);
  // most ADR folders declare nothing (no paths, no annotations): trace says "nothing" for every
  // file there, and an agent took that for "no decision concerns this code"
  if (!r.entries.length) lines.push('Nothing governs this place: no annotation, anchor or paths glob matches it. Records that concern it without declaring it (by its words, or naming the file) are not traced: context_for_code finds those.');
  else lines.push('Nearest first. Load any of them with get_context ids=[…] or read_artifact.');
  for (const e of r.entries) {
    const head = e.known ? `${e.id} [${[e.type, e.status].filter(Boolean).join(' · ')}] ${e.title ?? ''}` : `${e.id} (unknown id: no artifact declares it)`;
    lines.push(`- ${e.match.level}: ${head}`, `  via ${e.match.how}`);
    for (const m of e.also) lines.push(`  also ${m.level}: ${m.how}`);
    const s = successors.get(e.id);
    if (s) lines.push(`  ${successorText(s)}: follow ${s.id} instead`);
  }
  return lines.join('\n') + '\n';
}

/**
 * trace: what governs a path, path:line or path#Symbol, nearest first. The place is `place`,
 * as context_for_code names it; `target`, trace's former name for it, is still read, and the
 * answer says so, so an agent's saved calls keep working while it learns the name (DEC-093).
 */
export async function traceTool(ctx: ToolContext, args: { place?: string; target?: string }): Promise<ToolOutput> {
  if (args.place !== undefined && args.target !== undefined && args.place !== args.target) return failure(`two places: place ${JSON.stringify(args.place)} and target ${JSON.stringify(args.target)}; give place only`, { code: 'USAGE' });
  const place = args.place ?? args.target;
  if (place === undefined) return failure('trace needs place: a path, path:line or path#Symbol.name (repository-relative)', { code: 'USAGE' });
  const note = args.place === undefined ? 'note: trace names its argument place now, as context_for_code does; target is accepted for now.\n' : '';
  const out = await traceAt(ctx, place);
  return note ? { ...out, text: note + out.text, data: { ...out.data, note: note.trim() } } : out;
}

async function traceAt(ctx: ToolContext, place: string): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const result = await withLiveSet(ctx, state, async (set, snapshot) => {
    const index = await buildCodeIndex(snapshot, state.config);
    const target = parseTraceTarget(place, snapshot.root);
    const r = await traceLocation({ snapshot, set, index, target });
    await index.flush();
    const successors = new Map<string, Successor>();
    for (const e of r.entries) {
      const s = successorOf(set, e.id);
      if (s) successors.set(e.id, s);
    }
    // records that only name the place in their text: weaker evidence, listed apart
    const mentioned = mentionedIn(set.byId.values(), target.path).filter((m) => !r.entries.some((e) => e.id === m.id));
    return { r, mentioned, successors };
  });
  const { r, mentioned } = result;
  const more = mentioned.map((m) => `mentioned in ${m.id} (${m.title}) at ${m.file}:${m.line} as ${m.target}`).join('\n');
  return {
    text: renderTrace(r, state.head, result.successors) + (more ? `${more}\n` : ''),
    data: {
      target: r.target,
      package: r.package ?? null,
      entries: r.entries.map((e) => ({ id: e.id, known: e.known, type: e.type ?? null, level: e.match.level, via: e.match.via, how: e.match.how, supersededBy: result.successors.get(e.id)?.id ?? null })),
      mentioned: mentioned.map((m) => ({ id: m.id, file: m.file, line: m.line, target: m.target })),
    },
  };
}

/** stale: which artifacts drifted from the code they anchor (fresh, moved, stale, unanchored, unstamped). */
export async function staleTool(ctx: ToolContext, args: { ids?: string[]; since?: string; all?: boolean }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const ids = args.ids?.length ? args.ids.map((id) => requireArtifact(state.set, id).id) : undefined;
  const report = await withLiveSet(ctx, state, (set, snapshot) => judgeArtifacts({ snapshot, config: state.config, set, ids, since: args.since }));
  if (!args.since) {
    const { appendMarkers, markersOf } = await import('../staleness/markers.js');
    appendMarkers((await ctx.reader.location()).root, markersOf(report, 'mcp'), state.config);
  }
  return {
    text: renderStale(report, 'human', undefined, { all: args.all || !!ids }),
    data: {
      head: report.head ?? null,
      counts: report.counts,
      artifacts: report.artifacts.map((a) => ({ id: a.id, status: a.status, method: a.method, notes: a.notes })),
      warnings: report.warnings,
    },
  };
}

/** impact: what a change to a record or to code touches, each result with its path of edges. */
export async function impactTool(ctx: ToolContext, args: { target: string; reverse?: boolean; depth?: number; limit?: number }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const { analyzeImpact, openImpactBackend } = await import('../impact/index.js');
  const r = await withLiveSet(ctx, state, async (set, snapshot) => {
    const backend = await openImpactBackend(snapshot.root);
    try {
      return await analyzeImpact({ snapshot, set, target: args.target, reverse: args.reverse, depth: args.depth, limit: args.limit ?? 50, store: backend.edges, markers: backend.markers });
    } finally {
      backend.close();
    }
  });
  const step = (s: ImpactStep) => (s.reverse ? `${s.to} ${s.kind} ${s.from}` : `${s.from} ${s.kind} ${s.to}`) + (s.via ? ` (via ${s.via})` : '');
  const item = (h: ImpactHit) => ({
    id: h.node.id,
    kind: h.node.kind,
    distance: h.distance,
    ...(h.node.kind === 'artifact' ? { type: h.type, title: h.title, status: h.status ?? null } : {}),
    path: h.path.map(step),
    ...(h.weak ? { weak: true } : {}),
    ...(h.stale ? { stale: h.stale.verdict, stale_at: h.stale.at } : {}),
  });
  const lines = [`${r.query.id}: ${r.query.direction}, depth ${r.query.depth}; ${r.artifacts.length} records, ${r.code.length} code places${r.truncated ? ` (${r.truncated} more left out)` : ''}`];
  // code that no record declares, nor the code using it: the import chains alone say nothing of
  // decisions; the tool that finds the records concerning it is named first (agents33) @decision DEC-143
  if (!r.artifacts.length && r.query.direction === 'reverse') lines.push('No record declares this code or the code that uses it: context_for_code finds the records that concern it (by its words and mentions). The code places that depend on it follow.');
  for (const h of [...r.artifacts, ...r.code]) {
    const tags = [h.weak ? 'mentioned only' : '', h.stale ? h.stale.verdict : ''].filter(Boolean).join(', ');
    lines.push(`- ${h.node.id}${h.title ? ` (${h.type}${h.status ? ` ${h.status}` : ''}) ${h.title}` : ''}${tags ? ` [${tags}]` : ''}: ${h.path.map(step).join(' → ')}`);
  }
  return { text: lines.join('\n') + '\n', data: { query: r.query, artifacts: r.artifacts.map(item), code: r.code.map(item), truncated: r.truncated } };
}

/** Results as tool data: what an agent needs to choose what to read next (no scores' internals). */
function retrievalData(r: RetrievalResult): Record<string, unknown> {
  return {
    query: r.query,
    results: r.results.map((x) => ({ id: x.id, type: x.type, title: x.title, status: x.status ?? null, file: x.file, slot: x.slot, why: x.why.map((w) => w.text), summary: x.summary ?? null, ...(x.inactive ? { inactive: true } : {}), ...(x.stale ? { stale: x.stale } : {}) })),
    // matches under the relevance floor: not answers (src/retrieve/floor.ts)
    weak: (r.weak ?? []).map((x) => ({ id: x.id, title: x.title, file: x.file, relevance: x.relevance ?? null })),
    slots: Object.fromEntries(Object.entries(r.slots).map(([k, v]) => [k, { status: v.status, count: v.count, cap: v.cap ?? null }])),
  };
}

/** context_for_code: the records governing or concerning a place in the code, summaries first. */
export async function contextForCodeTool(ctx: ToolContext, args: { place: string; all?: boolean; types?: string[]; max?: number; session_id?: string }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const rec = mcpRecorder(ctx, state, 'context_for_code', args.session_id);
  const result = await withLiveSet(ctx, state, async (set, snapshot) => {
    const { retrieveForPlace } = await import('../retrieve/engine.js');
    const target = parseTraceTarget(args.place, snapshot.root);
    const { semanticLaneFor } = await import('../semantic/lane.js');
    return retrieveForPlace({ snapshot, set, semantic: semanticLaneFor(snapshot.root, set), target, place: args.place, filters: { all: args.all, ...(args.types?.length ? { type: args.types } : {}) }, ...(args.max !== undefined ? { caps: { fused: args.max } } : {}) });
  });
  return retrievalOutput(result, !!args.all, await finishRetrieval(rec, result));
}

/**
 * A retrieval answer as the agent reads it, with its episode. When the place is a record's own
 * file (a search naming one file is a place too), the record came first among those sharing its
 * words, "related" to itself: it is named as what the file is, and the others follow.
 */
function retrievalOutput(result: RetrievalResult, all: boolean, episode: string | undefined): ToolOutput {
  const self = result.query.kind === 'place' ? result.results.find((x) => x.file === (result.query as { path: string }).path) : undefined;
  const shown = self ? { ...result, results: result.results.filter((x) => x !== self) } : result;
  const head = self ? `${self.file} is the record ${self.id} "${self.title}" (${self.type}${self.status ? `, ${self.status}` : ''}) itself: read it with read_artifact. Records that share its words:\n\n` : '';
  return { text: head + renderRetrievalContext(shown, { showWeak: all, reader: 'mcp' }) + episodeLine(episode), data: { ...retrievalData(shown), ...(self ? { record: self.id } : {}), ...(episode ? { episode } : {}) } };
}

/**
 * The episode id in the text the agent reads: agents act on the text of an answer, and the
 * feedback tool needs the id (structured content alone is not shown to every model).
 */
export function episodeLine(episode: string | undefined): string {
  return episode ? `\nEpisode: ${episode} (pass it to the feedback tool to say which records helped or what was missing).\n` : '';
}

/**
 * The text searched for a question and the calling agent's own terms (rephrasings, related
 * technical words): one query, so that the keyword and semantic lanes both see them and a
 * record written in other words than the question is found by the agent's words for it.
 * Terms repeating the question or each other are dropped.
 */
export function queryWithTerms(query: string, terms: readonly string[] | undefined): string {
  const seen = new Set([query.trim().toLowerCase()]);
  const extra: string[] = [];
  for (const t of terms ?? []) {
    const k = t.replace(/\s+/g, ' ').trim();
    if (!k || seen.has(k.toLowerCase())) continue;
    seen.add(k.toLowerCase());
    extra.push(k);
  }
  return extra.length ? `${query.trim()}${AGENT_TERMS}${extra.join('; ')}` : query;
}

/** search_decisions: records for a question or keywords (and the agent's terms for it), summaries first. */
export async function searchDecisionsTool(ctx: ToolContext, args: { query: string; terms?: string[]; all?: boolean; types?: string[]; max?: number; session_id?: string }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const rec = mcpRecorder(ctx, state, 'search_decisions', args.session_id);
  // the episode records the text searched, terms included, so that eval replays the same question
  const text = queryWithTerms(args.query, args.terms);
  const result = await withLiveSet(ctx, state, async (set, snapshot) => {
    const { retrieveForText } = await import('../retrieve/engine.js');
    const { semanticLaneFor } = await import('../semantic/lane.js');
    return retrieveForText({ snapshot, set, semantic: semanticLaneFor(snapshot.root, set), text, filters: { all: args.all, ...(args.types?.length ? { type: args.types } : {}) }, ...(args.max !== undefined ? { caps: { fused: args.max } } : {}) });
  });
  return retrievalOutput(result, !!args.all, await finishRetrieval(rec, result));
}

/** An episode recorder for an MCP tool call: caller mcp, with the call's session or the server's. */
export function mcpRecorder(ctx: ToolContext, state: Pick<RepoState, 'root' | 'head' | 'config'>, tool: string, session?: string) {
  const s = session ?? ctx.session;
  return startEpisode(state.root, { caller: { kind: 'mcp', command: tool, ...(s ? { session: s } : {}) }, commit: state.head, record: state.config.record, dirtyWaitMs: 100, ...(ctx.call !== undefined ? { context: { tool_call: ctx.call } } : {}) });
}
