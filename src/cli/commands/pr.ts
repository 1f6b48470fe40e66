import { CtxError } from '../../errors.js';
import { Option, type Command } from '../commander.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { appendMarkers, type StaleMarker } from '../../staleness/markers.js';
import { analyzePullRequest } from '../../pr/analyze.js';
import { recordingEnabled } from '../../store/journal.js';
import { recordPrAnalysis } from '../../pr/record.js';
import { recordConfiguredAt } from '../../store/record.js';
import { COMMENT_MAX_CHARS, PR_RENDERERS, prFails, type PrFormat } from '../../pr/render.js';
import type { FailOn, PrResult } from '../../pr/types.js';
import { ExitCode, formatOption, io, parsePositiveInt } from '../shared.js';
import { now } from '../../util/timing.js';
import { zeroConfigLine } from '../../artifacts/sources/zero-config-line.js';

/** Options of `git ctx pr`. */
interface PrCliOptions {
  root?: string;
  base?: string;
  head: string;
  format: PrFormat;
  json?: boolean;
  failOn: FailOn;
  maxItems: number;
  all?: boolean;
  includeStale?: boolean;
  check: boolean;
  title?: string;
  body?: string;
}

export function register(program: Command): void {
  program
    .command('pr')
    .description('What the pull-request bot says: the artifacts governing the code changed between --base and --head (merge base...head), staleness, unstamped changes, and coherence findings the change introduces')
    .argument('[range]', 'base...head, base..head or a base, as git writes a range (git ctx pr main...HEAD): the same as --base and --head')
    .option('-C, --root <dir>', 'repository to work on (default: the current directory)')
    .option('--base <rev>', 'the branch or commit the pull request merges into (default: the upstream branch, else origin/HEAD)')
    .option('--head <rev>', 'the pull request head', 'HEAD')
    .addOption(formatOption(['markdown', 'json', 'sarif'], 'markdown'))
    .option('--json', 'shorthand for --format json')
    .addOption(new Option('--fail-on <level>', 'exit 1 when the PR introduces: error (coherence errors), warning (errors or warnings), stale (any of those, or stale/unstamped governing artifacts), never').choices(['error', 'warning', 'stale', 'never']).default('error'))
    .option('--max-items <n>', 'rows per table in the markdown output', parsePositiveInt('--max-items'), 50)
    .option('--all', `print the whole report: every row of every table, no size budget (the markdown output otherwise stays within the comment's ${COMMENT_MAX_CHARS.toLocaleString('en-US')} characters)`)
    .option('--include-stale', 'also list artifacts stale at head that the PR does not touch')
    .option('--no-check', 'skip the coherence check at the merge base and head')
    .option('--title <text>', "the pull request's title, part of what retrieval asks with (default: the first line of the range's commit messages)")
    .option('--body <text>', "the pull request's description (default: the rest of the commit messages)")
    .addHelpText(
      'after',
      [
        '',
        'Reads only git objects (never the working tree), so the output is the same on any clone with both commits.',
        '--format sarif gives the introduced findings and the changed, governed places for code scanning.',
        'Lockfiles, generated, vendored and binary files and test snapshots are counted, never scored (see ungovernable.paths in docs/configuration.md).',
        'Exit codes: 0 ok, 1 findings at or above --fail-on, 2 usage or environment error.',
      ].join('\n'),
    )
    .action(async (range: string | undefined, o: PrCliOptions) => {
      const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
      // `git ctx pr HEAD~30..HEAD` is how people first type it (DEC-093): a range as git writes it
      if (range !== undefined) {
        const r = rangeSides(range);
        if (o.base !== undefined || (r.head !== undefined && o.head !== 'HEAD')) throw new CtxError('USAGE', `two ranges: ${range} and ${o.base !== undefined ? `--base ${o.base}` : `--head ${o.head}`}`, { hint: 'give the range once' });
        o.base = r.base;
        if (r.head !== undefined) o.head = r.head;
      }
      let base = o.base;
      if (!base) {
        const { defaultBase } = await import('../../pr/base.js');
        const d = await defaultBase(cwd);
        base = d.rev;
        io().err(`git-ctx: comparing with ${d.rev} (${d.source}); pass --base to choose\n`);
      }
      const t0 = now();
      const result = await analyzePullRequest({ cwd, base, head: o.head, includeStale: o.includeStale, check: o.check, title: o.title, body: o.body, env: io().env });
      // like the analysis, recording follows the configuration committed at the PR head
      const record = recordingEnabled(io().env) ? ((await recordConfiguredAt(cwd, result.head.commit)) ?? true) : false;
      await recordPrAnalysis(cwd, result, { kind: 'cli', command: 'pr' }, { env: io().env, ms: now() - t0, record });
      recordPrMarkers(cwd, result, record);
      if (result.zeroConfig) io().err(`git-ctx: ${zeroConfigLine(result.zeroConfig)} (at the head)\n`);
      const format: PrFormat = o.json ? 'json' : o.format;
      io().out(PR_RENDERERS[format](result, o.all ? { maxItems: Number.MAX_SAFE_INTEGER, maxChars: Infinity } : { maxItems: o.maxItems }));
      if (prFails(result, o.failOn)) throw new ExitCode(1);
    });
}

/** The PR's staleness verdicts at head, remembered for impact and episodes (best effort, never fails the run). */
function recordPrMarkers(cwd: string, result: PrResult, record: boolean): void {
  const at = new Date().toISOString();
  const markers: StaleMarker[] = [];
  for (const a of result.artifacts) {
    if (!a.staleness || !a.file) continue;
    const base = { commit: result.head.commit, dirty: false, at, run: 'pr' };
    markers.push({ artifact: a.id, anchor: '', verdict: a.staleness.status, ...base });
    for (const v of a.staleness.anchors) markers.push({ artifact: a.id, anchor: v.anchor, verdict: v.state, ...base });
  }
  if (!markers.length) return;
  let dir = path.resolve(cwd);
  while (!existsSync(path.join(dir, '.git')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  appendMarkers(dir, markers, { record });
}

/** The sides of a range as git writes it: `a...b` and `a..b` (either side empty is HEAD), or a base alone. */
function rangeSides(range: string): { base: string; head?: string } {
  const m = /^(.*?)(\.{2,3})(.*)$/.exec(range.trim());
  if (!m) return { base: range.trim() };
  if (!m[1] && !m[3]) throw new CtxError('USAGE', `${range} is no range: write base...head, base..head or a base`);
  return { base: m[1] || 'HEAD', head: m[3] || 'HEAD' };
}
