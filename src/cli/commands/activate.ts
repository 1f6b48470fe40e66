// @spec SPEC-AUTHORING-001

import type { Command } from '../commander.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { activateArtifact } from '../../staleness/lifecycle.js';
import { addRepoOptions, io, loadRepo, type RepoOptions } from '../shared.js';

interface ActivateCliOptions extends RepoOptions {
  status?: string;
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('activate')
    .argument('<id>', 'artifact to put back in force')
    .description("Reverse deprecate: the status back to the type's in-force one (accepted, active, …) and deprecated_reason removed; ADR records change only their status line")
    .option('--status <status>', "the in-force status to write (default: accepted, else active, in the type's vocabulary)")
    .option('--json', 'print {id, file, status, changed} as JSON')
    .addHelpText('after', '\nExit codes: 0 activated (or already in force), 2 unknown id, a superseded record, a global artifact or an unknown status.');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (id: string, o: ActivateCliOptions) => {
    const repo = await loadRepo(o);
    try {
      const r = await activateArtifact(repo.snapshot.root, repo.config, requireArtifact(repo.set, id), o.status, repo.set);
      if (o.json) io().out(JSON.stringify({ version: 1, ...r }, null, 2) + '\n');
      else io().out(`${r.id}: status ${r.status}${r.changed ? '' : ' (already)'}  ${r.file}\n`);
    } finally {
      repo.close();
    }
  });
}
