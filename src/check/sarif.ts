// @spec SPEC-CHECK-001

import { ruleCatalog } from './run.js';
import type { Finding, FindingSeverity } from './types.js';
import { VERSION } from '../version.js';

/**
 * SARIF 2.1.0 for GitHub code scanning, shared by `git ctx check --format sarif` and the PR
 * report's SARIF (src/pr/sarif.ts): one run whose driver is git-ctx, the rules it may report and
 * the results.
 */
export type SarifRule = { id: string; shortDescription: { text: string }; defaultConfiguration: { level: string } };

/** A finding's severity as a SARIF level. */
export const sarifLevel = (s: FindingSeverity): 'error' | 'warning' | 'note' => (s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note');

/** Every check rule as a SARIF rule descriptor. */
export const checkRules = (): SarifRule[] => ruleCatalog().map((c) => ({ id: c.id, shortDescription: { text: c.description }, defaultConfiguration: { level: sarifLevel(c.severity) } }));

/** A coherence finding as a SARIF result (no location for a finding on the repository or a global source). */
export function findingResult(f: Finding): Record<string, unknown> {
  return {
    ruleId: f.rule,
    level: sarifLevel(f.severity),
    message: { text: f.message },
    locations: f.file && !f.file.startsWith('~global/')
      ? [{ physicalLocation: { artifactLocation: { uri: f.file }, ...(f.line ? { region: { startLine: f.line, ...(f.column ? { startColumn: f.column } : {}) } } : {}) } }]
      : [],
  };
}

/** The SARIF log, as the text written. */
export function sarifLog(rules: readonly SarifRule[], results: readonly Record<string, unknown>[]): string {
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'git-ctx', version: VERSION, informationUri: 'https://www.npmjs.com/package/git-ctx', rules } }, results }],
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
