// @spec SPEC-AUTHORING-001

import type { Command } from '../commander.js';
import { rejectRecord } from '../../authoring/review.js';
import { addRepoOptions, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';

interface ReviewOptions extends RepoOptions {
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('reject')
    .argument('<id>', 'the proposed record')
    .description("Reject a proposed record: status rejected (or the type's equivalent), written in place; the record stays as history")
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText('after', '\nNothing is committed: commit the change with the code it belongs to.\nExit codes: 0 written (or already so), 2 unknown id or usage error.');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (id: string, o: ReviewOptions) => {
    if (o.json) o.format = 'json';
    const repo = await loadRepo(o);
    try {
      const r = await rejectRecord(repo.snapshot.root, repo.set, id);
      if (o.format === 'json') io().out(JSON.stringify({ version: 1, ...r }, null, 2) + '\n');
      else io().out(`${r.id}: status ${r.status}${r.changed ? '' : ' (already)'}  ${r.file}${r.sidecar ? `  (+ ${r.sidecar})` : ''}\n`);
    } finally {
      repo.close();
    }
  });
}
