// @spec SPEC-CHECK-001

import { severityAtLeast } from './run.js';
import { checkRules, findingResult, sarifLog } from './sarif.js';
import type { CheckResult, FindingSeverity } from './types.js';
import { paint, type Paint } from '../util/color.js';
import { plural } from '../util/plural.js';

export type CheckFormat = 'human' | 'json' | 'sarif';

function human(r: CheckResult, p: Paint): string {
  const lines: string[] = [];
  const sevColor = { error: p.red, warning: p.yellow, info: p.blue };
  for (const f of r.findings) {
    const loc = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : '(repository)';
    lines.push(`${p.bold(loc)}  ${sevColor[f.severity](f.severity)}  ${f.message}  ${p.dim(f.rule)}`);
  }
  for (const e of r.ruleErrors) lines.push(`${p.red('rule failed')}  ${e.rule}: ${e.message}`);
  const count = (s: FindingSeverity) => r.findings.filter((f) => f.severity === s).length;
  const summary = `${plural(r.artifacts, 'artifact')} checked: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${count('info')} info${r.baselined ? `, ${r.baselined} accepted by baseline` : ''}`;
  lines.push(r.findings.length ? summary : p.green(`✓ ${summary}`));
  return lines.join('\n') + '\n';
}

function json(r: CheckResult): string {
  return JSON.stringify({ version: 1, tool: 'git-ctx', ...r }, null, 2) + '\n';
}

/** SARIF 2.1.0 for GitHub code scanning. */
function sarif(r: CheckResult): string {
  return sarifLog(checkRules(), r.findings.map(findingResult));
}

export function renderCheck(r: CheckResult, format: CheckFormat, p: Paint = paint(false)): string {
  if (format === 'json') return json(r);
  if (format === 'sarif') return sarif(r);
  return human(r, p);
}

export function checkExitCode(r: CheckResult, failOn: FindingSeverity): 0 | 1 {
  return r.findings.some((f) => severityAtLeast(f.severity, failOn)) || r.ruleErrors.length ? 1 : 0;
}
