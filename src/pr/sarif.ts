// @spec SPEC-ACTION-001
import { ruleCatalog } from '../check/run.js';
import type { FindingSeverity } from '../check/types.js';
import { VERSION } from '../version.js';
import type { PrResult } from './types.js';

const level = (s: FindingSeverity) => (s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note');

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
  const results: Record<string, unknown>[] = r.coherence.introduced.map((f) => ({
    ruleId: f.rule,
    level: level(f.severity),
    message: { text: f.message },
    locations: f.file && !f.file.startsWith('~global/') ? [{ physicalLocation: { artifactLocation: { uri: f.file }, ...(f.line ? { region: { startLine: f.line } } : {}) } }] : [],
  }));
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
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'git-ctx',
            version: VERSION,
            informationUri: 'https://www.npmjs.com/package/git-ctx',
            rules: [
              ...PR_RULES.map((p) => ({ id: p.id, shortDescription: { text: p.description }, defaultConfiguration: { level: p.level } })),
              ...ruleCatalog().map((c) => ({ id: c.id, shortDescription: { text: c.description }, defaultConfiguration: { level: level(c.severity) } })),
            ],
          },
        },
        results,
      },
    ],
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
