// @spec SPEC-CHECK-001

import { federatedFile } from '../artifacts/sources/federated-file.js';
import { readFile } from 'node:fs/promises';
import { loadArtifactSet, type ArtifactSet, type LoadOptions } from '../artifacts/load.js';
import { loadConfig, type Config } from '../config.js';
import { CtxError } from '../errors.js';
import { closeMatches } from '../util/close-match.js';
import { mark, phase } from '../util/timing.js';
import type { Snapshot } from '../snapshot/types.js';
import { RULES } from './rules/index.js';
import { runMemoized } from './rule-memo.js';
import type { CheckContext, CheckResult, Finding, FindingSeverity, Rule } from './types.js';

export interface CheckOptions extends LoadOptions {
  snapshot: Snapshot;
  config?: Config;
  /** only these rule ids */
  rules?: string[];
  /** findings to accept (from a baseline file) */
  baseline?: Baseline;
  now?: Date;
  /** extra rules (tests, plugins) */
  extraRules?: Rule[];
  /** an artifact set already loaded from this snapshot (skips loading it again) */
  set?: ArtifactSet;
  /** pre-seeded shared rule state, e.g. a CodeIndex already built for this snapshot under 'code-index' */
  cache?: Map<string, unknown>;
}

const RANK: Record<FindingSeverity, number> = { error: 3, warning: 2, info: 1 };
export function severityAtLeast(s: FindingSeverity, min: FindingSeverity): boolean {
  return RANK[s] >= RANK[min];
}

/** Run every rule against a snapshot. Returns data; never prints or exits. */
export async function runCheck(opts: CheckOptions): Promise<CheckResult> {
  const config = opts.config ?? (await loadConfig(opts.snapshot));
  const set = opts.set ?? (await loadArtifactSet(opts.snapshot, config, opts));
  phase('analyses');
  const ctx: CheckContext = { snapshot: opts.snapshot, config, set, cache: opts.cache ?? new Map(), now: opts.now ?? new Date() };
  const findings: Finding[] = [];
  const ruleErrors: CheckResult['ruleErrors'] = [];
  const all = [...RULES, ...(opts.extraRules ?? [])];
  if (opts.rules) assertKnownRules(opts.rules, all.map((r) => r.id));
  const rules = all.filter((r) => !opts.rules || opts.rules.includes(r.id));
  for (const rule of rules) {
    const sev = config.severities[rule.id] ?? rule.severity;
    if (sev === 'off') continue;
    try {
      for (const f of await runMemoized(rule, ctx)) {
        // a pinned source's own records are its repository's to check (DEC-061): only what
        // this repository writes about them (a link, a requires) is a finding here
        if (f.file && federatedFile(f.file)) continue;
        findings.push({ ...f, severity: config.severities[rule.id] ? sev : (f.severity ?? sev) });
      }
      mark(`rule ${rule.id}`);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // history rules need the git binary; without it (isomorphic-git fallback) they are
      // skipped and say so, rather than failing the whole check
      if ((e instanceof CtxError && e.code === 'GIT_MISSING') || /spawn git ENOENT/.test(message)) {
        findings.push({ rule: rule.id, severity: 'info', message: `${rule.id} skipped: it needs the git binary, which was not found on PATH` });
      } else ruleErrors.push({ rule: rule.id, message });
    }
  }
  findings.sort(compareFindings);
  let baselined = 0;
  let kept = findings;
  if (opts.baseline) {
    const keys = new Map<string, number>();
    for (const k of opts.baseline.keys) keys.set(k, (keys.get(k) ?? 0) + 1);
    kept = findings.filter((f) => {
      const k = findingKey(f);
      const n = keys.get(k) ?? 0;
      if (n > 0) {
        keys.set(k, n - 1);
        baselined++;
        return false;
      }
      return true;
    });
  }
  const files = (await opts.snapshot.listUnder(config.dir)).length;
  return { findings: kept, baselined, artifacts: set.artifacts.length, files, snapshot: { kind: opts.snapshot.kind, commit: opts.snapshot.commit }, ruleErrors };
}

export function compareFindings(a: Finding, b: Finding): number {
  return (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || a.rule.localeCompare(b.rule) || a.message.localeCompare(b.message);
}

/** Baseline identity ignores line numbers so that edits above a finding do not resurrect it. */
export function findingKey(f: Pick<Finding, 'rule' | 'file' | 'id' | 'message'>): string {
  return `${f.rule}\u0000${f.file ?? ''}\u0000${f.id ?? ''}\u0000${f.message}`;
}

export interface Baseline {
  keys: string[];
}

/** Read a baseline written by `git ctx check --format json` or `--write-baseline`. */
export async function readBaseline(file: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new CtxError('IO', `cannot read baseline ${file}: ${(e as Error).message}`, { file });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new CtxError('PARSE', `baseline is not valid JSON: ${(e as Error).message}`, { file, hint: 'write one with git ctx check --write-baseline FILE' });
  }
  const list = Array.isArray(data) ? data : (data as { findings?: unknown }).findings;
  if (!Array.isArray(list)) throw new CtxError('PARSE', 'baseline must be a JSON array of findings or an object with "findings"', { file });
  return { keys: list.map((f) => findingKey(f as Finding)) };
}

export function baselineJson(findings: Finding[]): string {
  return JSON.stringify({ version: 1, findings: findings.map(({ rule, file, id, message, severity }) => ({ rule, severity, file, id, message })) }, null, 2) + '\n';
}

/**
 * An unknown rule id is a usage error, never a silent pass (a misspelled id would run
 * nothing and report a clean tree). Names the close matches.
 */
export function assertKnownRules(wanted: string[], known: string[]): void {
  const unknown = wanted.filter((id) => !known.includes(id));
  if (!unknown.length) return;
  const near = [...new Set(unknown.flatMap((id) => closeMatches(id, known, 2)))];
  throw new CtxError('USAGE', `unknown rule id${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`, {
    hint: `${near.length ? `did you mean ${near.join(', ')}? ` : ''}run git ctx check --list-rules to see every rule id`,
  });
}

/** Descriptions of every rule, for --list-rules and SARIF. */
export function ruleCatalog(extra: Rule[] = []): { id: string; severity: FindingSeverity; description: string }[] {
  return [...RULES, ...extra].map((r) => ({ id: r.id, severity: r.severity, description: r.description }));
}
