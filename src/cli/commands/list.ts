import type { Command } from '../commander.js';
import type { Artifact } from '../../artifacts/types.js';
import { addRepoOptions, colors, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';

interface ListOptions extends RepoOptions {
  type?: string[];
  status?: string[];
  scope?: string;
  format: 'human' | 'json';
  json?: boolean;
}

/** The fields every listing shows. */
export function listEntry(a: Artifact) {
  return { id: a.id, type: a.type, title: a.title, status: a.status ?? null, scope: a.scope, summary: a.summary ?? null, file: a.file };
}

export function register(program: Command): void {
  const cmd = program
    .command('list')
    .description('List artifacts (frontmatter only)')
    .option('-t, --type <type...>', 'only these types')
    .option('-s, --status <status...>', 'only these statuses')
    .option('--scope <scope>', 'only this scope (global, domain, project)')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json');
  addRepoOptions(cmd).action(async (o: ListOptions) => {
    const repo = await loadRepo(o);
    try {
      const items = [...repo.set.byId.values()]
        .filter((a) => !o.type || o.type.includes(a.type))
        .filter((a) => !o.status || (a.status !== undefined && o.status.includes(a.status)))
        .filter((a) => !o.scope || a.scope === o.scope)
        .map(listEntry);
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify({ version: 1, artifacts: items }, null, 2) + '\n');
        return;
      }
      const p = colors();
      const w = Math.max(2, ...items.map((i) => i.id.length));
      const tw = Math.max(4, ...items.map((i) => i.type.length));
      for (const i of items) io().out(`${p.bold(i.id.padEnd(w))}  ${i.type.padEnd(tw)}  ${(i.status ?? '-').padEnd(10)}  ${i.title}\n`);
      if (!items.length) io().err('no artifacts match\n');
      for (const pr of repo.set.problems) io().err(`${p.yellow('warning')} ${pr.file}${pr.line ? `:${pr.line}` : ''}: ${pr.message}\n`);
    } finally {
      repo.close();
    }
  });
}
