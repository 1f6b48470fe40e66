// @spec SPEC-CHECK-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { Config } from '../config.js';
import type { Snapshot } from '../snapshot/types.js';

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface Finding {
  /** stable rule id, e.g. broken-link */
  rule: string;
  severity: FindingSeverity;
  message: string;
  file?: string;
  line?: number;
  /** 1-based column, when the finding points into a line (SARIF startColumn) */
  column?: number;
  /** the artifact the finding is about */
  id?: string;
}

export interface CheckContext {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** shared between rules within one run (e.g. a CodeIndex built once) */
  cache: Map<string, unknown>;
  /** current time, injectable for deterministic tests */
  now: Date;
}

/** What a rule returns: a finding whose severity the run decides, unless it names one. */
export type RuleFinding = Omit<Finding, 'severity'> & { severity?: FindingSeverity };

export interface Rule {
  id: string;
  /** default severity; config.severities overrides */
  severity: FindingSeverity;
  description: string;
  /**
   * A finding may carry its own severity (a confirmation entry's `severity:`); a config
   * override of the rule's severity still wins over it.
   */
  run(ctx: CheckContext): Promise<RuleFinding[]> | RuleFinding[];
  /**
   * Optional: everything the findings depend on, as a string (see artifactSetKey in
   * rule-memo.ts); a run with the same key reuses the remembered findings. Only for rules
   * whose findings are a pure function of that key; undefined: run every time. May read the
   * snapshot (a promise) for what the findings depend on beyond the records.
   */
  memoKey?(ctx: CheckContext): string | undefined | Promise<string | undefined>;
}

export interface CheckResult {
  findings: Finding[];
  /** findings suppressed by the baseline */
  baselined: number;
  /** artifacts and files examined */
  artifacts: number;
  files: number;
  snapshot: { kind: string; commit?: string };
  /** rules that threw (reported, never swallowed silently) */
  ruleErrors: { rule: string; message: string }[];
}
