import type { Command } from '../commander.js';
import path from 'node:path';
import { formatOption, io } from '../shared.js';

interface BundlesOptions {
  root?: string;
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('bundles')
    .argument('[rev]', 'only bundles recorded on this commit (default: every annotated commit)')
    .description('List context bundles recorded with --record (git notes under refs/notes/ctx)')
    .option('-C, --root <dir>', 'repository to work on (default: the current directory)')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .action(async (rev: string | undefined, o: BundlesOptions) => {
      const { listManifests } = await import('../../assemble/record.js');
      const { findRepoRoot } = await import('../../snapshot/open.js');
      const root = await findRepoRoot(o.root ? path.resolve(io().cwd, o.root) : io().cwd);
      const ms = await listManifests(root, rev);
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify({ schemaVersion: 1, bundles: ms }, null, 2) + '\n');
        return;
      }
      if (!ms.length) {
        io().err(`no recorded bundles${rev ? ` on ${rev}` : ''} (record one with git ctx context <id> --record)\n`);
        return;
      }
      for (const m of ms) {
        const opt = m.options;
        io().out(
          `${m.commit.slice(0, 12)}  ${m.root}  ${m.digest.slice(0, 19)}  ${m.entries.length} entries  depth=${opt.depth} budget=${opt.budget ?? 'none'} encoding=${opt.encoding} max-depth=${opt.maxDepth ?? 'none'}${opt.global ? ' global' : ''}  git-ctx ${m.tool}\n`,
        );
      }
    });
}
