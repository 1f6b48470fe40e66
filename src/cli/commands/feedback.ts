// @spec SPEC-STORE-001

import type { Command } from '../commander.js';
import { feedbackItems } from '../../store/feedback.js';
import { openCliStore } from '../record.js';
import { addRepoOptions, formatOption, io, type RepoOptions } from '../shared.js';

interface FeedbackOptions extends RepoOptions {
  useful?: string[];
  notUseful?: string[];
  missing?: string[];
  note?: string;
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('feedback')
    .argument('<episode>', 'the episode id (or a unique prefix of at least 4 characters), from `git ctx episodes`')
    .description('Say how good a recorded retrieval was: which references were useful, which were not, and what was missing (append-only; `git ctx eval` replays episodes with it)')
    .option('--useful <ref...>', 'references that helped (artifact ids, paths; comma-separated or repeated)')
    .option('--not-useful <ref...>', 'references that did not help')
    .option('--missing <ref...>', 'what should have been returned and was not')
    .option('--note <text>', 'free text kept with the feedback')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText('after', '\nExit codes: 0 recorded, 2 usage or environment error (an unknown episode; no reference given; SQLite not loadable).');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (episode: string, o: FeedbackOptions) => {
    const items = feedbackItems({ useful: o.useful, notUseful: o.notUseful, missing: o.missing });
    const { store } = await openCliStore(o);
    try {
      const added = store.addFeedback(episode, items, { note: o.note, source: 'cli' });
      if (o.json || o.format === 'json') io().out(`${JSON.stringify({ episode: added[0]!.episode, feedback: added }, null, 2)}\n`);
      else io().out(`recorded on episode ${added[0]!.episode}: ${added.map((a) => `${a.verdict} ${a.ref}`).join(', ')}\n`);
    } finally {
      store.close();
    }
  });
}
