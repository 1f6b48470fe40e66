import { ID_PATTERN } from '../artifacts/types.js';
import { closeMatches } from '../util/close-match.js';
import { bodyAt } from '../artifacts/depth.js';
import { metaText } from '../artifacts/meta-text.js';
import type { Depth, Scope } from '../artifacts/types.js';
import { CtxError } from '../errors.js';
import type { RepoState } from './repo.js';
import { failure, shortCommit, type ToolOutput } from './result.js';
import { expandRequires, indexEntries, resolveAreas, type IndexEntry, type Selected } from './select.js';
import type { SessionRecord, SessionStore } from './sessions.js';
import { TokenMeter } from './tokens.js';

/** Default response budget in tokens: keeps one answer under about 20k tokens with its framing. */
export const DEFAULT_BUDGET = 18_000;

const MEMO_LIMIT = 32;
/** Consecutive artifacts that fit at no depth before the rest of a phase-2 answer is cut. */
const MAX_MISSES = 8;
/** Rendered answers per loaded state; dropped with the state when the cache evicts it. */
const answers = new WeakMap<RepoState, Map<string, ToolOutput>>();

/** Arguments of the get_context tool (snake_case, as the model writes them). */
export interface GetContextArgs {
  /** phase 2: the ids to load in full; omitted or empty = phase 1 (the index) */
  ids?: string[];
  /** phase 1: only these types ("decision" or "decisions") */
  areas?: string[];
  /** phase 1: only these scopes */
  scope?: Scope[];
  /** phase 1: only these statuses */
  status?: string[];
  /** phase 1: only the ids named by baseline.md manifests */
  baseline_only?: boolean;
  /** remember what this session received; answer with what is new */
  session_id?: string;
  /** forget what the session received before answering */
  reset?: boolean;
  /** token budget of the answer */
  budget?: number;
}

/** What get_context needs besides its arguments. */
export interface GetContextDeps {
  state: RepoState;
  meter: TokenMeter;
  /** required when session_id is given */
  sessions?: SessionStore;
}

/**
 * The two-phase get_context. Phase 1 (no ids): an index of frontmatter only. Phase 2
 * (ids): full content with `requires` expanded. With a session, only what the session
 * has not received (or what changed since) is sent, and the record survives restarts.
 */
export async function getContext(deps: GetContextDeps, args: GetContextArgs): Promise<ToolOutput> {
  const ids = [...new Set(args.ids ?? [])];
  const bad = ids.filter((id) => !ID_PATTERN.test(id));
  if (bad.length) throw new CtxError('USAGE', `invalid artifact id format: ${bad.map((b) => JSON.stringify(b)).join(', ')} (expected e.g. DEC-BILLING-001 or project/design/x)`);
  const budget = args.budget ?? DEFAULT_BUDGET;
  if (!args.session_id) {
    // without a session the answer is a pure function of the loaded state and the arguments,
    // so a warm repeat (the common agent loop) costs a lookup instead of a render
    const key = JSON.stringify([ids.length ? ids : null, args.areas, args.scope, args.status, !!args.baseline_only, budget]);
    let memo = answers.get(deps.state);
    if (!memo) answers.set(deps.state, (memo = new Map()));
    const hit = memo.get(key);
    if (hit) return hit;
    const out = ids.length ? await phase2(deps, ids, budget, undefined) : await phase1(deps, args, budget, undefined);
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
    memo.set(key, out);
    return out;
  }
  if (!deps.sessions) throw new CtxError('USAGE', 'sessions are not available on this server');
  const store = deps.sessions;
  return store.update(args.session_id, async (prior) => {
    const record: SessionRecord = args.reset ? { version: 1, sent: {}, updated: '' } : { ...prior, sent: { ...prior.sent } };
    const vanished = Object.keys(record.sent)
      .filter((id) => !deps.state.set.byId.has(id))
      .sort();
    for (const id of vanished) delete record.sent[id];
    const ctx: SessionCtx = { record, vanished, reset: !!args.reset };
    const before = JSON.stringify(prior.sent);
    let out: ToolOutput;
    // the session's picture of the repository is out of date (files deleted or renamed):
    // answering the ids as asked could mix old and new ids, so show the current index instead
    if (vanished.length) out = await phase1(deps, { ...args, ids: undefined }, budget, ctx);
    else out = ids.length ? await phase2(deps, ids, budget, ctx) : await phase1(deps, args, budget, ctx);
    // write only when something changed: a phase-1 call must not cost a file write
    return { record: JSON.stringify(record.sent) !== before ? record : undefined, result: out };
  });
}

