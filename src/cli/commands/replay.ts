import type { Command } from '../commander.js';
import path from 'node:path';
import { ExitCode, formatOption, io } from '../shared.js';

interface ReplayCliOptions {
  root?: string;
  digest?: string;
  id?: string;
  print?: boolean;
  format: 'context' | 'markdown' | 'json';
}

export function register(program: Command): void {
  program
    .command('replay')
    .argument('<rev>', 'commit whose recorded bundles to rebuild')
    .description('Rebuild bundles recorded on a commit from its objects and check that the digest still matches (exit 1 when not)')
    .option('-C, --root <dir>', 'repository to work on (default: the current directory)')
    .option('--digest <digest>', 'only the bundle with this digest (a prefix is enough)')
    .option('--id <id>', 'only bundles assembled for this id')
    .option('--print', 'also print the rebuilt bundle(s) on stdout')
    .addOption(formatOption(['context', 'markdown', 'json'], 'context'))
    .action(async (rev: string, o: ReplayCliOptions) => {
      const { replayBundles, renderBundle } = await import('../../assemble/index.js');
      const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
      const results = await replayBundles({ cwd, rev, digest: o.digest, id: o.id, staleness: (await import('./context.js')).staleHook });
      let failed = 0;
      for (const r of results) {
        const m = r.manifest;
        if (r.ok) io().err(`ok        ${m.root} ${m.digest} (${m.commit.slice(0, 12)})\n`);
        else {
          failed++;
          io().err(`MISMATCH  ${m.root} ${m.digest} (${m.commit.slice(0, 12)}): the rebuilt bundle differs from the recorded one\n${r.differences.map((d) => `  ${d}\n`).join('')}`);
        }
        if (o.print) io().out(renderBundle(r.bundle, o.format));
      }
      if (failed) throw new ExitCode(1);
    });
}
