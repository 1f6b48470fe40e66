import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { RULE_FORMATS, SECTION_FILES, type RuleFormat } from '../../rules/formats.js';
import { writeFileAtomic, writeFilesAtomic } from '../../util/atomic.js';
import { containedPath, mkdirContained } from '../../util/contained.js';
import { loadArtifactSet } from '../../artifacts/load.js';
import { addRepoOptions, colors, ExitCode, io, loadRepo, noteZeroConfig, openRepo, parsePositiveInt, type RepoOptions } from '../shared.js';
import { plural } from '../../util/plural.js';

interface RulesExportCliOptions extends RepoOptions {
  format?: RuleFormat[];
  budget?: number;
  check?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

interface RulesVerifyCliOptions extends RepoOptions {
  format?: RuleFormat[];
  json?: boolean;
  limit?: Record<string, number>;
}

interface RulesImportCliOptions extends RepoOptions {
  format?: RuleFormat[];
  dryRun?: boolean;
  json?: boolean;
}

/**
 * The repository with its records loaded, and the token counter of rule files. With no token
 * counts cached yet (a first export) the encoder is built on a worker while the records load.
 */
async function openWithCounter(o: RepoOptions) {
  const { rulesCounter, startEncoder, hasCountCache } = await import('../../rules/counter.js');
  const { snapshot, config } = await openRepo(o);
  const encoder = hasCountCache(snapshot.root, config.assemble.encoding) ? undefined : startEncoder(config.assemble.encoding);
  let set;
  try {
    set = await loadArtifactSet(snapshot, config, { global: o.global || undefined });
    noteZeroConfig(config);
  } catch (e) {
    snapshot.close();
    encoder?.stop();
    throw e;
  }
  const repo = { snapshot, config, set, close: () => (snapshot.close(), encoder?.stop()) };
  return { repo, counter: rulesCounter(snapshot.root, config, { encoder }) };
}

const formatOpt = () =>
  new Option('--format <format>', 'a rule-file format (repeatable); default: config rule_files.formats, else AGENTS.md plus every format already present')
    .choices([...RULE_FORMATS])
    .argParser((v: string, prev: RuleFormat[] | undefined) => {
      if (!(RULE_FORMATS as readonly string[]).includes(v)) throw new CtxError('USAGE', `unknown rule-file format ${JSON.stringify(v)}`, { hint: `use ${RULE_FORMATS.join(', ')}` });
      return [...(prev ?? []), v as RuleFormat];
    });

/** A repository-relative path resolved inside the root, refusing anything that leaves it or passes through a link. */
const inside = (root: string, rel: string): Promise<string> => containedPath(root, rel);

/** What the budget did to a file: records shortened to their summary and left out, and the limits that applied. */
function budgetNote(f: { lowered: string[]; dropped: string[]; room?: number }, budget: number): string {
  const limits = f.room !== undefined ? `${budget} tokens, ${f.room} bytes beside the file's own text` : `${budget} tokens`;
  return `${f.lowered.length} as summaries, ${f.dropped.length} left out: ${limits}`;
}

export function register(program: Command): void {
  const rules = program.command('rules').description("Keep agents' rule files (AGENTS.md, CLAUDE.md, GEMINI.md, Cursor, Copilot, Claude Code rules, Kiro, Windsurf) in sync with the records");

  const exp = rules
    .command('export')
    .description('Write the active norms and decisions into the agents\u2019 rule files (managed sections and generated files only)')
    .addOption(formatOpt())
    .option('--budget <tokens>', 'tokens each rule file may hold (default: config rule_files.budget, 8000)', parsePositiveInt('--budget'))
    .option('--check', 'write nothing; exit 1 when a file would change (for CI)')
    .option('--dry-run', 'write nothing; list what would change')
    .option('--json', 'print the plan as JSON')
    .addHelpText(
      'after',
      [
        '',
        'Formats: agents (AGENTS.md), claude (CLAUDE.md), gemini (GEMINI.md), cursor (.cursor/rules/<id>.mdc: globs),',
        'copilot (.github/instructions/<id>.instructions.md: applyTo, for records with paths; a section of',
        '.github/copilot-instructions.md for the rest), claude-rules (.claude/rules/<id>.md: paths, for records',
        'with paths; a section of CLAUDE.md for the rest), kiro (.kiro/steering/<id>.md: fileMatchPattern;',
        'inclusion always for norms without paths) and windsurf (.windsurf/rules/<id>.md: trigger glob + globs;',
        'always_on for norms without paths). A format counts as present when its folder exists, even empty.',
        'The decision-records meta-record ("Record architecture decisions") is left out unless rule_files.include_meta;',
        'so are proposals (status proposed or draft) until a person accepts them (git ctx confirm <id>).',
        'In AGENTS.md, CLAUDE.md, GEMINI.md and copilot-instructions.md only the part between',
        '<!-- git-ctx:rules:begin --> and <!-- git-ctx:rules:end --> is written; the rest is kept byte for byte.',
        'Superseded, deprecated and other inactive records never appear. Each file fits the token budget',
        '(--budget, rule_files.budget); a managed section also fits what its agent reads of the file, less',
        "the file's own text: AGENTS.md 32 KiB (Codex), CLAUDE.md 40,000 characters (Claude Code),",
        'copilot-instructions.md 4,000 (rule_files.limits changes them). Records go in full while they fit,',
        'then as their summaries; the section names the records left out, and the listing counts them.',
        '',
        'Examples:',
        '  git ctx rules export                       # AGENTS.md + every format already in the repository',
        '  git ctx rules export --budget 3000         # a smaller section: more records as summaries or left out',
        '  git ctx rules export --format cursor --format claude',
        '  git ctx rules export --check               # CI: exit 1 when the rule files lag behind the records',
        'Exit codes: 0 written (or up to date), 1 --check found files to update, 2 error.',
      ].join('\n'),
    );
  addRepoOptions(exp, { at: false, staged: false }).action(async (o: RulesExportCliOptions) => {
    const { planRuleFiles } = await import('../../rules/export.js');
    const { repo, counter } = await openWithCounter(o);
    try {
      // no counter.free(): the process exits next, and freeing the encoder's 200k-entry table costs 0.1-0.3 s
      const plan = await planRuleFiles({ snapshot: repo.snapshot, config: repo.config, set: repo.set, formats: o.format, counter, ...(o.budget !== undefined ? { budget: o.budget } : {}) });
      const changed = plan.files.filter((f) => f.changed);
      const write = !o.check && !o.dryRun;
      if (write) {
        // Generated whole files (.mdc, .instructions.md) are derived from the records and
        // rewritten by running export again: replaced atomically but not fsynced one by one.
        // Files holding the user's own text around a managed section are fsynced (DEC-024).
        const dirs = new Map<string, string>();
        for (const d of new Set(changed.filter((f) => f.content !== null).map((f) => path.posix.dirname(f.path)))) dirs.set(d, d === '.' ? repo.snapshot.root : await mkdirContained(repo.snapshot.root, d));
        const sectionFiles = new Set(Object.values(SECTION_FILES));
        const batch = [];
        for (const f of changed) {
          const dir = dirs.get(path.posix.dirname(f.path));
          const base = path.posix.basename(f.path);
          // the folder was checked once; a plain name inside it cannot leave it (a link at the name itself is refused by the writer)
          const abs = dir && base !== '..' && base !== '.' ? path.join(dir, base) : await inside(repo.snapshot.root, f.path);
          batch.push({ file: abs, data: f.content, durable: sectionFiles.has(f.path) });
        }
        await writeFilesAtomic(batch);
      }
      if (o.json) {
        const files = plan.files.map(({ path: p, format, changed: c, content, ids, lowered, dropped, room }) => ({ path: p, format, action: !c ? 'unchanged' : content === null ? 'remove' : 'write', ids, lowered, dropped, ...(room !== undefined ? { room } : {}) }));
        io().out(JSON.stringify({ version: 1, formats: plan.formats, budget: plan.budget, records: plan.ids, pending: plan.pending, written: write, files }, null, 2) + '\n');
      } else {
        const p = colors();
        const verb = (f: (typeof plan.files)[number]) => (f.content === null ? (write ? 'removed' : 'would remove') : f.current === undefined ? (write ? 'created' : 'would create') : write ? 'updated' : 'would update');
        // one write for the whole listing: a first export lists thousands of files
        const lines = changed.map((f) => `${p.green(verb(f).padEnd(12))} ${f.path}${f.lowered.length || f.dropped.length ? p.dim(`  (${budgetNote(f, plan.budget)})`) : ''}\n`);
        lines.push(p.dim(`${plural(plan.ids.length, 'record')} into ${plan.formats.join(', ') || 'no format'}: ${plural(changed.length, 'file')} ${write ? 'changed' : 'to change'}, ${plan.files.length - changed.length} up to date\n`));
        if (plan.pending.length) lines.push(p.dim(`left out, still proposals: ${plan.pending.join(', ')} (git ctx confirm <id> accepts one)\n`));
        io().out(lines.join(''));
      }
      if (o.check && changed.length) throw new ExitCode(1);
    } finally {
      repo.close();
    }
  });

  const ver = rules
    .command('verify')
    .description('Prove each path-scoped rule loads: read every rule file as its tool does, match it against the files, report what agents pay')
    .addOption(formatOpt())
    .option('--json', 'print the report as JSON')
    .addOption(
      new Option('--limit <tool=chars>', 'warn when a tool loads more characters than this on every request (repeatable; default: the tool\u2019s own limit, or rule_files.limits)').argParser((v: string, prev: Record<string, number> | undefined) => {
        const m = /^([a-z-]+)=(\d+)$/.exec(v);
        if (!m) throw new CtxError('USAGE', `--limit takes tool=characters, not ${JSON.stringify(v)}`, { hint: 'e.g. --limit claude=30000' });
        return { ...(prev ?? {}), [m[1]!]: Number(m[2]) };
      }),
    )
    .addHelpText(
      'after',
      [
        '',
        'Rule files are checked as export would leave them (generated files as planned, hand-written ones as they are),',
        "each read in its tool's dialect: Cursor globs (one comma-separated string, no quotes, no braces), Copilot",
        'applyTo (comma-separated, case-insensitive), Claude Code paths (a list, braces), Kiro fileMatchPattern (one',
        'pattern or a list), Windsurf globs (comma-separated). A leading ./ is taken literally. Reported: rules that',
        'would never load, patterns a tool misreads (and what it would match instead), ! exclusions a format cannot',
        'express, records scoped differently by two formats, and per tool the tokens loaded on every request and the',
        'most loaded for any one file, with a warning above the tool\u2019s limit (Claude Code 40,000 characters, …).',
        '',
        'Examples:',
        '  git ctx rules verify',
        '  git ctx rules verify --format kiro --json',
        '  git ctx rules verify --limit claude=20000',
        'Exit codes: 0 every scoped rule loads as meant, 1 a rule would never load or is misread, 2 error.',
      ].join('\n'),
    );
  addRepoOptions(ver, { at: false, staged: false }).action(async (o: RulesVerifyCliOptions) => {
    const [{ planRuleFiles }, { verifyRuleFiles }] = await Promise.all([import('../../rules/export.js'), import('../../rules/verify.js')]);
    const { repo, counter } = await openWithCounter(o);
    try {
      const plan = await planRuleFiles({ snapshot: repo.snapshot, config: repo.config, set: repo.set, formats: o.format, counter, intendedOnly: true });
      const report = await verifyRuleFiles({ snapshot: repo.snapshot, set: repo.set, plan, counter, limits: { ...repo.config.rule_files.limits, ...(o.limit ?? {}) } });
      const errors = report.findings.filter((f) => f.severity === 'error').length;
      if (o.json) io().out(JSON.stringify({ version: 1, formats: plan.formats, files: report.files, rules: report.rules, findings: report.findings, costs: report.costs, errors }, null, 2) + '\n');
      else {
        const p = colors();
        const lines: string[] = [];
        for (const f of report.findings) lines.push(`${f.severity === 'error' ? p.red('error  ') : p.yellow('warning')} ${f.kind.padEnd(13)} ${f.message}\n`);
        // thousands with commas, as en-US writes them, without loading ICU's number formats (~15 ms)
        const num = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
        if (report.costs.length) lines.push(p.dim('loaded by each tool (tokens; characters):\n'));
        for (const c of report.costs) {
          const always = `every request ${c.alwaysTokens !== undefined ? num(c.alwaysTokens) + ' tokens; ' : ''}${num(c.alwaysChars)} chars${c.alwaysFiles.length ? ` (${c.alwaysFiles.length} file${c.alwaysFiles.length === 1 ? '' : 's'})` : ''}`;
          const most = c.heaviest ? `, at most +${c.heaviest.tokens !== undefined ? num(c.heaviest.tokens) + ' tokens; ' : ''}${num(c.heaviest.chars)} chars (${c.heaviest.rules} scoped rule${c.heaviest.rules === 1 ? '' : 's'}) for ${c.heaviest.path}` : '';
          lines.push(`  ${c.tool.padEnd(9)} ${always}${most}${c.limit ? p.dim(`  [limit ${num(c.limit.chars)} chars ${c.limit.of === 'file' ? 'per file' : 'per request'}]`) : ''}\n`);
        }
        const warnings = report.findings.length - errors;
        lines.push(p.dim(`${plural(report.rules.length, 'scoped rule')} in ${plan.formats.join(', ') || 'no format'} checked against ${plural(report.files, 'file')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`));
        io().out(lines.join(''));
      }
      if (errors) throw new ExitCode(1);
    } finally {
      repo.close();
    }
  });

  const imp = rules
    .command('import')
    .description('Turn hand-written rule files into norms, once (sections of AGENTS.md & co, Cursor, Copilot, Claude Code, Kiro and Windsurf rule files)')
    .addOption(formatOpt())
    .option('--dry-run', 'write nothing; list the norms that would be created')
    .option('--json', 'print the plan as JSON')
    .addHelpText(
      'after',
      [
        '',
        'Each second-level section of AGENTS.md, CLAUDE.md, GEMINI.md and .github/copilot-instructions.md',
        '(outside the git-ctx managed section) becomes a norm; so does each .cursor/rules/*.mdc,',
        '.github/instructions/*.instructions.md, .claude/rules/*.md, .kiro/steering/*.md and .windsurf/rules/*.md',
        'file that git-ctx did not generate, with its globs/applyTo/paths/fileMatchPattern as paths (and',
        '.cursorrules, .windsurfrules). Each norm records imported_from; a source imported before is skipped. The rule files',
        'themselves are not changed: run git ctx rules export afterwards, then remove the hand-written copies.',
        '',
        'Examples:',
        '  git ctx rules import --dry-run',
        '  git ctx rules import --format cursor && git ctx rules export',
      ].join('\n'),
    );
  addRepoOptions(imp, { at: false, staged: false }).action(async (o: RulesImportCliOptions) => {
    const { planRulesImport } = await import('../../rules/import.js');
    const repo = await loadRepo(o);
    try {
      const plan = await planRulesImport(repo.set, { formats: o.format });
      if (!o.dryRun) {
        for (const n of plan.norms) {
          const abs = await inside(repo.snapshot.root, n.file);
          await mkdir(path.dirname(abs), { recursive: true });
          await writeFileAtomic(abs, n.content, { createOnly: true });
        }
      }
      if (o.json) io().out(JSON.stringify({ version: 1, written: !o.dryRun, norms: plan.norms.map(({ content: _c, ...n }) => n), skipped: plan.skipped, read: plan.read }, null, 2) + '\n');
      else {
        const p = colors();
        for (const n of plan.norms) io().out(`${p.green(o.dryRun ? 'would create' : 'created')} ${n.id}  ${n.title}  ${p.dim(`${n.file} \u2190 ${n.from}`)}\n`);
        for (const s of plan.skipped) io().out(p.dim(`skipped ${s} (imported before)\n`));
        io().out(p.dim(`${plural(plan.norms.length, 'norm')} from ${plural(plan.read.length, 'rule file')}\n`));
      }
    } finally {
      repo.close();
    }
  });
}
