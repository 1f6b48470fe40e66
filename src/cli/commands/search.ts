import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { renderRetrieval } from '../../retrieve/render.js';
import { namedPlaces } from '../../retrieve/trace.js';
import type { RetrievalResult } from '../../retrieve/types.js';
import { addRetrievalOptions, retrievalSettings, type RetrievalCliOptions } from '../retrieval-options.js';
import { answerSearchQuestion } from '../kept-place.js';
import { answeredWhole, filesOf, finishRetrieval } from '../../retrieve/episode.js';
import { addRepoOptions, colors, io, zeroConfigJson, type RepoOptions } from '../shared.js';

type SearchOptions = RepoOptions & RetrievalCliOptions;
/** What `search` keeps of an answer (DEC-062), as `for` does: the retrieval and the zero-configuration fact of its JSON. */
type SearchAnswer = { result: RetrievalResult; zero: ReturnType<typeof zeroConfigJson>; noRecords: boolean };

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
    const settings = retrievalSettings(o);
    // the lanes load only when the answer is computed: asked before with nothing changed, the kept answer (DEC-062)
    const { answer, rec } = await answerSearchQuestion<SearchAnswer>(
      o,
      text,
      settings,
      // read through the place index: no listing of the working tree, the files the words name fresh
      () => namedPlaces(text).map((t) => t.path),
      async (repo) => {
        const [{ retrieveForText }, { semanticLaneFor }] = await Promise.all([import('../../retrieve/engine.js'), import('../../semantic/lane.js')]);
        const result = await retrieveForText({ snapshot: repo.snapshot, set: repo.set, semantic: semanticLaneFor(repo.snapshot.root, repo.set, io().env), text, ...settings });
        return { value: { result, zero: zeroConfigJson(repo.config), noRecords: repo.set.artifacts.length === 0 }, files: (v) => filesOf(v.result), whole: answeredWhole(result) };
      },
    );
    const { result, zero, noRecords } = answer.value;
    io().out(renderRetrieval(o.json ? 'json' : o.format, { ...result, ...zero }, colors(), { showWeak: !!o.all, noRecords }));
    await finishRetrieval(rec, result, answer.dirty);
  });
}
