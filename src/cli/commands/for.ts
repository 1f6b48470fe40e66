import path from 'node:path';
import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { renderRetrieval } from '../../retrieve/render.js';
import type { RetrievalResult } from '../../retrieve/types.js';
import { addRetrievalOptions, retrievalSettings, type RetrievalCliOptions } from '../retrieval-options.js';
import { addRepoOptions, colors, io, zeroConfigJson, type RepoOptions } from '../shared.js';
import { answerPlaceQuestion } from '../kept-place.js';
import { answeredWhole, filesOf, finishRetrieval } from '../../retrieve/episode.js';

type ForOptions = RepoOptions & RetrievalCliOptions & { diff?: string; title?: string; body?: string };
/** What `for` keeps of an answer (DEC-062): the retrieval and the zero-configuration fact of its JSON. */
/** `self`: the record whose own file the place is (`for docs/adr/0015-….md`), which concerns no code there */
type ForAnswer = { result: RetrievalResult; zero: ReturnType<typeof zeroConfigJson>; noRecords: boolean; self?: string };

export function register(program: Command): void {
  const cmd = program
    .command('for')
    .argument('[place]', 'a path, path:line or path#Symbol.name (relative to the current directory); none with --diff or --staged')
    .description('Find the records that govern or concern a place in the code, or a change (--diff, --staged): declared anchors first, then related records found by keywords, mentions and links')
    .option('--diff <range>', 'the records for a change instead of a place: base..head, base...head, or a base compared with HEAD (as a pull request would be)')
    .option('--title <text>', 'with --diff or --staged: the change\'s title (default: the first line of the range\'s commit messages)')
    .option('--body <text>', 'with --diff or --staged: the change\'s description (default: the rest of the commit messages)')
    .addHelpText(
      'after',
      `
Examples:
  git ctx for src/billing/invoice.ts
  git ctx for src/billing/invoice.ts:64 --format context
  git ctx for 'src/billing/invoice.ts#InvoiceGenerator.generate' --json
  git ctx for src/api --all --type decision --cap fused=10
  git ctx for --diff main...HEAD                 # before opening a pull request
  git ctx for --staged --title 'Add idempotency keys' --format context

Without a place, --staged asks about the staged change (the index against HEAD) and --diff
about a range of commits: the query is the change itself (its added and removed lines, the
symbols they sit in, its paths, title and body), answered as one ranked list, each record
once with the files and lines that brought it in; a change no record governs says so.

Results come in bands: declared (anchors, annotations, paths, the code graph; nearest
first), related (weaker evidence fused: keywords read from the code, mentions, nearness),
linked (relations of the records above; successors of superseded ones).
Exit codes: 0 answered (even with no results), 2 usage or environment error.`,
    );
  addRetrievalOptions(cmd);
  addRepoOptions(cmd).action(async (place: string | undefined, o: ForOptions) => {
    if (place === undefined || o.diff !== undefined) {
      if (place !== undefined) throw new CtxError('USAGE', '--diff asks about a change, not a place: give one of them');
      if (o.diff === undefined && !o.staged) throw new CtxError('USAGE', 'give a place, --diff <range> or --staged', { hint: 'git ctx for src/billing/invoice.ts, git ctx for --diff main...HEAD' });
      if (o.diff !== undefined && o.staged) throw new CtxError('USAGE', '--diff and --staged cannot be combined');
      if (o.at) throw new CtxError('USAGE', '--at reads a place as of a commit; for a change use --diff <base>..<commit>');
      const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
      const { analyzeChange } = await import('../../pr/change.js');
      const { renderChange } = await import('../../pr/change-render.js');
      const answer = await analyzeChange({ cwd, ...(o.diff !== undefined ? { range: o.diff } : { staged: true }), title: o.title, body: o.body, env: io().env });
      io().out(renderChange(o.json ? 'json' : o.format, answer, colors()));
      return;
    }
    if (o.title !== undefined || o.body !== undefined) throw new CtxError('USAGE', '--title and --body describe a change: use them with --diff or --staged');
    const settings = retrievalSettings(o);
    // asked before with nothing changed: the kept answer (DEC-062)
    const { answer, rec } = await answerPlaceQuestion<ForAnswer>(o, place, 'for', settings, async (repo, target) => {
      // the lanes load only when the answer is computed
      const [{ retrieveForPlace }, { semanticLaneFor }] = await Promise.all([import('../../retrieve/engine.js'), import('../../semantic/lane.js')]);
      const result = await retrieveForPlace({ snapshot: repo.snapshot, set: repo.set, semantic: semanticLaneFor(repo.snapshot.root, repo.set, io().env), target, place, ...settings });
      const self = repo.set.artifacts.find((a) => a.file === target.path)?.id;
      return { value: { result, zero: zeroConfigJson(repo.config), noRecords: repo.set.artifacts.length === 0, ...(self ? { self } : {}) }, files: (v) => filesOf(v.result), whole: answeredWhole(result) };
    });
    const { result, zero, noRecords, self } = answer.value;
    io().out(renderRetrieval(o.json ? 'json' : o.format, { ...result, ...zero }, colors(), { showWeak: !!o.all, noRecords }));
    // the records that read like this one are no records governing it: it is a record
    if (self && !o.json) io().err(`hint: ${result.query.kind === 'place' ? result.query.path : place} is the record ${self} itself: git ctx show ${self} prints it, git ctx impact ${self} lists the code it governs\n`);
    await finishRetrieval(rec, result, answer.dirty);
  });
}
