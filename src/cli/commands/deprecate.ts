import type { Command } from '../commander.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { deprecateArtifact } from '../../staleness/lifecycle.js';
import { addRepoOptions, io, loadRepo, type RepoOptions } from '../shared.js';

interface DeprecateCliOptions extends RepoOptions {
  reason?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('deprecate')
    .argument('<id>', 'artifact to deprecate')
    .description('Mark an artifact deprecated (it stays, with its history; nothing is deleted)')
    .option('--reason <text>', 'why (written as deprecated_reason)');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (id: string, o: DeprecateCliOptions) => {
    const repo = await loadRepo(o);
    try {
      const r = await deprecateArtifact(repo.snapshot.root, repo.config, requireArtifact(repo.set, id), o.reason, repo.set);
      io().out(`${r.id}: status deprecated${r.changed ? '' : ' (already)'}  ${r.file}\n`);
    } finally {
      repo.close();
    }
  });
}
