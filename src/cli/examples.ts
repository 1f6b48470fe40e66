// @spec SPEC-CLI-001
import type { Command } from './commander.js';

/**
 * Examples shown at the end of each command's --help (and so in the man page), keyed by the
 * command path. Commands that write their own "Examples:" block (check, list, new, hooks
 * install) are not listed here. A new command adds its entry; test/cli/conventions.test.ts
 * checks that every command has one.
 */
export const EXAMPLES: Record<string, string[]> = {
  context: [
    'git ctx TASK-042                       # short for: git ctx context TASK-042',
    'git ctx context TASK-042 --budget 8000 --format markdown',
    'git ctx context SPEC-API-001 --depth summary --max-depth 1',
    'git ctx context TASK-042 --record      # keep the manifest as a git note',
  ],
  show: ['git ctx show DEC-0032', 'git ctx show SPEC-API-001 --depth meta --json', 'git ctx show ADR-32   # near misses get a suggestion (ADR-0032)'],
  trace: ['git ctx trace src/billing/invoice.ts', 'git ctx trace src/billing/invoice.ts:42', "git ctx trace 'src/billing/invoice.ts#InvoiceGenerator.generate' --json"],
  graph: ["git ctx graph 'src/billing/invoice.ts#InvoiceGenerator.generate'", "git ctx graph 'src/api.ts#handler' --callers --depth 2"],
  impact: ['git ctx impact DEC-0032                     # code it governs, records relying on it', "git ctx impact 'src/billing/invoice.ts#InvoiceGenerator.generate' --depth 2", 'git ctx impact src/billing/ --json                  # every file of a directory', 'git ctx impact SPEC-API-001 --reverse               # what the record relies on'],
  stale: ['git ctx stale                          # what needs attention', 'git ctx stale SPEC-BILLING-001 --all', 'git ctx stale --since v1.0.0 --fail-on moved --json'],
  stamp: ['git ctx stamp SPEC-BILLING-001', 'git ctx stamp --all', 'git ctx stamp --fix                   # re-stamp moved anchors only'],
  ack: ['git ctx ack SPEC-BILLING-001          # after reviewing the drifted code', 'git ctx ack DEC-0032 --json'],
  deprecate: ['git ctx deprecate NORM-007 --reason "replaced by the lint rule"'],
  supersede: ['git ctx supersede DEC-0012 --by DEC-0032'],
  add: [
    'git ctx add --decision "Store idempotency keys in Redis for 24 hours" --rationale "retried webhooks must not charge twice" --paths "src/payments/**"',
    'git ctx add --decision "Use Postgres for reporting" --in docs/adr      # in the folder\'s ADR format',
    'git ctx add --decision "…" --dry-run --format json                   # similar decisions, nothing written',
    'git ctx add "Move the event store from PostgreSQL to DynamoDB" --supersedes ADR-0002   # record what it replaces',
    'git ctx add                                                          # on a terminal: write it in $EDITOR',
    'git ctx add --propose --session "$SESSION" --decision "Verify webhook signatures before processing"',
  ],
  proposals: ['git ctx proposals                      # proposed records, oldest first', 'git ctx proposals --json'],
  confirm: ['git ctx confirm DEC-014', 'git ctx confirm ADR-0031 --format json'],
  reject: ['git ctx reject DEC-014'],
  activate: ['git ctx activate NORM-007                # back in force after git ctx deprecate', 'git ctx activate ADR-0012 --status accepted'],
  init: ['git ctx init', 'git ctx init -C path/to/repo --json'],
  bundles: ['git ctx bundles                       # every recorded bundle', 'git ctx bundles HEAD --json'],
  replay: ['git ctx replay HEAD', 'git ctx replay v1.2.0 --id TASK-042 --print'],
  hooks: ['git ctx hooks install', 'git ctx hooks install --uninstall'],
  hook: ['git ctx hook pre-commit               # what the installed hook runs', 'git ctx hook pre-commit --all-rules --json'],
  'hook pre-commit': ['git ctx hook pre-commit', 'git ctx hook pre-commit --baseline .ctx-baseline.json', 'GIT_CTX_SKIP=1 git commit -m wip    # skip it once'],
  pr: ['git ctx pr                            # base: the upstream or origin/HEAD merge base', 'git ctx pr --base origin/main --format json', 'git ctx pr --base main --fail-on stale', 'git ctx pr --base main --all          # the whole report, as the job summary has it', 'git ctx pr --format sarif > pr.sarif'],
'vectors status': ['git ctx vectors status', 'git ctx vectors status --json'],
  'vectors embed': ['git ctx vectors embed                 # embed every record now (searches do it on demand)', 'GIT_CTX_EMBED_PROVIDER=openai GIT_CTX_EMBED_URL=http://127.0.0.1:11434 GIT_CTX_EMBED_MODEL=nomic-embed-text git ctx vectors embed'],
  'vectors clean': ['git ctx vectors clean                 # drop vectors of records that no longer exist', 'git ctx vectors clean --all           # every provider\'s vectors'],
  cache: ['git ctx cache status                  # what is cached, how big, the limit', 'git ctx cache clean                   # delete this clone\'s caches'],
  sources: ['git ctx sources update                # pin every git source, say what changed', 'git ctx sources status                # how far each pin is behind', 'git ctx sources fetch                 # fetch the pinned copies into this clone'],
  'sources update': ['git ctx sources update', 'git ctx sources update standards      # only the source named standards', 'git ctx sources update --json'],
  'sources status': ['git ctx sources status', 'git ctx sources status --json'],
  'sources fetch': ['git ctx sources fetch', 'git ctx sources fetch standards'],
  'cache status': ['git ctx cache status', 'git ctx cache status --json', 'git ctx cache status --prune          # delete the oldest caches until under the limit', 'GIT_CTX_CACHE_LIMIT_MB=128 git ctx cache status --prune'],
  'cache clean': ['git ctx cache clean', 'git ctx cache clean --all             # also agent-session memories and the per-user V8 code cache'],
  rules: ['git ctx rules export                 # AGENTS.md plus the rule files already present', 'git ctx rules export --check         # exit 1 when a rule file is out of date', 'git ctx rules import --dry-run'],
  'hook agent-read': ['git ctx hooks install --agent claude   # writes the settings that call this on every Read', 'echo \'{"session_id":"s1","tool_name":"Read","tool_input":{"file_path":"src/a.ts"}}\' | git ctx hook agent-read'],
  'hook install': ['git ctx hooks install          # what this mistyped form points at'],
  episodes: ['git ctx episodes --since 1d                # what retrieval answered today', 'git ctx episodes --place src/billing --json', 'git ctx episodes --session 7f3a… --limit 10', 'git ctx episodes 0mh2k1x9a3f2c1         # one episode: lanes, references, feedback'],
  feedback: ['git ctx feedback 0mh2k1x9a3f2c1 --useful DEC-007 --missing NORM-003', "git ctx feedback 0mh2 --not-useful DEC-001,DEC-002 --note 'old decisions'"],
  eval: ['git ctx eval                          # replay every episode with feedback', 'git ctx eval --since 2w --json', 'git ctx eval --min-recall 0.8         # exit 1 below: a regression gate', 'git ctx eval --learn                  # what feedback ranking would reorder, within slots'],
  mcp: ['git ctx mcp                           # the stdio server an agent starts', 'git ctx mcp config --client claude-code'],
};

/** Add each command's examples to its --help (after any text it added itself). */
export function addExamples(cmd: Command, prefix = ''): void {
  for (const sub of cmd.commands) {
    const key = prefix ? `${prefix} ${sub.name()}` : sub.name();
    const lines = EXAMPLES[key];
    if (lines) sub.addHelpText('after', ['', 'Examples:', ...lines.map((l) => `  ${l}`)].join('\n'));
    addExamples(sub, key);
  }
}
