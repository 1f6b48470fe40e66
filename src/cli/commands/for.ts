import type { Command } from '../commander.js';
import { parseTraceTarget } from '../../retrieve/trace.js';
import { retrieveForPlace } from '../../retrieve/engine.js';
import { renderRetrieval } from '../../retrieve/render.js';
import { semanticLaneFor } from '../../semantic/lane.js';
import { addRetrievalOptions, retrievalSettings, type RetrievalCliOptions } from '../retrieval-options.js';
import { addRepoOptions, colors, io, loadRepo, zeroConfigJson, type RepoOptions } from '../shared.js';
import { recordCli } from '../record.js';
import { finishRetrieval } from '../../retrieve/episode.js';

type ForOptions = RepoOptions & RetrievalCliOptions;

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
    const repo = await loadRepo(o, (root, cwd) => parseTraceTarget(place, root, cwd).path);
    try {
      const target = parseTraceTarget(place, repo.snapshot.root, repo.cwd);
      const rec = recordCli(repo, 'for');
      const result = await retrieveForPlace({ snapshot: repo.snapshot, set: repo.set, semantic: semanticLaneFor(repo.snapshot.root, repo.set, io().env), target, place, ...retrievalSettings(o) });
      io().out(renderRetrieval(o.json ? 'json' : o.format, { ...result, ...zeroConfigJson(repo.config) }, colors()));
      await finishRetrieval(rec, result);
    } finally {
      repo.close();
    }
  });
}
