// @spec SPEC-AUTHORING-001

import type { Command } from '../commander.js';
import type { ArtifactSet } from '../../artifacts/load.js';
import type { ReviewResult } from '../../authoring/review.js';
import { addRepoOptions, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';

interface ReviewOptions extends RepoOptions {
  format: 'human' | 'json';
  json?: boolean;
}

/** `confirm` and `reject`: one proposed record's status written in place, said in one line or as JSON. */
export function registerReview(program: Command, name: string, description: string, review: (root: string, set: ArtifactSet, id: string) => Promise<ReviewResult>): void {
  const cmd = program
    .command(name)
    .argument('<id>', 'the proposed record')
    .description(description)
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText('after', '\nNothing is committed: commit the change with the code it belongs to.\nExit codes: 0 written (or already so), 2 unknown id or usage error.');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (id: string, o: ReviewOptions) => {
    if (o.json) o.format = 'json';
    const repo = await loadRepo(o);
    try {
      const r = await review(repo.snapshot.root, repo.set, id);
      if (o.format === 'json') io().out(JSON.stringify({ version: 1, ...r }, null, 2) + '\n');
      else {
        // a decision turned over after review is said as such: rejecting what its owner confirmed is no proposal turned down
        const was = r.changed && r.previous.status ? ` (was ${r.previous.status}${r.previous.confirmed ? ', confirmed by its owner' : ''})` : '';
        io().out(`${r.id}: status ${r.status}${r.changed ? '' : ' (already)'}${was}  ${r.file}${r.sidecar ? `  (+ ${r.sidecar})` : ''}\n`);
      }
    } finally {
      repo.close();
    }
  });
}
