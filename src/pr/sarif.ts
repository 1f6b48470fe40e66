// @spec SPEC-ACTION-001
import { checkRules, findingResult, sarifLog } from '../check/sarif.js';
import type { PrResult } from './types.js';

/** The rules of the PR report's own results (beside the check rules of introduced findings). */
const PR_RULES = [
  { id: 'governed-change', description: 'The pull request changes code governed by an artifact (a decision, spec or norm): review it against them', level: 'note' },
  { id: 'unstamped-change', description: 'The pull request changes anchored code without re-stamping the governing artifact (git ctx ack)', level: 'warning' },
  { id: 'stale-governing', description: 'An artifact governing the changed code is stale at head', level: 'warning' },
];

/**
 * SARIF 2.1.0 of a PR report, for code scanning: the coherence findings the PR introduces
 * (by check rule), and one result per changed, governed place (warning when a governing
 * artifact is changed without re-stamp or stale, note otherwise). Paths are relative to
 * the repository root, lines those of the head commit.
 */
export function renderPrSarif(r: PrResult): string {
  const byId = new Map(r.artifacts.map((a) => [a.id, a]));
  const results: Record<string, unknown>[] = r.coherence.introduced.map(findingResult);
  for (const l of r.locations) {
    const ids = l.ids.map((id) => byId.get(id)).filter((a) => a !== undefined);
    const ruleId = ids.some((a) => a.unstamped.length) ? 'unstamped-change' : ids.some((a) => a.staleness?.status === 'stale') ? 'stale-governing' : 'governed-change';
    results.push({
      ruleId,
      level: l.level === 'warning' ? 'warning' : 'note',
      message: { text: l.message },
      locations: [{ physicalLocation: { artifactLocation: { uri: l.file }, region: { startLine: l.line, ...(l.endLine ? { endLine: l.endLine } : {}) } } }],
    });
  }
  return sarifLog([...PR_RULES.map((p) => ({ id: p.id, shortDescription: { text: p.description }, defaultConfiguration: { level: p.level } })), ...checkRules()], results);
}
