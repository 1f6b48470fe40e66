import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { bodyAt } from '../artifacts/depth.js';
import { metaText } from '../artifacts/meta-text.js';
import { ID_PATTERN } from '../artifacts/types.js';
import { VERSION } from '../version.js';
import { strictArgs } from './args.js';
import { DEFAULT_BUDGET, getContext } from './get-context.js';
import { RepoReader } from './repo.js';
import { toCallToolResult, type ToolOutput } from './result.js';
import { SessionStore } from './sessions.js';
import { TokenMeter } from './tokens.js';
import { contextForChangeTool } from './change-tool.js';
import { assembleTaskTool, checkTool, contextForCodeTool, forCall, guard, impactTool, mcpRecorder, readArtifactTool, searchDecisionsTool, staleTool, traceTool, type ToolContext } from './tools.js';
import { feedbackTool } from './feedback.js';
import { checkChangeTool } from './check-change.js';
import { recordsAsEvidence } from '../store/record.js';

/** Options of `createServer`. */
export interface CreateServerOptions {
  /** any directory inside the repository (read once by the caller, e.g. from --root or the cwd) */
  cwd: string;
  /** include the user's global artifacts (default: the repository's config) */
  global?: boolean;
  /** global store override (tests); default globalStoreDir() */
  globalDir?: string;
  /** session records directory; default `<git-dir>/ctx/sessions` */
  sessionsDir?: string;
  /** force a Snapshot backend (tests) */
  backend?: 'git' | 'isomorphic-git';
  /** log sink; default stderr. Never stdout: stdout carries JSON-RPC. */
  log?: (message: string) => void;
}

/** JSON-RPC error code for an unknown resource (MCP specification). */
const RESOURCE_NOT_FOUND = -32002;

const INSTRUCTIONS = `git-ctx serves this repository's decisions, specs, norms and tasks (markdown under .contextia/).
Two phases: call get_context without ids for an index (frontmatter only; filter with areas/scope/status/baseline_only), then get_context with ids=[…] for full content; \`requires\` are expanded for you.
Pass a stable session_id to receive each artifact once per session (changed ones are re-sent); reset: true starts over.
For a task, assemble_task gives the whole linked bundle. trace tells what governs a file, line or symbol. check reports coherence problems; stale reports drift between artifacts and their code.`;

const idSchema = z.string().regex(ID_PATTERN, 'invalid artifact id format: use letters, digits, "-", "_", "." (e.g. DEC-BILLING-001) or path-like segments (project/design/x)');
const depthSchema = z.enum(['meta', 'summary', 'full']);
const scopeSchema = z.enum(['global', 'domain', 'project']);
const budgetSchema = z.number().int().min(100).max(1_000_000);
/** Models pass a single value as often as a list; both are accepted. */
const oneOrMany = <T extends z.ZodType>(s: T) => z.union([s, z.array(s)]);
const many = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/**
 * The git-ctx MCP server, unconnected: tools for the two-phase get_context, task bundles,
 * reading an artifact, tracing code and checking, and artifacts as resources. Connect it to
 * a transport (stdio in `git ctx mcp`, InMemoryTransport in tests). Every call reads the
 * working tree afresh (cached by artifact content); nothing is written but session records.
 */
