import type { Command } from '../commander.js';
import type { TraceEntry, TraceFallback, TraceResult, TraceWeak } from '../../retrieve/trace.js';
import type { RetrievalResult } from '../../retrieve/types.js';
import { successorText, type Successor } from '../../staleness/lifecycle.js';
import type { StaleMark } from '../../staleness/marks.js';
import type { MentionHit } from '../../artifacts/sources/mentions.js';
import { addRepoOptions, colors, formatOption, io, type RepoOptions } from '../shared.js';
import { answerPlaceQuestion } from '../kept-place.js';
import { placeQuery, recordsAsEvidence } from '../../store/record.js';

interface TraceOptions extends RepoOptions {
  format: 'human' | 'json';
  json?: boolean;
}

/** A trace entry as printed: the staleness mark and the successor are attached here, not by src/code. */
type MarkedEntry = TraceEntry & { stale?: StaleMark; successor?: Successor };
/** `slots`: the fallback's lanes that failed or timed out (retrieval's reports), only when one did (traceWithFallback). */
type MarkedTrace = Omit<TraceResult, 'entries'> & { entries: MarkedEntry[]; mentioned?: (MentionHit & { stale?: StaleMark })[]; fallback?: TraceFallback[]; weak?: TraceWeak[]; slots?: Partial<RetrievalResult['slots']> };
/** What `trace` keeps of an answer (DEC-062): the marked trace and the files its episode names. */
type TraceAnswer = { marked: MarkedTrace; files: string[] };

const RENDERERS: Record<'human' | 'json', (r: MarkedTrace) => string> = {
  json: (r) => JSON.stringify({ version: 1, ...r }, null, 2) + '\n',
  human: (r) => {
    const p = colors();
    const t = r.target;
    const where = `${t.path || '.'}${t.symbol ? `#${t.symbol}` : t.line !== undefined ? `:${t.line}` : ''}`;
    const lines = [`${p.bold(where)}${t.symbol && t.symbolRange ? p.dim(` (lines ${t.symbolRange.start}-${t.symbolRange.end})`) : ''}${r.package !== undefined ? p.dim(`  package: ${r.package || '.'}`) : ''}`];
    // a file that was not parsed is never answered with a bare "nothing governs this place"
    if (r.skipped) lines.push(p.yellow(`  not parsed: ${r.skipped}; annotations inside it are not read`));
    if (!r.entries.length) lines.push(p.dim(r.fallback?.length || r.mentioned?.length ? '  nothing declared governs this place; weaker evidence (not declared):' : '  nothing governs this place'));
    for (const e of r.entries) {
      const head = e.known ? `${p.bold(e.id)}  ${e.type}${e.status ? ` ${e.status}` : ''}  ${e.title ?? ''}` : `${p.bold(e.id)}  ${p.red('unknown id')}`;
      lines.push(`  ${e.match.level.padEnd(9)} ${head}`);
      lines.push(`  ${''.padEnd(9)} ${p.dim(`via ${e.match.how}`)}`);
      for (const m of e.also) lines.push(`  ${''.padEnd(9)} ${p.dim(`also ${m.level}: ${m.how}`)}`);
      // the reader is about to rely on this artifact: say when its code drifted since the stamp
      if (e.stale) lines.push(`  ${''.padEnd(9)} ${(e.stale.state === 'stale' ? p.red : p.yellow)(`${e.stale.state}: ${e.stale.summary ?? ''}`)}`);
      // a superseded record is shown with what replaced it, so nobody follows the old one
      if (e.successor) lines.push(`  ${''.padEnd(9)} ${p.yellow(successorText(e.successor))}${e.successor.title ? `  ${e.successor.title}` : ''}${e.successor.status ? p.dim(` (${e.successor.status})`) : ''}`);
    }
    // records that only name the place in their text: weaker evidence, listed apart
    for (const m of r.mentioned ?? []) {
      lines.push(`  ${'mentioned'.padEnd(9)} ${p.bold(m.id)}  ${m.type}${m.status ? ` ${m.status}` : ''}  ${m.title}`);
      lines.push(`  ${''.padEnd(9)} ${p.dim(`mentioned in ${m.id} at ${m.file}:${m.line} as ${m.target}`)}`);
      if (m.stale) lines.push(`  ${''.padEnd(9)} ${(m.stale.state === 'stale' ? p.red : p.yellow)(`${m.stale.state}: ${m.stale.summary ?? ''}`)}`);
    }
    for (const f of r.fallback ?? []) {
      lines.push(`  ${p.yellow(f.evidence.padEnd(19))} ${p.bold(f.id)}  ${f.type}${f.status ? ` ${f.status}` : ''}  ${f.title}`);
      lines.push(`  ${''.padEnd(19)} ${p.dim(f.why.map((w) => w.text).join('; '))}`);
    }
    // a lane of the fallback that failed or was cut short: the weaker evidence may be missing records
    for (const [n, s] of Object.entries(r.slots ?? {})) lines.push(p.dim(`  ${n}: ${s.status}${s.message ? ` (${s.message})` : ''}`));
    return lines.join('\n') + '\n';
  },
};