interface SessionCtx {
  record: SessionRecord;
  /** ids the session had received that no longer exist */
  vanished: string[];
  reset: boolean;
}

const list = (xs: string[]) => xs.join(', ');

function header(state: RepoState): string {
  return `commit ${shortCommit(state.head)}${state.dirty ? ' + uncommitted artifact changes' : ''}`;
}

function unreadableWarnings(state: RepoState): string[] {
  return state.unreadable.map((p) => `unreadable artifact file ${p.file}${p.line ? `:${p.line}` : ''} (${p.rule}): ${p.message} — its content is left out`);
}

function indexLine(e: IndexEntry, sent: boolean): string {
  const meta = [e.type, e.status, e.scope].filter(Boolean).join(' · ');
  return `- ${e.id} [${meta}] ${e.title}${e.summary && e.summary !== e.title ? ` — ${e.summary}` : ''}${sent ? ' (already sent)' : ''}`;
}

async function phase1(deps: GetContextDeps, args: GetContextArgs, budget: number, session: SessionCtx | undefined): Promise<ToolOutput> {
  const { state, meter } = deps;
  const warnings = unreadableWarnings(state);
  let types: string[] | undefined;
  if (args.areas?.length) {
    const r = resolveAreas(state.config, args.areas);
    if (r.unknown.length) return failure(`unknown area(s): ${list(r.unknown)}. Areas are artifact types: ${list(Object.keys(state.config.types))}.`, { unknown: r.unknown });
    types = r.types;
  }
  const baselineIds = state.baseline.ids;
  const missingBaseline = baselineIds.filter((id) => !state.set.byId.has(id));
  if (missingBaseline.length) warnings.push(`baseline lists id(s) that are not loaded: ${list(missingBaseline)}${state.global ? '' : ' (global artifacts are off: set global: true in .contextia/config.yaml to include them)'}`);
  for (const p of state.baseline.problems) warnings.push(`${p.file}: ${p.message}`);
  const entries = indexEntries(state.ordered, {
    types,
    scope: args.scope?.length ? args.scope : undefined,
    status: args.status?.length ? args.status : undefined,
    only: args.baseline_only ? new Set(baselineIds) : undefined,
  });
  const filters = [
    types && `types=${list(types)}`,
    args.scope?.length && `scope=${list(args.scope)}`,
    args.status?.length && `status=${list(args.status)}`,
    args.baseline_only && 'baseline only',
  ].filter(Boolean);
  const notes: string[] = [];
  if (session?.vanished.length) {
    notes.push(
      `This session had received ${list(session.vanished)}, which no longer exist (deleted or renamed since). The artifacts changed, so this is the current index instead of the content you asked for: pick ids from it and call get_context again.`,
    );
  }
  if (session?.reset) notes.push('Session reset: everything will be sent again.');
  const head: string[] = [
    `# Context index — ${entries.length} of ${state.ordered.length} artifacts${filters.length ? ` (${filters.join('; ')})` : ''}, ${header(state)}`,
    'Frontmatter only. Call get_context with ids=[…] for full content; `requires` are added automatically.',
  ];
  const presentBaseline = baselineIds.filter((id) => state.set.byId.has(id));
  if (presentBaseline.length) head.push(`Baseline (load at session start): ${list(presentBaseline)}`);
  const sent = session?.record.sent ?? {};
  const lines = entries.map((e) => indexLine(e, !!sent[e.id] && sent[e.id] === state.set.byId.get(e.id)?.blob));
  // group under scope headings; headings are part of what the budget pays for
  const blocks: { scope: Scope; line: string }[] = entries.map((e, i) => ({ scope: e.scope, line: lines[i]! }));
  const render = (n: number, tail: string[]) => {
    const out = [...head];
    for (const n2 of notes) out.push(`Note: ${n2}`);
    let cur: Scope | undefined;
    for (const b of blocks.slice(0, n)) {
      if (b.scope !== cur) {
        out.push('', `## ${b.scope}`);
        cur = b.scope;
      }
      out.push(b.line);
    }
    if (!entries.length) out.push('', 'No artifacts match.');
    out.push(...tail);
    for (const w of warnings) out.push(`Warning: ${w}`);
    return out.join('\n') + '\n';
  };
  const cutNote = (shown: number): string[] => {
    if (shown >= entries.length) return [];
    const left = entries.slice(shown);
    const byType = new Map<string, number>();
    for (const e of left) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
    const counts = [...byType].map(([t, c]) => `${c} ${t}`).join(', ');
    return ['', `Cut: ${left.length} more entries left out to stay within the ${budget}-token budget (${counts}; from ${left[0]!.id} on). Narrow with areas/scope/status, or raise budget.`];
  };
  let shown = entries.length;
  if (TokenMeter.upperBound(render(shown, [])) > budget) {
    // exact counting only when the cheap bound says it might not fit
    const [fixed] = await meter.count([render(0, cutNote(0))]);
    const counts = await meter.count(blocks.map((b) => b.line + '\n'));
    let used = fixed! + 40; // slack for scope headings
    shown = 0;
    for (const c of counts) {
      if (used + c > budget) break;
      used += c;
      shown++;
    }
    while (shown > 0 && (await meter.countOne(render(shown, cutNote(shown)))) > budget) shown--;
  }
  const text = render(shown, cutNote(shown));
  return {
    text,
    data: {
      phase: 1,
      commit: state.head ?? null,
      dirty: state.dirty,
      total: state.ordered.length,
      matched: entries.length,
      ids: entries.slice(0, shown).map((e) => e.id),
      omitted: entries.length - shown,
      baseline: presentBaseline,
      ...(session ? { session: { vanished: session.vanished, reset: session.reset, fellBackToIndex: session.vanished.length > 0 } } : {}),
      notes,
      warnings,
    },
  };
}

