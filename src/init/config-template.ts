import { Document } from 'yaml';
import { defaultConfig, type Config } from '../config.js';

/** A YAML scalar or flow list as it must be written to read back as the same value. */
function y(v: unknown): string {
  const doc = new Document(v, { version: '1.1' });
  const node = doc.contents as { flow?: boolean } | null;
  if (node && Array.isArray(v)) node.flow = true;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false }).trimEnd();
}

/**
 * The commented config.yaml that `git ctx init` writes: every documented default, spelled
 * out so people can see what to change. It parses back (loadConfig) to exactly `cfg`.
 */
export function renderConfigYaml(cfg: Config = defaultConfig()): string {
  const L: string[] = [];
  L.push(
    '# git-ctx configuration. Every value below is the built-in default; delete a key to',
    '# keep the default, or change it. Unknown keys are reported by `git ctx check`.',
    '',
    '# folder (from the repository root) that holds the artifacts',
    `dir: ${y(cfg.dir)}`,
    '',
    '# further folders of records read in place, each with its format: adr (decision records',
    '# without frontmatter: Nygard, MADR, log4brains, rst, AsciiDoc, hand-written) or contextia.',
    '# prefix + the number in a file name is a record\'s id (0048-x.md → ADR-0048).',
    cfg.sources.length ? 'sources:' : 'sources: []',
    ...cfg.sources.flatMap((src) => [`  - dir: ${y(src.dir)}`, `    format: ${y(src.format)}`, `    prefix: ${y(src.prefix)}`, `    type: ${y(src.type)}`]),
    '',
    '# statuses as records write them (case-insensitive) → a status of the type; added to the',
    '# built-in table (decided, adopted, implemented, done → accepted; draft, in review → proposed; …)',
    Object.keys(cfg.status_map).length ? 'status_map:' : 'status_map: {}',
    ...Object.entries(cfg.status_map).map(([k, v]) => `  ${y(k)}: ${y(v)}`),
    '',
    '# artifact types: the id prefix `git ctx new` uses, the folder new files go to,',
    '# the allowed statuses (empty = any) and the statuses that mean "no longer in force".',
    '# Add your own types here; `type:` in the frontmatter, not the folder, decides the type.',
    'types:',
  );
  for (const [name, t] of Object.entries(cfg.types)) {
    L.push(`  ${name}:`, `    prefix: ${y(t.prefix)}`, `    dir: ${y(t.dir)}`, `    statuses: ${y(t.statuses)}`, `    inactive: ${y(t.inactive)}`);
  }
  L.push(
    '',
    '# check rule severities by rule id (error | warning | info | off); see `git ctx check --list-rules`',
    '# e.g.  path-glob-matches-nothing: error',
    Object.keys(cfg.severities).length ? 'severities:' : 'severities: {}',
  );
  for (const [rule, sev] of Object.entries(cfg.severities)) L.push(`  ${rule}: ${y(sev)}`);
  L.push(
    '',
    '# `git ctx check` exits 1 on findings at or above this severity (error | warning | info)',
    `fail_on: ${y(cfg.fail_on)}`,
    '',
    '# order of kinds in an assembled bundle',
    `order: ${y(cfg.order)}`,
    '',
    '# annotation tags recognised in source comments (// @spec SPEC-…)',
    `tags: ${y(cfg.tags)}`,
    '',
    "# include global artifacts from the user's config directory (~/.config/git-ctx/global)",
    `global: ${y(cfg.global)}`,
    '',
    '# context assembly (git ctx TASK-…)',
    'assemble:',
    '  # token budget of a bundle; no budget when unset',
    cfg.assemble.budget === undefined ? '  # budget: 8000' : `  budget: ${cfg.assemble.budget}`,
    '  # tiktoken encoding used to count tokens',
    `  encoding: ${y(cfg.assemble.encoding)}`,
    '  # how far links and requires are followed; unlimited when unset',
    cfg.assemble.max_depth === undefined ? '  # max_depth: 3' : `  max_depth: ${cfg.assemble.max_depth}`,
    '  # detail of included artifacts before the budget lowers it (meta | summary | full)',
    `  depth: ${y(cfg.assemble.depth)}`,
    '',
    '# code anchors (@spec/@decision annotations and paths:)',
    'anchors:',
    '  # report annotation/paths mismatches in both directions',
    `  strict_bidirectional: ${y(cfg.anchors.strict_bidirectional)}`,
    '  # globs of source files to scan (empty = every file git knows)',
    `  include: ${y(cfg.anchors.include)}`,
    `  exclude: ${y(cfg.anchors.exclude)}`,
    '',
    'staleness:',
    '  # a proposed decision whose code has shipped for this many days is reported',
    `  proposed_shipped_days: ${cfg.staleness.proposed_shipped_days}`,
    '  # files left out of glob and directory fingerprints (test files), unless a glob matches only such files',
    `  glob_ignore: ${y(cfg.staleness.glob_ignore)}`,
    '  # what makes `git ctx stale` exit 1 (stale | moved | unstamped | never); stale when unset',
    cfg.staleness.fail_on === undefined ? '  # fail_on: stale' : `  fail_on: ${y(cfg.staleness.fail_on)}`,
    '',
    'hook:',
    '  # the pre-commit hook on commits that change anchored code without re-stamping (warn | block)',
    `  drift: ${y(cfg.hook.drift)}`,
    '',
    'check:',
    '  # an active task whose file has not changed for this many days is reported (info)',
    `  task_stale_days: ${cfg.check.task_stale_days}`,
    '  # a record an agent wrote that no one confirmed (git ctx confirm) for this many days is reported (info)',
    `  proposal_unconfirmed_days: ${cfg.check.proposal_unconfirmed_days}`,
    '',
    'limits:',
    '  # source files larger than this are not scanned for annotations (reported as code-file-skipped)',
    `  max_file_bytes: ${cfg.limits.max_file_bytes}`,
    '',
    'ungovernable:',
    '  # files no record can govern, beside lockfiles, linguist-generated/vendored, @generated headers, vendor/, binaries and snapshots:',
    '  # the PR report and change retrieval count them and never score them',
    `  paths: ${y(cfg.ungovernable.paths)}`,
    '',
    '# git ctx for / search: results per band, relation hops, and reordering by recorded feedback',
    'retrieval:',
    `  declared: ${cfg.retrieval.declared}`,
    `  fused: ${cfg.retrieval.fused}`,
    `  links: ${cfg.retrieval.links}`,
    `  link_depth: ${cfg.retrieval.link_depth}`,
    `  feedback_ranking: ${y(cfg.retrieval.feedback_ranking)}`,
    '',
    '# the semantic lane: default (offline word vectors) | openai | gemini | onnx | off; also model, url, threshold',
    'semantic:',
    `  provider: ${y(cfg.semantic.provider)}`,
    '',
    '# git ctx rules export / verify: formats (empty = AGENTS.md and the files already there), record types, token budget',
    'rule_files:',
    `  formats: ${y(cfg.rule_files.formats)}`,
    `  types: ${y(cfg.rule_files.types)}`,
    `  budget: ${cfg.rule_files.budget}`,
    '  # include the records about how records are kept ("Record architecture decisions" and the like)',
    `  include_meta: ${y(cfg.rule_files.include_meta)}`,
    '  # size limits per tool in characters, e.g. { claude: 30000 }',
    `  limits: ${y(cfg.rule_files.limits)}`,
    '',
    '# record retrieval episodes in the evidence store (GIT_CTX_NO_RECORD=1 also turns it off)',
    `record: ${y(cfg.record)}`,
    '',
    '# evidence store retention',
    'evidence:',
    `  max_episodes: ${cfg.evidence.max_episodes}`,
    `  max_age_days: ${cfg.evidence.max_age_days}`,
    '',
  );
  return L.join('\n');
}
