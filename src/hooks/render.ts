import type { Finding } from '../check/types.js';
import { paint, type Paint } from '../util/color.js';
import { plural } from '../util/plural.js';
import type { DriftFinding } from '../staleness/drift.js';
import type { InstallResult } from './install.js';
import type { PreCommitResult } from './pre-commit.js';

/** How to get past the hook; printed whenever it blocks or warns. */
export const BYPASS_HINT = 'skip once with: git commit --no-verify   (or GIT_CTX_SKIP=1 git commit … to skip only git-ctx)';

function findingLine(f: Finding, p: Paint): string {
  const loc = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : '(repository)';
  const sev = { error: p.red, warning: p.yellow, info: p.blue }[f.severity](f.severity);
  return `  ${p.bold(loc)}  ${sev}  ${f.message}  ${p.dim(f.rule)}`;
}

function driftLines(d: DriftFinding, p: Paint, block: boolean): string[] {
  const sev = block ? p.red('error') : p.yellow('warning');
  const what = d.symbol ? `${d.symbol} in ${d.path}` : d.path ? d.path : d.anchor;
  const how =
    d.change === 'changed'
      ? `changed by this commit`
      : d.change === 'moved'
        ? `moved to ${d.movedTo} by this commit`
        : `no longer found (removed or renamed) in this commit`;
  return [
    `  ${p.bold(d.path ? `${d.path}${d.line ? `:${d.line}` : ''}` : d.anchor)}  ${sev}  ${what} is anchored by ${d.artifact} (${d.file}) and was ${how}, but ${d.artifact} is not re-stamped  ${p.dim('drift')}`,
    `      review ${d.file}, then: ${p.cyan(`${d.command} && git add ${d.file}`)}`,
  ];
}

/** Characters of the governing line at most: one line of a terminal, whatever the titles. */
const GOVERNING_MAX = 160;

/**
 * One line naming the strongest records governing the staged change (at most three, titles
 * cut), or undefined when none reaches the relevance floor: a reminder, never a finding.
 */