export function createServer(options: CreateServerOptions): McpServer {
  const log = options.log ?? ((m: string) => process.stderr.write(m.endsWith('\n') ? m : m + '\n'));
  const reader = new RepoReader({ cwd: options.cwd, global: options.global, globalDir: options.globalDir, backend: options.backend });
  const meters = new Map<string, TokenMeter>();
  const ctx: ToolContext = {
    reader,
    log,
    // episodes of calls that name no session_id are grouped by server (one agent connection)
    session: `server-${randomBytes(4).toString('hex')}`,
    meter(encoding) {
      let m = meters.get(encoding);
      if (!m) meters.set(encoding, (m = new TokenMeter(encoding)));
      return m;
    },
  };
  let sessions: Promise<SessionStore> | undefined;
  const sessionStore = () => {
    sessions ??= options.sessionsDir ? Promise.resolve(new SessionStore(options.sessionsDir)) : reader.location().then((l) => new SessionStore(path.join(l.gitDir, 'ctx', 'sessions')));
    sessions.catch(() => (sessions = undefined));
    return sessions;
  };

  const server = new McpServer({ name: 'git-ctx', version: VERSION }, { instructions: INSTRUCTIONS, capabilities: { logging: {} } });
  const run = async (name: string, fn: () => Promise<ToolOutput>) => toCallToolResult(await guard(ctx, name, fn));
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

  server.registerTool(
    'get_context',
    {
      title: 'Get project context (two-phase)',
      description:
        'Phase 1 (no ids): an index of the artifacts — id, type, title, summary, scope, status — filterable by areas (types), scope, status and baseline_only. Phase 2 (ids): full content of those ids with `requires` expanded transitively, ordered global → domain → project. With session_id, artifacts already received in the session are not repeated (changed ones are re-sent).',
      inputSchema: strictArgs({
        ids: z.array(idSchema).optional().describe('phase 2: artifact ids to load in full (requires are added)'),
        areas: oneOrMany(z.string()).optional().describe('phase 1: only these types, e.g. ["decision","norm"]'),
        scope: oneOrMany(scopeSchema).optional().describe('phase 1: only these scopes'),
        status: oneOrMany(z.string()).optional().describe('phase 1: only these statuses, e.g. "accepted"'),
        baseline_only: z.boolean().optional().describe('phase 1: only the ids listed in baseline.md manifests (load these at session start)'),
        session_id: z.string().min(1).max(256).optional().describe('a stable id for this agent session; remembered across server restarts'),
        reset: z.boolean().optional().describe('forget what this session received before answering'),
        budget: budgetSchema.optional().describe(`token budget of the answer (default ${DEFAULT_BUDGET}); anything cut is listed`),
      }),
      annotations: { ...readOnly, idempotentHint: false },
    },
    (args, extra) =>
      run('get_context', async () => {
        const state = await reader.state();
        const rec = mcpRecorder(forCall(ctx, extra), state, 'get_context', args.session_id);
        const out = await getContext(
          { state, meter: ctx.meter(state.config.assemble.encoding), sessions: args.session_id ? await sessionStore() : undefined },
          { ...args, areas: many(args.areas), scope: many(args.scope), status: many(args.status) },
        );
        if (out.isError) return out;
        const d = out.data as { phase: number; ids?: string[]; sent?: { id: string; depth: string; requested: boolean }[] };
        const typeOf = (id: string) => state.set.byId.get(id)?.type;
        const evidence =
          d.phase === 2
            ? recordsAsEvidence((d.sent ?? []).map((x) => ({ id: x.id, type: typeOf(x.id), slot: x.requested ? 'requested' : 'requires', grounding: x.depth === 'full' ? ('loaded' as const) : ('indexed' as const) })))
            : recordsAsEvidence((d.ids ?? []).map((id) => ({ id, type: typeOf(id), slot: 'index', grounding: 'indexed' as const })));
        const query = args.ids?.length ? args.ids.join(' ') : [many(args.areas)?.join(','), many(args.scope)?.join(','), many(args.status)?.join(','), args.baseline_only ? 'baseline' : ''].filter(Boolean).join(' ') || 'index';
        const episode = await rec.finish({ query: { kind: 'ids', text: query }, evidence, files: evidence.map((e) => state.set.byId.get(e.value)?.file ?? '') });
        return episode ? { ...out, data: { ...out.data, episode } } : out;
      }),
  );

  server.registerTool(
    'assemble_task',
    {
      title: 'Assemble a task bundle',
      description: "The deterministic context bundle of a task (or any artifact): its links and requires followed, ordered identity → task → specs → norms → decisions, fitted to the token budget by lowering depth before dropping, each entry saying why it is included.",
      inputSchema: strictArgs({
        id: idSchema.describe('task (or other artifact) id, e.g. TASK-042'),
        depth: depthSchema.optional().describe('detail wanted before budgeting (default from config: full)'),
        budget: budgetSchema.optional().describe(`token budget (default: config assemble.budget, else ${DEFAULT_BUDGET})`),
        format: z.enum(['context', 'markdown', 'json']).optional().describe('context (compact, default), markdown or json'),
        max_depth: z.number().int().min(0).max(100).optional().describe('link hops to follow (default: unlimited)'),
      }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args) => run('assemble_task', () => assembleTaskTool(ctx, args)),
  );

  server.registerTool(
    'read_artifact',
    {
      title: 'Read one artifact',
      description: 'One artifact at a depth: meta (frontmatter), summary (+ first section) or full, with computed reverse edges (superseded_by, leads_to, required_by, …).',
      inputSchema: strictArgs({ id: idSchema, depth: depthSchema.optional().describe('meta | summary | full (default full)') }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args) => run('read_artifact', () => readArtifactTool(ctx, args)),
  );

  server.registerTool(
    'trace',
    {
      title: 'What governs this code',
      description: 'The artifacts governing a place in the code, nearest first: annotated symbol, file, directories, package. Place: path, path:line or path#Symbol.name (repository-relative).',
      // `place`, as context_for_code names it (DEC-093); `target`, its former name, is accepted for now
      inputSchema: strictArgs({
        place: z.string().min(1).max(4096).optional().describe('e.g. src/billing/invoice.ts#InvoiceGenerator.generate or src/billing/invoice.ts:42'),
        target: z.string().min(1).max(4096).optional().describe('former name of place, accepted for now; use place'),
      }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args) => run('trace', () => traceTool(ctx, args)),
  );

  const retrievalSchema = {
    all: z.boolean().optional().describe('include records out of force (superseded, deprecated), marked; rejected records answer without it, marked'),
    types: z.array(z.string().min(1).max(100)).optional().describe('only these types, e.g. ["decision"]'),
    max: z.number().int().min(0).max(50).optional().describe('most related (non-declared) records (default 5)'),
    session_id: z.string().min(1).max(256).optional().describe('your agent session, recorded with the episode (feedback refers to the episode id in the answer)'),
  };
  server.registerTool(
    'context_for_code',
    {
      title: 'Records for a place in the code',
      description:
        'The decisions, specs and norms that govern or concern a place in the code: declared ones first (anchors, annotations, paths, the code graph; nearest first), then related ones found by keywords read from the code and by mentions (weaker), then linked ones. Summaries with the evidence for each; load the full text with read_artifact. Place: path, path:line or path#Symbol (repository-relative).',
      inputSchema: strictArgs({ place: z.string().min(1).max(4096).describe('e.g. src/billing/invoice.ts, src/billing/invoice.ts:42 or src/billing/invoice.ts#InvoiceGenerator.generate'), ...retrievalSchema }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args, extra) => run('context_for_code', () => contextForCodeTool(forCall(ctx, extra), args)),
  );

  server.registerTool(
    'context_for_change',
    {
      title: 'Records for a change',
      description:
        'Before opening a pull request: the decisions, specs and norms a change concerns, as one ranked list — declared ones first (anchors, annotations, paths on the changed code), then records found from the change itself (its added and removed lines, the symbols they sit in, its paths, title and body) above a relevance floor. Each record once, with the files and line ranges that brought it in; a change no record governs gets one line saying so. Records the change itself adds, edits or removes are listed apart (record_changes): a new record is not what governs the change. Give range (base...head, base..head, or a base compared with HEAD) or staged: true.',
      inputSchema: strictArgs({
        range: z.string().min(1).max(512).optional().describe('e.g. main...HEAD, origin/main..HEAD or main'),
        staged: z.boolean().optional().describe('the staged change (the git index against HEAD)'),
        title: z.string().max(1000).optional().describe("the change's title (default: the first line of the range's commit messages)"),
        body: z.string().max(20000).optional().describe("the change's description (default: the rest of the commit messages)"),
        max: z.number().int().min(0).max(50).optional().describe('most records found by retrieval beyond the declared ones (default 5)'),
      }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args, extra) => run('context_for_change', () => contextForChangeTool(forCall(ctx, extra), args)),
  );

  server.registerTool(
    'search_decisions',
    {
      title: 'Search the records',
      description:
        'Search decisions, specs and norms by a question or keywords: ranked, each with its evidence (matched terms, relation chain) and summary; records out of force hidden unless all (a rejected one is shown, marked: a proposal turned down, not a rule). Records are often written in other words than your question: also pass terms, 3 to 8 of your own rephrasings and related technical words (synonyms, the library or pattern names, identifiers you expect), which are searched with the query. The answer ends with its episode id for the feedback tool. Load the full text with read_artifact.',
      inputSchema: strictArgs({
        query: z.string().min(1).max(2000).describe('a question or keywords, e.g. "how do we rate limit webhooks"'),
        terms: z
          .array(z.string().min(1).max(200))
          .max(16)
          .optional()
          .describe('3 to 8 rephrasings and related technical words, e.g. ["throttling", "token bucket", "429 Too Many Requests", "backoff"]'),
        ...retrievalSchema,
      }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args, extra) => run('search_decisions', () => searchDecisionsTool(forCall(ctx, extra), args)),
  );

  const refs = z.array(z.string().min(1).max(4096)).max(200).optional();
  server.registerTool(
    'feedback',
    {
      title: 'Feedback on a retrieval',
      description:
        'Say how good an answer was: the episode id comes with every context_for_code, search_decisions and get_context answer (data.episode; context_for_code and search_decisions also end their text with it). Mark references (artifact ids, paths) useful or not useful, and name what was missing. Append-only; `git ctx eval` replays episodes against the engine using this feedback.',
      inputSchema: strictArgs({
        episode: z.string().min(4).max(64).describe('the episode id from an answer (data.episode), or a unique prefix of it'),
        useful: refs.describe('references that helped, e.g. ["DEC-007"]'),
        not_useful: refs.describe('references that did not help'),
        missing: refs.describe('what should have been returned and was not, e.g. ["NORM-003"]'),
        note: z.string().max(4000).optional().describe('free text'),
        session_id: z.string().min(1).max(256).optional().describe('your agent session'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => run('feedback', () => feedbackTool(ctx, args)),
  );

  server.registerTool(
    'impact',
    {
      title: 'What a change touches',
      description:
        'Impact of a change. Target an artifact id: the code it governs and the records relying on it (requires, depends on, amends, links to it), transitively. Target code (path, directory, path:line or path#Symbol): the records declared on it and on the code importing or calling it. reverse with an id: what the record relies on. Each result has its path of edges; mentions are weaker; stale marks come from the latest staleness run.',
      inputSchema: strictArgs({
        target: z.string().min(1).max(4096).describe('e.g. DEC-BILLING-001, src/billing/invoice.ts or src/billing/invoice.ts#InvoiceGenerator.generate'),
        reverse: z.boolean().optional().describe('for an id: what the record relies on instead of what relies on it'),
        depth: z.number().int().min(1).max(20).optional().describe('edges to follow (default 3)'),
        limit: z.number().int().min(1).max(1000).optional().describe('most records and most code places, each (default 50)'),
      }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args) => run('impact', () => impactTool(ctx, args)),
  );

  server.registerTool(
    'check',
    {
      title: 'Check coherence',
      description: 'Run the coherence check on the working tree: malformed or duplicate artifacts, broken links, unknown statuses, dead anchors, … Findings are data, not a failure.',
      inputSchema: strictArgs({ rules: z.array(z.string().min(1)).optional().describe('only these rule ids') }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args) => run('check', () => checkTool(ctx, args)),
  );

  server.registerTool(
    'check_change',
    {
      title: 'Decisions a change violates',
      description:
        "Check a change against the decisions' confirmations (forbidden calls and imports, required text, …): only the lines the change adds count. Without diff: the working tree's changes against HEAD, untracked files whole. Call it before you say an edit is done; each violation names the file:line and the decision.",
      inputSchema: strictArgs({
        diff: z.string().max(4_000_000).optional().describe('a unified diff already applied to the working tree (e.g. git diff main): check its added lines'),
      }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args) => run('check_change', () => checkChangeTool(ctx, args)),
  );

  server.registerTool(
    'stale',
    {
      title: 'Staleness of artifacts',
      description: 'Judge artifacts against the code they anchor: fresh, moved (fixable by git ctx stamp --fix), stale (with the commits that changed it), unanchored or unstamped; superseded/deprecated lifecycle is reported too.',
      inputSchema: strictArgs({
        ids: z.array(idSchema).optional().describe('only these artifacts (default: all)'),
        since: z.string().min(1).max(200).regex(/^[^-]/, 'a revision, not an option').optional().describe('judge against this revision instead of each stamp'),
        all: z.boolean().optional().describe('list fresh artifacts too'),
      }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    (args) => run('stale', () => staleTool(ctx, args)),
  );

  server.registerTool(
    'add_decision',
    {
      title: 'Add a decision',
      description:
        'Record a decision as an artifact in the repository. It is first compared with the active decisions (repository and global): when some are similar (similarity ≥ semantic.conflict_threshold, default 0.75) nothing is written and they are returned with id, title and similarity, so you can use or update one, supersede one, or call again with force: true. A record it looks like it replaces is named in replaces (id, title, reason); nothing is linked unasked.',
      inputSchema: strictArgs({
        decision: z.string().min(1).max(20_000).describe('what was decided, e.g. "Store idempotency keys in Redis for 24 hours"'),
        title: z.string().min(1).max(200).optional().describe('title (default: the first clause of the decision)'),
        rationale: z.string().max(20_000).optional().describe('why'),
        constraints: z.string().max(20_000).optional().describe('rules that follow from it'),
        scope: z.string().min(1).max(100).optional().describe('global, domain or project, or an area such as billing'),
        paths: z.array(z.string().min(1).max(4096)).optional().describe('code it governs (globs), e.g. ["src/payments/**"]'),
        keywords: z.array(z.string().min(1).max(100)).optional(),
        force: z.boolean().optional().describe('write even when similar active decisions exist'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => run('add_decision', async () => (await import('./add-decision.js')).addDecisionTool(ctx, args)),
  );

  server.registerTool(
    'propose_decision',
    {
      title: 'Propose a decision',
      description:
        'Propose a decision you inferred while working (e.g. "verify webhook signatures before processing") for a person to confirm: written as a proposed record with your session and the current commit, in the team\'s decision folder and style, not committed. Compared with the active decisions first, as add_decision: when some are similar nothing is written and they are returned.',
      inputSchema: strictArgs({
        decision: z.string().min(1).max(20_000).describe('what was decided, in one or two sentences'),
        title: z.string().min(1).max(200).optional().describe('title (default: the first clause of the decision)'),
        rationale: z.string().max(20_000).optional().describe('why, and where it came up'),
        constraints: z.string().max(20_000).optional().describe('rules that follow from it'),
        scope: z.string().min(1).max(100).optional().describe('global, domain or project, or an area such as billing'),
        paths: z.array(z.string().min(1).max(4096)).optional().describe('code it governs (globs)'),
        keywords: z.array(z.string().min(1).max(100)).optional(),
        session_id: z.string().min(1).max(256).optional().describe('your agent session (default: this connection)'),
        force: z.boolean().optional().describe('write even when similar active decisions exist'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => run('propose_decision', async () => (await import('./propose-decision.js')).proposeDecisionTool(ctx, args)),
  );

  const text = (uri: string, body: string, mimeType = 'text/markdown'): ReadResourceResult => ({ contents: [{ uri, mimeType, text: body }] });

  server.registerResource(
    'identity',
    'ctx://identity',
    { title: 'Project identity', description: 'The identity artifact: name, languages, frameworks, one paragraph', mimeType: 'text/markdown' },
    async (uri) => {
      const state = await reader.state();
      const a = state.ordered.find((x) => x.type === 'identity');
      if (!a) throw new McpError(RESOURCE_NOT_FOUND, `no identity artifact in ${state.config.dir}/ (create ${state.config.dir}/identity.md with type: identity)`);
      return text(uri.href, `---\n${metaText(a)}\n---\n\n${bodyAt(a, 'full')}\n`);
    },
  );

  server.registerResource(
    'index',
    'ctx://index',
    { title: 'Context index', description: 'Phase 1 of get_context: every artifact, frontmatter only', mimeType: 'text/markdown' },
    async (uri) => {
      const state = await reader.state();
      const out = await getContext({ state, meter: ctx.meter(state.config.assemble.encoding) }, {});
      return text(uri.href, out.text);
    },
  );

  // {+id}: path-like ids (project/design/x) contain slashes, which a plain {id} cannot match
  server.registerResource(
    'artifact',
    new ResourceTemplate('ctx://artifact/{+id}', {
      list: async () => {
        const state = await reader.state();
        return {
          resources: state.ordered.map((a) => ({ uri: `ctx://artifact/${a.id}`, name: a.id, title: a.title, description: a.summary, mimeType: 'text/markdown' })),
        };
      },
    }),
    { title: 'Artifact', description: 'One artifact, full text (frontmatter and body)', mimeType: 'text/markdown' },
    async (uri, vars) => {
      const id = decodeURIComponent(String(Array.isArray(vars.id) ? vars.id[0] : vars.id));
      const state = await reader.state();
      const a = state.set.byId.get(id);
      if (!a) throw new McpError(RESOURCE_NOT_FOUND, `unknown artifact id: ${id}`);
      return text(uri.href, `---\n${metaText(a)}\n---\n\n${bodyAt(a, 'full')}\n`);
    },
  );

  const prevClose = server.server.onclose;
  server.server.onclose = () => {
    prevClose?.();
    for (const m of meters.values()) m.dispose();
  };
  return server;
}
