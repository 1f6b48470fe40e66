// @spec SPEC-AUTHORING-001

import { artifactSetKey } from '../rule-memo.js';
import path from 'node:path';
import type { Artifact } from '../../artifacts/types.js';
import type { Rule } from '../types.js';
import { setTemplates } from '../../artifacts/sources/record-template.js';
import { ageDays, CONFIDENCE, provenanceOf } from '../../artifacts/sources/provenance.js';

type Out = Awaited<ReturnType<Rule['run']>>[number];

/**
 * How to link two records: a record read in place has no frontmatter relations to write, and
 * a link to the other record's file in its text is read as relates_to (trials29: the advice
 * named relations.relates_to on a plain adr-tools folder).
 */
function linkAdvice(on: Artifact, other: Artifact): string {
  if (on.format !== 'adr' || other.origin !== 'repo') return '(relations.relates_to)';
  const rel = path.posix.relative(path.posix.dirname(on.file), other.file);
  return `(a link to ${other.id} in ${on.id}'s text, e.g. "Related: [${other.id}](${rel})")`;
}

/**
 * Check rules of authoring. The similarity code is imported when the rule runs, so the
 * commands that never run it (the pre-commit hook runs only blocking rules by default; this
 * one is a warning) do not pay for loading it.
 */
export const AUTHORING_RULES: Rule[] = [
  {
    id: 'decision-near-duplicate',
    severity: 'warning',
    description: 'two active decisions that say nearly the same thing (similarity ≥ semantic.conflict_threshold, default 0.75) and are not linked to each other',
    // with the bundled offline embedder the records, their bytes and the settings decide the
    // pairs: a warm check of unchanged records reuses them instead of scoring every pair
    // again. A provider over the network may answer differently (or not at all): never kept.
    memoKey: async (ctx) => {
      const provider = String(process.env.GIT_CTX_EMBED_PROVIDER || (ctx.config as { semantic?: { provider?: string } }).semantic?.provider || 'default').trim();
      if (provider !== 'default') return undefined;
      const env = Object.keys(process.env).filter((k) => k.startsWith('GIT_CTX_EMBED_')).sort().map((k) => `${k}=${process.env[k]}`);
      // 'search-judged': findings kept before pairs went through search's judgement are not
      // reused; 'marked': nor those kept before a pair past JUDGED_RECORDS said so
      // 'templates': a record whose decision is still its template's guidance is not compared;
      // 'setext': a setext or rst Decision heading bounds the decision part (not the first 1,500 characters)
      // 'link-advice': a record read in place is told to link in its text, not relations.relates_to
      // 'few-records-overlap': with too few records for the default embedder's common component the overlap decides (DEC-134)
      return `search-judged marked templates setext link-advice few-records-overlap\n${artifactSetKey(ctx)}\n${templatesKey(await setTemplates(ctx.set))}\n${env.join('\n')}`;
    },
    run: async (ctx): Promise<Out[]> => {
      const { activeDecisions, conflictThreshold, configuredEmbedder, DecisionSimilarity } = await import('../../authoring/similar.js');
      const { areLinked, confirmRestatements, JUDGED_RECORDS } = await import('../../authoring/draft-similar.js');
      const { templateDecisions } = await import('../../authoring/similar.js');
      // a record whose Decision part is still its folder template's guidance decides nothing yet
      // (DEC-096); the template is the judged snapshot's, as the records are (DEC-100)
      const undecided = templateDecisions(ctx.set, await setTemplates(ctx.set));
      const records = activeDecisions(ctx.set).filter((a) => !undecided.has(a.id));
      if (records.length < 2) return [];
      const threshold = conflictThreshold(ctx.set);
      const embedder = configuredEmbedder(ctx.set);
      const sim = await DecisionSimilarity.open(ctx.snapshot.root, ctx.set, records, embedder);
      // the pair score proposes (cheap over every pair), search's judgement as add's decides;
      // a pair that names each other is known to its authors (amends, clarifies, relates_to …)
      const proposed = sim.pairs(threshold, { skip: areLinked }).filter((p) => p.a.origin === 'repo' || p.b.origin === 'repo');
      const out: Out[] = [];
      for (const { a, b, score, unjudged } of (await confirmRestatements(ctx.snapshot.root, ctx.set, proposed, { threshold, embedder: embedder ?? null })).pairs) {
        // report on the repository record (a global one cannot be edited here), the newer id when both are
        const [on, other] = a.origin === 'repo' ? [a, b] : [b, a];
        out.push({
          rule: 'decision-near-duplicate',
          id: on.id,
          file: on.file,
          line: on.keyLines.title ?? on.keyLines.id ?? 1,
          message: `${on.id} and ${other.id}${other.origin === 'global' ? ' (global)' : ''} are active and nearly the same decision (similarity ${score.similarity.toFixed(2)} ≥ ${threshold}): supersede one (git ctx supersede), deprecate one, or link them ${linkAdvice(on, other)} if both stand${unjudged ? ` (judged by the pair score alone: more than ${JUDGED_RECORDS} decisions to compare with search)` : ''}`,
        });
      }
      return out;
    },
  },
  {
    id: 'proposal-unconfirmed',
    severity: 'info',
    description: 'a record an agent wrote (propose_decision, add_decision) that no person has confirmed for longer than check.proposal_unconfirmed_days (default 14)',
    run: (ctx): Out[] => {
      const days = ctx.config.check.proposal_unconfirmed_days;
      const out: Out[] = [];
      for (const a of ctx.set.artifacts) {
        if (a.origin !== 'repo') continue;
        const p = provenanceOf(a);
        if (p.confidence !== CONFIDENCE.inferred) continue;
        const inactive = !!a.status && (ctx.config.types[a.type]?.inactive ?? []).includes(a.status);
        if (inactive) continue;
        const age = ageDays(p.date, ctx.now);
        if (age === undefined || age <= days) continue;
        // the message is read by agents too (the check tool): it names no confidence level
        out.push({
          rule: 'proposal-unconfirmed',
          id: a.id,
          file: a.file,
          line: a.keyLines.status ?? a.keyLines.id ?? 1,
          message: `${a.id} was written by an agent${p.session_id ? ` (session ${p.session_id})` : ''} ${age} days ago and no one has confirmed it (more than ${days}): git ctx confirm ${a.id}, or git ctx reject ${a.id}`,
        });
      }
      return out;
    },
  },
];

/**
 * The templates the rule's findings depend on, as a key: the judged snapshot's (setTemplates,
 * read once per check run and shared with add's judge through the set).
 * @decision DEC-100
 */
function templatesKey(templates: ReadonlyMap<string, string | undefined>): string {
  return JSON.stringify([...templates].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