export function register(program: Command): void {
  const cmd = program
    .command('trace')
    .argument('<place>', 'a path, path:line or path#Symbol.name (relative to the current directory)')
    .description('List what governs a place in the code, nearest first: the annotated symbol, the file, its directories, the package; when nothing is declared, records mentioning it or nearest by keywords, marked as weaker')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json');
  addRepoOptions(cmd).action(async (place: string, o: TraceOptions) => {
    // asked before with nothing changed: the kept answer (DEC-062)
    const { answer, rec, target } = await answerPlaceQuestion<TraceAnswer>(o, place, 'trace', null, async (repo, target) => {
      const [{ placeCodeIndex }, { traceWithFallback }, { successorOf }, { staleMarks }, { mentionedIn }] = await Promise.all([import('../../place/index.js'), import('../../retrieve/trace.js'), import('../../staleness/lifecycle.js'), import('../../staleness/marks.js'), import('../../artifacts/sources/mentions.js')]);
      const index = await placeCodeIndex(repo.snapshot, repo.set);
      const result = await traceWithFallback({ snapshot: repo.snapshot, set: repo.set, index, target });
      // a fallback a lane failed to give (slots) is shown with the lanes' reports, and not kept (DEC-062)
      const whole = result.slots === undefined;
      // only the governing artifacts are judged, sharing the index just built
      const mentioned = mentionedIn(repo.set.byId.values(), target.path).filter((m) => !result.entries.some((e) => e.id === m.id));
      // the governing artifacts and the records mentioning the place (once stamped) are judged, sharing the index just built
      const governing = [...result.entries, ...mentioned].map((e) => repo.set.byId.get(e.id)).filter((a) => a !== undefined);
      const marks = await staleMarks(governing, repo.set, { index });
      await index.flush();
      const marked: MarkedTrace = {
        ...result,
        entries: result.entries.map((e) => {
          const successor = successorOf(repo.set, e.id);
          return { ...e, ...(marks.has(e.id) ? { stale: marks.get(e.id) } : {}), ...(successor ? { successor } : {}) };
        }),
      };
      if (mentioned.length) {
        marked.mentioned = mentioned.map((m) => (marks.has(m.id) ? { ...m, stale: marks.get(m.id) } : m));
        // a record named in the place's text is listed once, as mentioned
        if (marked.fallback) marked.fallback = marked.fallback.filter((f) => !mentioned.some((m) => m.id === f.id));
        if (!marked.fallback?.length) delete marked.fallback;
        if (marked.weak) marked.weak = marked.weak.filter((f) => !mentioned.some((m) => m.id === f.id));
      }
      const shown = [...marked.entries.filter((e) => e.known), ...(marked.mentioned ?? []), ...(marked.fallback ?? [])];
      const files = [target.path, ...shown.map((e) => repo.set.byId.get(e.id)?.file ?? '')];
      return { value: { marked, files }, files: (v) => v.files.filter(Boolean), whole };
    });
    const { marked, files } = answer.value;
    io().out(RENDERERS[o.json ? 'json' : o.format](marked));
    await rec.finish({
      query: placeQuery(place, target),
      files,
      ...(answer.dirty === undefined ? {} : { dirty: answer.dirty }),
      evidence: recordsAsEvidence([
        ...marked.entries.filter((e) => e.known).map((e) => ({ id: e.id, type: e.type, slot: 'declared', grounding: 'indexed' as const })),
        ...(marked.mentioned ?? []).map((m) => ({ id: m.id, type: m.type, slot: 'mentioned', grounding: 'inferred' as const })),
        ...(marked.fallback ?? []).map((f) => ({ id: f.id, type: f.type, slot: 'fallback', grounding: 'inferred' as const })),
      ]),
    });
  });
}