function artifactSection(s: Selected, depth: Depth, changed: boolean): string {
  const a = s.artifact;
  const why = [s.requested ? 'requested' : '', s.requiredBy.length ? `required by ${list(s.requiredBy)}` : ''].filter(Boolean).join('; ');
  const tags = [a.type, a.status, a.scope].filter(Boolean).join(' · ');
  const lines = [`=== ${a.id} [${tags}] ${a.title} ===`, `file: ${a.file} · ${why}${changed ? ' · changed since last sent' : ''}${depth !== 'full' ? ` · ${depth} depth (budget)` : ''}`, '---', metaText(a), '---'];
  const body = bodyAt(a, depth);
  if (body) lines.push(body);
  return lines.join('\n') + '\n\n';
}

interface Planned {
  sel: Selected;
  changed: boolean;
  depth: Depth | undefined;
}

async function phase2(deps: GetContextDeps, ids: string[], budget: number, session: SessionCtx | undefined): Promise<ToolOutput> {
  const { state, meter } = deps;
  const unknown = ids.filter((id) => !state.set.byId.has(id));
  if (unknown.length) {
    const hints = unknown.map((id) => {
      const near = closeMatches(id, [...state.set.byId.keys()]);
      return near.length ? `${id} (did you mean ${list(near)}?)` : id;
    });
    const unreadable = state.unreadable.length ? ` ${state.unreadable.length} artifact file(s) failed to parse and may declare them: ${list(state.unreadable.map((p) => p.file))}.` : '';
    return failure(`unknown artifact id(s): ${list(hints)}. Nothing was sent; call get_context without ids for the index.${unreadable}`, { unknown });
  }
  const { selected, missing } = expandRequires(state.set, ids);
  const warnings = unreadableWarnings(state);
  for (const m of missing) warnings.push(`${m.from} requires ${m.id}, which is not loaded (missing, or in an unreadable file)`);
  const sent = session?.record.sent ?? {};
  const already: string[] = [];
  const plan: Planned[] = [];
  for (const sel of selected) {
    const prev = sent[sel.artifact.id];
    if (prev === sel.artifact.blob) already.push(sel.artifact.id);
    else plan.push({ sel, changed: prev !== undefined, depth: 'full' });
  }
  const staleElsewhere = session
    ? Object.entries(sent)
        .filter(([id, blob]) => !selected.some((s) => s.artifact.id === id) && state.set.byId.get(id)!.blob !== blob)
        .map(([id]) => id)
        .sort()
    : [];

  const headLines = (): string[] => {
    const inc = plan.filter((p) => p.depth);
    const req = inc.filter((p) => p.sel.requested).length;
    // "1 requested" of two asked for, the other cut, read as if one had been asked for: the count says the cut
    const cut = plan.filter((p) => !p.depth).length;
    const out = [`# Context — ${inc.length} artifact(s) (${req} requested, ${inc.length - req} required${cut ? `; ${cut} cut for the budget, named below` : ''}), ${header(state)}`];
    if (session?.reset) out.push('Session reset: everything is sent again.');
    if (already.length) out.push(`Already sent in this session and unchanged, not repeated: ${list(already)}. Pass reset: true to receive them again.`);
    const changed = inc.filter((p) => p.changed).map((p) => p.sel.artifact.id);
    if (changed.length) out.push(`Re-sent because they changed since this session received them: ${list(changed)}.`);
    if (staleElsewhere.length) out.push(`Also changed since this session received them (not re-sent, ask for them to refresh): ${list(staleElsewhere)}.`);
    const lowered = inc.filter((p) => p.depth !== 'full').map((p) => p.sel.artifact.id);
    if (lowered.length) out.push(`Shortened to summary depth to stay within the ${budget}-token budget: ${list(lowered)}. Ask for them alone (or raise budget) for the full text.`);
    const dropped = plan.filter((p) => !p.depth).map((p) => p.sel.artifact.id);
    if (dropped.length) out.push(`Cut: left out to stay within the ${budget}-token budget: ${list(dropped)}. Call get_context again with these ids${session ? ' (they are not marked as sent)' : ''}, or raise budget.`);
    if (!inc.length && !dropped.length) out.push('Nothing new to send.');
    for (const w of warnings) out.push(`Warning: ${w}`);
    return out;
  };
  const render = () => headLines().join('\n') + '\n\n' + plan.filter((p) => p.depth).map((p) => artifactSection(p.sel, p.depth!, p.changed)).join('');

  if (TokenMeter.upperBound(render()) > budget) {
    // requested ids are kept before what they require; each is lowered before it is dropped
    const order = [...plan].sort((x, y) => Number(y.sel.requested) - Number(x.sel.requested));
    for (const p of plan) p.depth = undefined;
    // the framing is paid for as if everything were cut, so adding sections can only shrink it
    let used = (await meter.countOne(headLines().join('\n'))) + 64;
    let misses = 0;
    for (const p of order) {
      // a closure can be most of the repository; once several in a row fit at no depth the
      // budget is spent, and counting the rest (which are listed as cut) would only cost time
      if (misses >= MAX_MISSES) break;
      misses++;
      for (const d of ['full', 'summary'] as const) {
        const text = artifactSection(p.sel, d, p.changed);
        // the byte bound decides without the tokenizer whenever it can
        const c = TokenMeter.upperBound(text) <= budget - used ? 0 : await meter.countOne(text);
        if (used + c <= budget) {
          p.depth = d;
          used += c || (await meter.countOne(text));
          misses = 0;
          break;
        }
      }
    }
    // a final exact check guards the estimate of the framing
    for (let i = order.length - 1; i >= 0 && (await meter.countOne(render())) > budget; i--) order[i]!.depth = undefined;
  }
  const text = render();
  const included = plan.filter((p) => p.depth);
  if (session) for (const p of included) if (p.depth === 'full') session.record.sent[p.sel.artifact.id] = p.sel.artifact.blob;
  return {
    text,
    data: {
      phase: 2,
      commit: state.head ?? null,
      dirty: state.dirty,
      requested: ids,
      sent: included.map((p) => ({ id: p.sel.artifact.id, depth: p.depth, requested: p.sel.requested, requiredBy: p.sel.requiredBy, changed: p.changed, blob: p.sel.artifact.blob })),
      alreadySent: already,
      changedElsewhere: staleElsewhere,
      omitted: plan.filter((p) => !p.depth).map((p) => p.sel.artifact.id),
      ...(session ? { session: { reset: session.reset } } : {}),
      warnings,
    },
  };
}
