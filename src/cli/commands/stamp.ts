import type { Command } from '../commander.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { CtxError } from '../../errors.js';
import { stampArtifacts, type StampResult } from '../../staleness/stamp.js';
import { addRepoOptions, colors, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';
import { plural } from '../../util/plural.js';

interface StampCliOptions extends RepoOptions {
  all?: boolean;
  fix?: boolean;
  format: 'human' | 'json';
  json?: boolean;
}

/** Human lines for stamp results (shared with ack). */
export function stampLines(results: StampResult[]): string {
  const p = colors();
  const out: string[] = [];
  for (const r of results) {
    if (r.action === 'skipped') out.push(`${p.dim('skipped')}  ${r.id}: ${r.reason}`);
    else if (r.action === 'fixed') {
      out.push(`${p.green('fixed')}    ${r.id}  ${p.dim(r.file)}${r.reason ? p.dim(`  (${r.reason})`) : ''}`);
      for (const m of r.moves ?? []) out.push(`           ${m.from} → ${m.to}`);
    } else out.push(`${p.green('stamped')}  ${r.id} at ${r.commit!.slice(0, 12)}: ${plural(Object.keys(r.fingerprints ?? {}).length, 'anchor')}${r.changed ? '' : p.dim(' (unchanged)')}  ${p.dim(r.file)}`);
    for (const u of r.unresolved) if (r.action !== 'skipped') out.push(`  ${p.yellow('warning')}: anchor ${u} does not resolve (dead anchor); not stamped`);
  }
  return out.join('\n') + (out.length ? '\n' : '');
}

export function register(program: Command): void {
  const cmd = program
    .command('stamp')
    .argument('[ids...]', 'artifacts to stamp')
    .description('Record HEAD and the fingerprint of every anchor in artifacts (stamp.commit, stamp.fingerprints)')
    .option('--all', 'stamp every artifact that has anchors')
    .option('--fix', 're-stamp moved anchors only (renamed files, moved symbols); stale anchors stay stale')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText('after', '\nWith --staged, fingerprints are read from the index (the pre-commit view); the file written is always the working-tree one.');
  addRepoOptions(cmd, { at: false, staged: true }).action(async (ids: string[], o: StampCliOptions) => {
    if (!ids.length && !o.all) throw new CtxError('USAGE', 'name artifacts to stamp, or pass --all');
    if (ids.length && o.all) throw new CtxError('USAGE', 'pass ids or --all, not both');
    const repo = await loadRepo(o);
    try {
      const resolved = o.all ? ('all' as const) : ids.map((id) => requireArtifact(repo.set, id).id);
      const results = await stampArtifacts({ snapshot: repo.snapshot, config: repo.config, set: repo.set, ids: resolved, fix: o.fix });
      if (o.json || o.format === 'json') io().out(JSON.stringify({ version: 1, results }, null, 2) + '\n');
      else io().out(stampLines(o.all ? results.filter((r) => r.action !== 'skipped' || r.unresolved.length) : results));
    } finally {
      repo.close();
    }
  });
}
