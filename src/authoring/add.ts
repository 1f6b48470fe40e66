// @spec SPEC-AUTHORING-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { ConfirmEntry } from '../artifacts/sources/confirm-block.js';
import { CtxError } from '../errors.js';
import { createArtifact, renderNewArtifact, type NewArtifactContent } from '../init/new-artifact.js';
import { createRecord, decisionTarget } from '../artifacts/sources/new-record.js';
import { updateSidecarProvenance, type Provenance } from '../artifacts/sources/provenance.js';
import type { Embedder } from '../semantic/embedder.js';
import { deriveTitle, markWeaker, type DecisionDraft, type SimilarRecord } from './similar.js';
import { findSimilarDecisions } from './draft-similar.js';
import { replacementHints, type ReplacementHint } from './replaces.js';

/** A decision to add: the draft plus where and how it is written. */
export interface AddDecisionInput extends DecisionDraft {
  /** the area it applies to: `global`, `domain` or `project` set `scope:`, anything else `domain:` */
  scope?: string;
  paths?: string[];
  /**
   * where to write it: an adr source folder (its ADR style and next number), or the
   * configuration folder (`.contextia`) for a frontmatter record; default decisionTarget's answer
   */
  in?: string;
  /** status as written (default: accepted, the type's in-force status) */
  status?: string;
  /** confirmations to write with it (DEC-052) */
  confirm?: ConfirmEntry[];
  /** who, where and how (DEC-054): frontmatter keys, or the provenance sidecar for an ADR folder */
  provenance?: Provenance;
}

export interface AddDecisionOptions {
  /** write even when similar active records exist */
  force?: boolean;
  /** compute everything, write nothing */
  dryRun?: boolean;
  threshold?: number;
  /** null: lexical overlap only; default: the configured embedder */
  embedder?: Embedder | null;
  now?: Date;
  env?: NodeJS.ProcessEnv;
  /** records left out of the check: the one the new decision supersedes (`--supersedes`), expected to resemble it */
  exclude?: readonly string[];
}

export interface ConflictCheck {
  title: string;
  threshold: number;
  embedder?: string;
  similar: SimilarRecord[];
  /** with nothing similar at the threshold, the nearest record when it comes close (SimilarResult.closest) */
  closest?: SimilarRecord;
  /**
   * records the draft looks like it replaces (same subject, change wording or another choice),
   * with the words that matched: a suggestion to add `supersedes`, never written unasked (DEC-130)
   */
  replaces?: ReplacementHint[];
}

export interface AddDecisionResult extends ConflictCheck {
  /** written: the file exists now; conflict: similar records and no force; dry-run: nothing written */
  outcome: 'written' | 'conflict' | 'dry-run';
  id?: string;
  file?: string;
  /** contextia: a frontmatter record; nygard or madr: a record in an ADR folder, in that style */
  format: 'contextia' | 'nygard' | 'madr' | 'rst' | 'adoc';
  /** dry run: the text that would be written (a frontmatter record's id a placeholder, an ADR record's number the next free one) */
  text?: string;
  /** an ADR record from the team's template: sections that still hold its guidance, to be written */
  guidance?: string[];
  /**
   * fields given that the ADR record has no place for (`paths`, `keywords`, `scope`): a
   * Nygard or rst record keeps no frontmatter, and no record of a folder keeps a scope
   */
  unwritten?: string[];
  /**
   * an ADR record's provenance (who proposed it, the session, the commit) was given and not kept:
   * it goes to the .contextia/ sidecar, which a repository without a configuration file has not
   */
  provenance_unkept?: true;
}

const SCOPES = new Set(['global', 'domain', 'project']);

function validate(input: AddDecisionInput): void {
  if (!input.decision?.trim()) throw new CtxError('USAGE', 'the decision text is empty: say what was decided (--decision "…")');
}

/** The title a decision is written with: the given one, else derived from the decision. */
export function titleOf(input: Pick<AddDecisionInput, 'title' | 'decision'>): string {
  return input.title?.trim() || deriveTitle(input.decision);
}

/** Active decisions (repository and, when enabled, global) similar to the draft at or above the threshold. */
export async function checkDecisionConflicts(root: string, set: ArtifactSet, input: AddDecisionInput, opts: AddDecisionOptions = {}): Promise<ConflictCheck> {
  validate(input);
  const draft = { ...input, title: titleOf(input) };
  const r = await findSimilarDecisions(root, set, draft, { threshold: opts.threshold, embedder: opts.embedder, env: opts.env, ...(opts.exclude?.length ? { exclude: opts.exclude } : {}) });
  // the replacement hint reads the same candidates, scored the same way (DEC-130)
  const candidates = (r.candidates ?? []).flatMap((score) => {
    const record = set.byId.get(score.id);
    return record ? [{ record, score, rank: score.rank ?? 0 }] : [];
  });
  const replaces = replacementHints(set, draft, candidates);
  return { title: titleOf(input), threshold: r.threshold, ...(r.embedder ? { embedder: r.embedder } : {}), similar: markWeaker(r.similar), ...(r.closest ? { closest: r.closest } : {}), ...(replaces.length ? { replaces } : {}) };
}

