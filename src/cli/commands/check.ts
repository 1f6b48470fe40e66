import { Option, type Command } from '../commander.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkExitCode, renderCheck, type CheckFormat } from '../../check/render.js';
import { baselineJson, readBaseline, ruleCatalog, runCheck } from '../../check/run.js';
import { plural } from '../../util/plural.js';
import { phase } from '../../util/timing.js';
import { ExitCode, addRepoOptions, colors, io, openRepo, formatOption, noteZeroConfig, zeroConfigJson, type RepoOptions } from '../shared.js';

interface CheckCliOptions extends RepoOptions {
  format: CheckFormat;
  json?: boolean;
  baseline?: string;
  writeBaseline?: string;
  failOn?: 'error' | 'warning' | 'info';
  rule?: string[];
  listRules?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('check')
    .description('Check the coherence of .contextia/: frontmatter, ids, links, relations, cycles, paths')
    .addOption(formatOption(['human', 'json', 'sarif'], 'human'))
    .option('--json', 'shorthand for --format json')
    .option('--baseline <file>', 'accept the findings listed in this file (from --write-baseline)')
    .option('--write-baseline <file>', 'write the current findings as a baseline and exit 0')
    .addOption(new Option('--fail-on <severity>', 'lowest severity that makes the exit code 1 (default: config fail_on, else error)').choices(['error', 'warning', 'info']))
    .option('--rule <id...>', 'run only these rules (comma-separated or repeated; an unknown id is an error)')
    .option('--list-rules', 'list every rule with its default severity')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  git ctx check                              # the working tree',
        '  git ctx check --staged --fail-on warning   # what the next commit holds',
        '  git ctx check --rule broken-link,duplicate-id',
        '  git ctx check --format sarif > ctx.sarif   # for code scanning',
        '  git ctx check --write-baseline .ctx-baseline.json',
        '',
        'Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or environment error.',
      ].join('\n'),
    );
  addRepoOptions(cmd).action(async (o: CheckCliOptions) => {
    if (o.listRules) {
      for (const r of ruleCatalog()) io().out(`${r.id.padEnd(28)} ${r.severity.padEnd(8)} ${r.description}\n`);
      return;
    }
    const { snapshot, config, cwd } = await openRepo(o);
    try {
      const baseline = o.baseline ? await readBaseline(path.resolve(cwd, o.baseline)) : undefined;
      // --rule a,b --rule c: comma-separated lists and repeats both work
      const rules = o.rule?.flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean);
      const result = await runCheck({ snapshot, config, baseline, rules, global: o.global || undefined });
      noteZeroConfig(config);
      if (o.writeBaseline) {
        await writeFile(path.resolve(cwd, o.writeBaseline), baselineJson(result.findings));
        io().err(`wrote ${plural(result.findings.length, 'finding')} to ${o.writeBaseline}\n`);
        return;
      }
      phase('render');
      io().out(renderCheck({ ...result, ...zeroConfigJson(config) }, o.json ? 'json' : o.format, colors()));
      const code = checkExitCode(result, o.failOn ?? config.fail_on);
      if (code) throw new ExitCode(code);
    } finally {
      snapshot.close();
    }
  });
}
