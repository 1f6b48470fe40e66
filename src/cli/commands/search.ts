import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { namedPlaces, retrieveForText } from '../../retrieve/engine.js';
import { renderRetrieval } from '../../retrieve/render.js';
import { semanticLaneFor } from '../../semantic/lane.js';
import { addRetrievalOptions, retrievalSettings, type RetrievalCliOptions } from '../retrieval-options.js';
import { recordCli } from '../record.js';
import { finishRetrieval } from '../../retrieve/episode.js';
import { addRepoOptions, colors, io, loadRepo, zeroConfigJson, type RepoOptions } from '../shared.js';

type SearchOptions = RepoOptions & RetrievalCliOptions;

export function register(program: Command): void {
  const cmd = program
    .command('search')
    .argument('<words...>', 'a question or keywords; a word naming a file (or file#Symbol) also finds what is declared on it')
    .description('Search the records by keywords or a question: ranked, each result with its evidence')
    .addHelpText(
      'after',
      `
Examples:
  git ctx search how do we rate limit webhooks
  git ctx search retry backoff --type decision --json
  git ctx search src/billing/invoice.ts rounding
  git ctx search caching --all --since 2025-01-01

Exit codes: 0 answered (even with no results), 2 usage or environment error.`,
    );
  addRetrievalOptions(cmd);
  addRepoOptions(cmd).action(async (words: string[], o: SearchOptions) => {
    const text = words.join(' ').trim();
    if (!text) throw new CtxError('USAGE', 'search needs words: git ctx search <words…>');
    // read through the place index: no listing of the working tree, the files the words name fresh
    const repo = await loadRepo(o, () => namedPlaces(text).map((t) => t.path));
    try {
      const rec = recordCli(repo, 'search');
      const result = await retrieveForText({ snapshot: repo.snapshot, set: repo.set, semantic: semanticLaneFor(repo.snapshot.root, repo.set, io().env), text, ...retrievalSettings(o) });
      io().out(renderRetrieval(o.json ? 'json' : o.format, { ...result, ...zeroConfigJson(repo.config) }, colors(), { showWeak: !!o.all }));
      await finishRetrieval(rec, result);
    } finally {
      repo.close();
    }
  });
}
