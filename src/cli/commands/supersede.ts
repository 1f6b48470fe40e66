import type { Command } from '../commander.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { supersedeArtifact } from '../../staleness/lifecycle.js';
import { addRepoOptions, io, loadRepo, type RepoOptions } from '../shared.js';

interface SupersedeCliOptions extends RepoOptions {
  by: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('supersede')
    .argument('<old>', 'the artifact being replaced')
    .requiredOption('--by <new>', 'the artifact that replaces it')
    .description('Record that <new> supersedes <old>: relations.supersedes on <new>, status superseded on <old>');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (old: string, o: SupersedeCliOptions) => {
    const repo = await loadRepo(o);
    try {
      const res = await supersedeArtifact(repo.snapshot.root, repo.config, repo.set, requireArtifact(repo.set, old), requireArtifact(repo.set, o.by));
      const [n, od] = res;
      io().out(`${n!.id} supersedes ${od!.id}${n!.changed ? '' : ' (already recorded)'}\n${od!.id}: status superseded${od!.changed ? '' : ' (already)'}\n`);
    } finally {
      repo.close();
    }
  });
}
