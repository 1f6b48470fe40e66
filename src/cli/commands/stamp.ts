import type { Command } from '../commander.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { CtxError } from '../../errors.js';
import { stampArtifacts, type StampResult } from '../../staleness/stamp.js';
import { addRepoOptions, colors, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';
import { plural } from '../../util/plural.js';

interface StampCliOptions extends RepoOptions {
  all?: boolean;
  fix?: boolean;
  dryRun?: boolean;
  format: 'human' | 'json';
  json?: boolean;
}

/** Human lines for stamp results (shared with ack). */
export function stampLines(results: StampResult[], opts: { dryRun?: boolean } = {}): string {
  const p = colors();
  const out: string[] = [];
  if (opts.dryRun) out.push(p.dim('dry run: nothing written'));
  for (const r of results) {
    if (r.action === 'skipped') out.push(`${p.dim('skipped')}  ${r.id}: ${r.reason}`);
    else if (r.action === 'fixed') {
      out.push(`${p.green('fixed')}    ${r.id}  ${p.dim(r.stampFile ? `${r.stampFile} (stamp of ${r.file}, which is not rewritten)` : r.file)}${r.reason ? p.dim(`  (${r.reason})`) : ''}`);
      for (const m of r.moves ?? []) out.push(`           ${m.from} → ${m.to}`);
    } else {
      const weak = r.mentioned ? ` (${r.mentioned} mentioned)` : '';
      out.push(`${p.green('stamped')}  ${r.id} at ${r.commit!.slice(0, 12)}: ${plural(Object.keys(r.fingerprints ?? {}).length, 'anchor')}${weak}${r.changed ? '' : p.dim(' (unchanged)')}  ${p.dim(r.stampFile ? `${r.stampFile} (stamp of ${r.file}, which is not rewritten)` : r.file)}`);
    }
    for (const u of r.unresolved) if (r.action !== 'skipped') out.push(`  ${p.yellow('warning')}: anchor ${u} does not resolve (dead anchor); not stamped`);
    if (r.dirty?.length) {
      const names = r.dirty.slice(0, 8).join(', ') + (r.dirty.length > 8 ? `, … (${r.dirty.length - 8} more)` : '');
      out.push(`  ${p.yellow('warning')}: uncommitted changes in ${names}: stamped as they are now (commit them with the stamp)`);
    }
    if (r.preview) out.push(...(r.stampFile ? [r.preview] : frontmatterOf(r.preview)).map((l) => `  ${p.dim('|')} ${l}`));
  }
  return out.join('\n') + (out.length ? '\n' : '');
}

/** The frontmatter lines of a file's text (what a dry run shows). */
function frontmatterOf(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[0] !== '---') return [];
  const end = lines.indexOf('---', 1);
  return end > 0 ? lines.slice(1, end) : [];
}

export function register(program: Command): void {
  const cmd = program
    .command('stamp')
    .argument('[ids...]', 'artifacts to stamp')
    .description('Record HEAD and the fingerprint of every anchor in artifacts (stamp.commit, stamp.fingerprints)')
    .option('--all', 'stamp every artifact that has anchors')
    .option('--fix', 're-stamp moved anchors only (renamed files, moved symbols, files moved inside a glob); stale anchors stay stale; without ids, every artifact')
    .option('--dry-run', 'show what would be written, write nothing')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  git ctx stamp DEC-012            record HEAD and the fingerprints of DEC-012\'s anchors',
        '  git ctx stamp --all              every artifact that has anchors',
        '  git ctx stamp --fix              re-stamp every moved anchor (what `git ctx stale` suggests)',
        '  git ctx stamp DEC-012 --dry-run  show the frontmatter that would be written',
        '  git ctx stamp ADR-0007           a record read in place: its mentioned code, stamped in .contextia/stamps.jsonl',
        '',
        'Fingerprints are read from the working tree: stamping with uncommitted edits to anchored files',
        'warns and records those edits, so commit them with the stamp. With --staged, fingerprints are',
        'read from the index (the pre-commit view); the file written is always the working-tree one.',
        'Records read in place (ADR folders) are never rewritten: their stamps go into <dir>/stamps.jsonl.',
      ].join('\n'),
    );
  addRepoOptions(cmd, { at: false, staged: true }).action(async (ids: string[], o: StampCliOptions) => {
    if (!ids.length && !o.all && !o.fix) throw new CtxError('USAGE', 'name artifacts to stamp, or pass --all (or --fix to re-stamp every moved anchor)');
    if (ids.length && o.all) throw new CtxError('USAGE', 'pass ids or --all, not both');
    const repo = await loadRepo(o);
    try {
      const all = o.all || !ids.length;
      const resolved = all ? ('all' as const) : ids.map((id) => requireArtifact(repo.set, id).id);
      const results = await stampArtifacts({ snapshot: repo.snapshot, config: repo.config, set: repo.set, ids: resolved, fix: o.fix, dryRun: o.dryRun });
      if (o.json || o.format === 'json') io().out(JSON.stringify({ version: 1, dryRun: !!o.dryRun, results }, null, 2) + '\n');
      else io().out(stampLines(all ? results.filter((r) => r.action !== 'skipped' || r.unresolved.length) : results, { dryRun: o.dryRun }));
    } finally {
      repo.close();
    }
  });
}