export function governingLine(r: Pick<PreCommitResult, 'governing'>): string | undefined {
  if (!r.governing?.length) return undefined;
  const cut = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 1).trimEnd()}…` : t);
  const named = r.governing.map((g) => `${g.id} ${JSON.stringify(cut(g.title.replace(/\s+/g, ' '), 48))}`);
  const line = `governs this change: ${named.join(', ')}`;
  return cut(line, GOVERNING_MAX);
}

/** Human output of the pre-commit check: the commit's own findings first, then the rest. */
export function renderPreCommit(r: PreCommitResult, p: Paint = paint(false)): string {
  const lines: string[] = [];
  const n = r.changedPaths.length;
  if (r.inCommit.length) {
    lines.push(`In this commit:`);
    for (const f of r.inCommit) lines.push(findingLine(f, p));
  }
  if (r.elsewhere.length) {
    lines.push(`Elsewhere in the staged snapshot (the tree being committed):`);
    for (const f of r.elsewhere) lines.push(findingLine(f, p));
  }
  if (r.elsewhereOmitted) lines.push(p.dim(`  … and ${plural(r.elsewhereOmitted, 'finding')} below ${r.failOn} in other files (run: git ctx check --staged)`));
  for (const e of r.check.ruleErrors) lines.push(`  ${p.red('rule failed')}  ${e.rule}: ${e.message}`);
  if (r.drift.length) {
    lines.push(`Anchored code changed without a re-stamp (hook.drift: ${r.driftMode}):`);
    for (const d of r.drift) lines.push(...driftLines(d, p, r.driftMode === 'block'));
  }
  const governs = governingLine(r);
  if (governs) lines.push(governs);
  const errors = r.check.findings.filter((f) => f.severity === 'error').length;
  const summary = `git-ctx: ${plural(n, 'staged path')}, ${plural(r.check.artifacts, 'artifact')} checked (${r.rules === 'all' ? 'all rules' : 'blocking rules and record warnings'}): ${plural(errors, 'error')}, ${plural(r.check.findings.length - errors, 'other finding')}, ${plural(r.drift.length, 'drifted anchor')}`;
  if (r.blockedBy.length) {
    const why = r.blockedBy
      .map((b) => (b === 'findings' ? `findings at or above ${r.failOn}` : b === 'rule-errors' ? 'a check rule failed' : 'drift (hook.drift: block)'))
      .join(', ');
    lines.push(`${p.red('✗')} ${summary}`);
    lines.push(`${p.red('commit blocked')} by ${why}. Fix and re-stage, or ${BYPASS_HINT}`);
  } else if (r.check.findings.length || r.drift.length) {
    lines.push(`${p.yellow('!')} ${summary}`);
    lines.push(p.dim(`commit allowed (warnings do not block; ${r.drift.length ? 'set hook.drift: block in .contextia/config.yaml to make drift block' : `only ${r.failOn}s block`})`));
  } else {
    lines.push(`${p.green('✓')} ${summary}`);
  }
  return lines.join('\n') + '\n';
}

/** Human output of `git ctx hooks install [--uninstall]`. */
export function renderInstall(r: InstallResult): string {
  const lines: string[] = [];
  switch (r.action) {
    case 'installed':
      lines.push(`installed the git-ctx pre-commit hook: ${r.file}`);
      break;
    case 'chained':
      lines.push(`installed the git-ctx pre-commit hook: ${r.file}`);
      lines.push(`the existing hook was kept as ${r.chained}; it runs first, and its failure stops the commit`);
      break;
    case 'updated':
      lines.push(r.manager === 'husky' ? `husky manages the hooks: updated the git-ctx line in ${r.file}` : `updated the git-ctx pre-commit hook: ${r.file}`);
      break;
    case 'manager-entry-added':
      lines.push(`${r.manager} manages the hooks: added a git-ctx entry to ${r.file}`);
      break;
    case 'manager-entry-updated':
      lines.push(`${r.manager} manages the hooks: updated the git-ctx entry in ${r.file}`);
      break;
    case 'manager-entry-present':
      lines.push(`${r.manager} manages the hooks and ${r.file} already runs git-ctx: nothing to do`);
      break;
    case 'manager-entry-removed':
      lines.push(`removed the git-ctx entry from ${r.file}`);
      break;
    case 'manager-manual':
      lines.push(`${r.manager} manages the hooks here, configured in ${r.file}, which git-ctx does not edit; nothing was written.`);
      lines.push(`Add this pre-commit command to it:`);
      lines.push(`  ${r.line}`);
      break;
    case 'unchanged':
      lines.push(`the git-ctx pre-commit hook is already installed: ${r.file}`);
      break;
    case 'husky-line-added':
      lines.push(`husky manages the hooks: added the git-ctx line to ${r.file}`);
      break;
    case 'husky-line-present':
      lines.push(`husky manages the hooks and ${r.file} already runs git-ctx: nothing to do`);
      break;
    case 'husky-manual':
      lines.push(`husky manages the hooks here (${r.hooksDir}); nothing was written.`);
      lines.push(`Add this line to ${r.file}:`);
      lines.push(`  ${r.line}`);
      lines.push(`(or re-run with --force to install into ${r.hooksDir} anyway)`);
      break;
    case 'shared-hooks-dir':
      lines.push(`core.hooksPath points outside this repository: ${r.hooksDir}`);
      lines.push(`installing there would run git-ctx in every repository that shares it; nothing was written.`);
      lines.push(`re-run with --force to install there anyway, or unset core.hooksPath for this repository`);
      break;
    case 'uninstalled':
      lines.push(`removed the git-ctx pre-commit hook: ${r.file}`);
      if (r.restored) lines.push(`restored the previous hook from ${r.chained}`);
      break;
    case 'husky-line-removed':
      lines.push(`removed the git-ctx line from ${r.file}`);
      break;
    case 'not-installed':
      lines.push(`the git-ctx pre-commit hook is not installed (${r.file}): nothing to remove`);
      break;
  }
  if (r.applied) lines.push(`applied it to the hooks directory with ${r.applied}`);
  if (r.manager && /added|updated/.test(r.action)) lines.push(`teammates without git-ctx are not blocked: their commits print a one-line notice and proceed`);
  if (r.pending) lines.push(`not active yet: ${r.pending}`);
  for (const note of r.notes) lines.push(`note: ${note}`);
  return lines.join('\n') + '\n';
}
