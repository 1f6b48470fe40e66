import type { Command } from '../commander.js';
import path from 'node:path';
import { CtxError } from '../../errors.js';
import { initRepo } from '../../init/init.js';
import { findRepoRoot } from '../../snapshot/open.js';
import { ExitCode, colors, io } from '../shared.js';

interface InitCliOptions {
  root?: string;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('init')
    .description('Create .contextia/ with a commented config.yaml (the defaults) and an identity.md detected from the repository')
    .option('-C, --root <dir>', 'repository to work on (default: the current directory)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nDecision-record folders are configured as sources and read in place: first those named by .adr-dir (adr-tools) and .log4brains.yml (log4brains), then folders named adr, decisions, *-decisions, *decision-records, architecture/decisions, … at any depth, with historic*/proposed*/superseded folders, and folders of any name whose numbered files are named adr-001-….md.\n\nNever overwrites: when config.yaml or identity.md exists, init only adds missing folders and exits 2 naming what exists.\nExit codes: 0 created, 2 already initialised or not a git repository.',
    )
    .action(async (o: InitCliOptions) => {
      const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
      const root = await findRepoRoot(cwd);
      const r = await initRepo({ root });
      if (o.json) io().out(JSON.stringify({ version: 1, ...r }, null, 2) + '\n');
      const p = colors();
      if (r.existing.length) {
        for (const f of r.folders) io().err(`added folder ${f}\n`);
        throw new CtxError('EXISTS', `already initialised: ${r.existing.join(', ')} exist${r.existing.length === 1 ? 's' : ''}; nothing was overwritten`, {
          hint: 'edit the existing files by hand, or remove them and run git ctx init again',
        });
      }
      if (!o.json) {
        for (const f of r.created) io().out(`${p.green('created')} ${f}\n`);
        for (const f of r.folders) io().out(`${p.green('created')} ${f}/\n`);
        const id = r.identity;
        io().out(`\n${p.bold(id.name)}: ${id.languages.join(', ') || 'no source languages found'}${id.frameworks.length ? `; ${id.frameworks.join(', ')}` : ''}\n`);
        if (r.sources.length) {
          // a folder a pointer names that holds no record yet (.adr-dir of atlassian/github-for-jira) is no record found
          io().out(`\n${r.sources.some((s) => s.records > 0) ? 'Decision records found' : 'Decision-record folders named, no records yet'}, read in place (sources: in config.yaml):\n`);
          for (const src of r.sources) io().out(`  ${src.dir}/  ${src.records} record${src.records === 1 ? '' : 's'}, ${src.frontmatterId ? `ids from their frontmatter (id: ${src.frontmatterId}, …)` : `ids ${src.prefix}${src.dated ? '<date>-<name>' : src.unnumbered ? '<name>' : '<number>'}`}${src.from ? ` (named by ${src.from})` : ''}\n`);
        }
        for (const u of r.unmapped) io().out(`  ${p.yellow('unmapped status')} ${u.file}${u.line ? `:${u.line}` : ''}: ${u.message}\n`);
        if (r.agentRules.length) io().out(`\nAgent rule files found (kept as they are): ${r.agentRules.join(', ')}\n`);
        io().out(`Next: edit .contextia/identity.md, then "git ctx new decision --title …" and "git ctx check".\n`);
      }
      if (!r.created.length) throw new ExitCode(2);
    });
}
