import type { Command } from '../commander.js';
import { renderRetrieval } from '../../retrieve/render.js';
import type { RetrievalResult } from '../../retrieve/types.js';
import { addRetrievalOptions, retrievalSettings, type RetrievalCliOptions } from '../retrieval-options.js';
import { addRepoOptions, colors, io, zeroConfigJson, type RepoOptions } from '../shared.js';
import { answerPlaceQuestion } from '../kept-place.js';
import { filesOf, finishRetrieval } from '../../retrieve/episode.js';

type ForOptions = RepoOptions & RetrievalCliOptions;
/** What `for` keeps of an answer (DEC-062): the retrieval and the zero-configuration fact of its JSON. */
type ForAnswer = { result: RetrievalResult; zero: ReturnType<typeof zeroConfigJson> };

export function register(program: Command): void {
  const cmd = program
    .command('for')
    .argument('<place>', 'a path, path:line or path#Symbol.name (relative to the current directory)')
    .description('Find the records that govern or concern a place in the code: declared anchors first, then related records found by keywords, mentions and links')
    .addHelpText(
      'after',
      `
Examples:
  git ctx for src/billing/invoice.ts
  git ctx for src/billing/invoice.ts:64 --format context
  git ctx for 'src/billing/invoice.ts#InvoiceGenerator.generate' --json
  git ctx for src/api --all --type decision --cap fused=10

Results come in bands: declared (anchors, annotations, paths, the code graph; nearest
first), related (weaker evidence fused: keywords read from the code, mentions, nearness),
linked (relations of the records above; successors of superseded ones).
Exit codes: 0 answered (even with no results), 2 usage or environment error.`,
    );
  addRetrievalOptions(cmd);
  addRepoOptions(cmd).action(async (place: string, o: ForOptions) => {
    const settings = retrievalSettings(o);
    // asked before with nothing changed: the kept answer (DEC-062)
    const { answer, rec } = await answerPlaceQuestion<ForAnswer>(o, place, 'for', settings, async (repo, target) => {
      // the lanes load only when the answer is computed
      const [{ retrieveForPlace }, { semanticLaneFor }] = await Promise.all([import('../../retrieve/engine.js'), import('../../semantic/lane.js')]);
      const result = await retrieveForPlace({ snapshot: repo.snapshot, set: repo.set, semantic: semanticLaneFor(repo.snapshot.root, repo.set, io().env), target, place, ...settings });
      return { value: { result, zero: zeroConfigJson(repo.config) }, files: (v) => filesOf(v.result) };
    });
    const { result, zero } = answer.value;
    io().out(renderRetrieval(o.json ? 'json' : o.format, { ...result, ...zero }, colors(), { showWeak: !!o.all }));
    await finishRetrieval(rec, result, answer.dirty);
  });
}