function frontmatterContent(input: AddDecisionInput): NewArtifactContent {
  const scope = input.scope?.trim();
  const sections: [string, string][] = [['Decision', input.decision]];
  if (input.rationale?.trim()) sections.push(['Rationale', input.rationale]);
  if (input.constraints?.trim()) sections.push(['Constraints', input.constraints]);
  const summary = input.decision.replace(/\s+/g, ' ').trim();
  return {
    summary: summary.length > 240 ? summary.slice(0, 237).trimEnd() + '…' : summary,
    ...(input.paths?.length ? { paths: input.paths } : {}),
    ...(input.keywords?.length ? { keywords: input.keywords } : {}),
    ...(scope ? (SCOPES.has(scope) ? { scope } : { domain: scope }) : {}),
    ...(input.confirm?.length ? { confirm: input.confirm as Record<string, string>[] } : {}),
    sections,
    ...(input.provenance ? { provenance: frontmatterProvenance(input.provenance) } : {}),
  };
}

/**
 * The fields given that an ADR record's text does not hold: `paths` and `keywords` go into
 * frontmatter only (a Nygard or rst record has none: they were dropped without a word,
 * openedx/edx-proctoring), and a folder's record keeps no scope.
 */
function unwrittenFields(input: AddDecisionInput, text: string): string[] {
  const fm = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)?.[1] ?? '';
  const out: string[] = [];
  for (const k of ['paths', 'keywords'] as const) if (input[k]?.length && !new RegExp(`^${k}:`, 'm').test(fm)) out.push(k);
  if (input.scope?.trim()) out.push('scope');
  return out;
}

/** The line `add` and add_decision give for fields the record has no place for: said, not dropped in silence. */
export function unwrittenNote(fields: readonly string[], written: boolean): string {
  const code = fields.some((f) => f.endsWith('paths')) ? '; name the code in its text, in backticks, and git ctx reads it as mentioned code' : '';
  return `${written ? 'not written' : 'would not be written'}: ${fields.join(', ')} (the folder's records have no place for ${fields.length > 1 ? 'them' : 'it'})${code}`;
}

/** Provenance keys for frontmatter, in a fixed order (the date is the record's `created`). */
function frontmatterProvenance(p: Provenance): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['owner', 'source', 'session_id', 'commit', 'confidence'] as const) if (p[k]) out[k] = p[k]!;
  return out;
}

/** Provenance for the sidecar of an ADR folder, dated (an ADR's own date line may be edited away). */
function sidecarProvenance(p: Provenance | undefined, now: Date): Provenance | undefined {
  if (!p || !Object.values(p).some(Boolean)) return undefined;
  return { ...p, date: p.date ?? now.toISOString().slice(0, 10) };
}

/**
 * Write a decision after checking it against the active ones: with similar records at or
 * above the threshold and no `force`, nothing is written and the outcome is `conflict`.
 * The caller (a CLI asking on a TTY) passes `force` once the user confirmed. Where it goes is
 * decisionTarget's answer: the team's ADR folder when that is where its decisions are, else
 * the frontmatter store. Frontmatter artifacts go through createArtifact, ADR records through
 * createRecord (the folder's style and next number); both create the file atomically, never
 * overwriting, inside the work tree.
 */
export async function addDecision(root: string, set: ArtifactSet, input: AddDecisionInput, opts: AddDecisionOptions = {}, checked?: ConflictCheck): Promise<AddDecisionResult> {
  const check = checked ?? (await checkDecisionConflicts(root, set, input, opts));
  const target = decisionTarget(set, input.in);
  const format = target.kind === 'adr' ? 'nygard' : 'contextia';
  // a dry run shows what it found and what it would write: the caller decides on the similar ones
  if (check.similar.length && !opts.force && !opts.dryRun) return { ...check, outcome: 'conflict', format };
  const now = opts.now ?? new Date();
  const t = set.config.types.decision;
  if (!t) throw new CtxError('CONFIG', `no decision type in ${set.config.dir}/config.yaml`);
  const status = input.status?.trim() || (t.statuses.includes('accepted') ? 'accepted' : undefined);
  if (target.kind === 'adr') {
    const rec = await createRecord(set, {
      dir: target.dir,
      title: check.title,
      status: status ? status.charAt(0).toUpperCase() + status.slice(1) : undefined,
      date: now.toISOString().slice(0, 10),
      content: {
        context: input.rationale,
        decision: [input.decision.trim(), input.constraints?.trim() ? `Constraints: ${input.constraints.trim()}` : ''].filter(Boolean).join('\n\n'),
        paths: input.paths,
        keywords: input.keywords,
        confirm: input.confirm,
      },
      dryRun: opts.dryRun,
    });
    const lost = unwrittenFields(input, rec.text);
    const guidance = { ...(rec.guidance ? { guidance: rec.guidance } : {}), ...(lost.length ? { unwritten: lost } : {}) };
    if (opts.dryRun) return { ...check, outcome: 'dry-run', id: rec.id, file: rec.file, format: rec.style, text: rec.text, ...guidance };
    const prov = sidecarProvenance(input.provenance, now);
    // without a configuration file the team has not taken git-ctx up: no .contextia/ sidecar appears unasked
    if (prov && !set.config.noFile) await updateSidecarProvenance(root, set.config.dir, new Map([[rec.id, prov]]));
    return { ...check, outcome: 'written', id: rec.id, file: rec.file, format: rec.style, ...guidance, ...(prov && set.config.noFile ? { provenance_unkept: true as const } : {}) };
  }
  const content = frontmatterContent(input);
  if (opts.dryRun) {
    // the id shown is a placeholder: the next free one is taken only when writing
    const text = renderNewArtifact({ id: 'DEC-NEW', type: 'decision', title: check.title, status, links: {}, created: now.toISOString().slice(0, 10), content });
    return { ...check, outcome: 'dry-run', format, text };
  }
  const r = await createArtifact(set, { type: 'decision', title: check.title, status, now, content });
  return { ...check, outcome: 'written', id: r.id, file: r.file, format };
}
