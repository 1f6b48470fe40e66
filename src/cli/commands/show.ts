import { Option, type Command } from '../commander.js';
import { bodyAt } from '../../artifacts/depth.js';
import { metaText } from '../../artifacts/meta-text.js';
import { confirmationLines } from '../../check/confirm/author.js';
import { readConfirmations } from '../../check/confirm/read.js';
import { buildGraph, computedOnly, reverseEdges, REVERSE_NAMES } from '../../artifacts/graph.js';
import { relationStatedBy } from '../../artifacts/sources/extra.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import type { Depth, RelationKind } from '../../artifacts/types.js';
import { addRepoOptions, colors, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';

interface ShowOptions extends RepoOptions {
  depth: Depth;
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('show')
    .argument('<id>', 'artifact id')
    .description('Show one artifact at a depth (meta = frontmatter, summary = + first section, full = everything), with computed reverse edges')
    .addOption(new Option('-d, --depth <depth>', 'how much to show').choices(['meta', 'summary', 'full']).default('full'))
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json');
  addRepoOptions(cmd).action(async (id: string, o: ShowOptions) => {
    const repo = await loadRepo(o);
    try {
      const a = requireArtifact(repo.set, id);
      const reverse = reverseEdges(buildGraph(repo.set), a.id);
      // a record read in place writes its relations in prose ("see ADR 1", a link to another
      // record): they are in no metadata, so without this line only the other record shows them
      // a relation another record's text states ("Superseded by" this one in 0012) is shown as
      // that record's word, not as this record's: its own text may say nothing of it
      const written = a.format === 'adr' ? Object.entries(a.relations).filter(([, v]) => v.length) : [];
      const fromText = written.map(([k, v]) => [k, v.filter((t) => !relationStatedBy(a, k as RelationKind, t))] as const).filter(([, v]) => v.length);
      const statedElsewhere = written.flatMap(([k, v]) => v.flatMap((t) => {
        const by = relationStatedBy(a, k as RelationKind, t);
        return by ? [{ kind: k as RelationKind, id: t, statedBy: by }] : [];
      }));
      const confirms = readConfirmations(a, undefined);
      // what kept the record from loading whole (frontmatter that is no YAML): said here, since
      // the record still shows, and not only by `git ctx check`
      const problems = repo.set.problems.filter((x) => x.file === a.file);
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify({ version: 1, id: a.id, type: a.type, title: a.title, file: a.file, depth: o.depth, status: a.status ?? null, ...(a.statusText !== undefined && a.statusText.toLowerCase() !== a.status?.toLowerCase() ? { statusWritten: a.statusText } : {}), frontmatter: a.data, ...(fromText.length ? { relationsFromText: Object.fromEntries(fromText) } : {}), ...(statedElsewhere.length ? { relationsStatedByOthers: statedElsewhere } : {}), reverse, confirm: confirms.confirmations.map(({ kind, pattern, in: scope, message, severity }) => ({ kind, pattern, in: scope, message, severity })), ...(problems.length ? { problems: problems.map(({ line, rule, message }) => ({ line: line ?? null, rule, message })) } : {}), body: o.depth === 'meta' ? undefined : bodyAt(a, o.depth) }, null, 2) + '\n');
        return;
      }
      const p = colors();
      const unread = problems.some((x) => x.rule === 'frontmatter-malformed') && !Object.keys(a.data).length;
      io().out(`${p.bold(`${a.id}`)} ${p.dim(`(${a.type}, ${a.file})`)}\n${unread ? '' : `${metaText(a, { withStamp: o.depth === 'full', withConfidence: true })}\n`}`);
      for (const x of problems) io().out(`${p.red('problem:')} ${x.file}${x.line ? `:${x.line}` : ''}: ${x.message} (${x.rule})\n`);
      for (const [k, v] of fromText) io().out(`${p.dim(`${k} (from the text):`)} ${v.join(', ')}\n`);
      for (const r of statedElsewhere) io().out(`${p.dim(`${r.kind}:`)} ${r.id} ${p.dim(`(${r.statedBy}'s text says it is ${REVERSE_NAMES[r.kind].replace(/_/g, ' ')} ${a.id}; this record's text does not say so)`)}\n`);
      for (const [k, v] of Object.entries(computedOnly(a, reverse))) io().out(`${p.dim(`${k} (computed):`)} ${v.join(', ')}\n`);
      // what `git ctx check` verifies of it (DEC-052)
      for (const line of confirmationLines(confirms.confirmations)) io().out(`${p.dim('confirms:')} ${line}\n`);
      for (const bad of confirms.problems) io().out(`${p.dim('confirms:')} ${p.red('malformed')} ${bad.message}\n`);
      const body = bodyAt(a, o.depth);
      if (body) io().out(`\n${body}\n`);
    } finally {
      repo.close();
    }
  });
}
