// @spec SPEC-AUTHORING-001

import type { Command } from '../commander.js';
import { listProposals } from '../../authoring/review.js';
import { addRepoOptions, colors, formatOption, idColumn, io, loadRepo, type RepoOptions } from '../shared.js';

interface ProposalsOptions extends RepoOptions {
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('proposals')
    .description('List proposed records (e.g. written by an agent through propose_decision) with who proposed them, in which session, at which commit, and how long they have waited')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText('after', '\nConfirm one with git ctx confirm <id>, reject it with git ctx reject <id>; commit the change with the code.\nExit codes: 0 listed (possibly nothing), 2 usage or environment error.');
  addRepoOptions(cmd).action(async (o: ProposalsOptions) => {
    const repo = await loadRepo(o);
    try {
      const items = listProposals(repo.set);
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify({ version: 1, proposals: items }, null, 2) + '\n');
        return;
      }
      if (!items.length) {
        io().err('no proposed records\n');
        return;
      }
      const p = colors();
      const idCol = idColumn(items.map((i) => i.id));
      const w = idCol.width;
      for (const i of items) {
        const v = i.provenance;
        const age = i.age_days === undefined ? 'age unknown' : i.age_days === 0 ? 'today' : `${i.age_days} day${i.age_days === 1 ? '' : 's'} ago`;
        io().out(`${idCol.cell(i.id, p.bold)}  ${i.title}\n`);
        const who = [v.source ? `source ${v.source}` : '', v.confidence ? `confidence ${v.confidence}` : '', v.owner ? `owner ${v.owner}` : '', v.session_id ? `session ${v.session_id}` : '', v.commit ? `commit ${v.commit.slice(0, 12)}` : ''].filter(Boolean).join(' · ');
        io().out(`${''.padEnd(w)}  ${p.dim(`${age} · ${i.file} · ${who || 'no provenance recorded (who proposed it is not known)'}`)}\n`);
      }
      io().err(`${items.length} proposed; git ctx confirm <id> or git ctx reject <id>\n`);
    } finally {
      repo.close();
    }
  });
}
