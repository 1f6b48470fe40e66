import { sourceMark } from '../../artifacts/sources/federated-file.js';
import type { Command } from '../commander.js';
import type { Artifact } from '../../artifacts/types.js';
import { CtxError } from '../../errors.js';
import { closeMatches } from '../../util/close-match.js';
import { addRepoOptions, colors, formatOption, idColumn, io, loadRepo, zeroConfigJson, type RepoOptions } from '../shared.js';

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
    .option('--json', 'shorthand for --format json')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  git ctx list                          # every artifact',
        '  git ctx list --type decision,spec     # only decisions and specs (an unknown type is an error)',
        '  git ctx list --status accepted --json',
        '  git ctx list --at v1.2.0              # as of a tag',
        '',
        'Exit codes: 0 listed (possibly nothing), 2 usage or environment error.',
      ].join('\n'),
    );
  addRepoOptions(cmd).action(async (o: ListOptions) => {
    const repo = await loadRepo(o);
    try {
      const types = Object.keys(repo.config.types);
      const wanted = o.type?.flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean);
      const unknown = (wanted ?? []).filter((t) => !types.includes(t));
      if (unknown.length) {
        // `decisions` for `decision`, `spec` for a typo: an empty list would look like "none exist"
        const near = [...new Set(unknown.flatMap((t) => closeMatches(t.replace(/s$/, ''), types, 1).concat(closeMatches(t, types, 1))))];
        throw new CtxError('USAGE', `unknown artifact type${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`, {
          hint: `${near.length ? `did you mean ${near.join(', ')}? ` : ''}the types are: ${types.join(', ')}`,
        });
      }
      o.type = wanted;
      const items = [...repo.set.byId.values()]
        .filter((a) => !o.type || o.type.includes(a.type))
        .filter((a) => !o.status || (a.status !== undefined && o.status.includes(a.status)))
        .filter((a) => !o.scope || a.scope === o.scope)
        .map(listEntry);
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify({ version: 1, ...zeroConfigJson(repo.config), artifacts: items }, null, 2) + '\n');
        return;
      }
      const p = colors();
      const idCol = idColumn(items.map((i) => i.id));
      const tw = Math.max(4, ...items.map((i) => i.type.length));
      // a person reads this: an agent's record not yet confirmed says so (DEC-054)
      const conf = (id: string) => String(repo.set.byId.get(id)?.data?.confidence ?? '');
      for (const i of items) io().out(`${idCol.cell(i.id, p.bold)}  ${i.type.padEnd(tw)}  ${(i.status ?? '-').padEnd(10)}  ${i.title}${conf(i.id) ? p.dim(`  (${conf(i.id)})`) : ''}${sourceMark(i.file) ? p.dim(`  [from ${sourceMark(i.file)}]`) : ''}\n`);
      if (!items.length) io().err('no artifacts match\n');
      for (const pr of repo.set.problems) io().err(`${p.yellow('warning')} ${pr.file}${pr.line ? `:${pr.line}` : ''}: ${pr.message}\n`);
    } finally {
      repo.close();
    }
  });
}
