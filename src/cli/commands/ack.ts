import type { Command } from '../commander.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { judgeArtifacts } from '../../staleness/judge.js';
import { stampArtifacts } from '../../staleness/stamp.js';
import { addRepoOptions, colors, formatOption, io, loadRepo, type RepoOptions } from '../shared.js';
import { stampLines } from './stamp.js';

interface AckCliOptions extends RepoOptions {
  dryRun?: boolean;
  format: 'human' | 'json';
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('ack')
    .argument('<id>', 'artifact whose drift you have reviewed')
    .description('Acknowledge drift: the anchored code was reviewed against the artifact, so stamp it at HEAD with the current fingerprints')
    .option('--dry-run', 'show what would be written, write nothing')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText('after', '\nExamples:\n  git ctx ack DEC-012            the drift of DEC-012 was reviewed: stamp it now\n  git ctx ack DEC-012 --dry-run  show what would be written\n\nUncommitted edits to anchored files are recorded as they are (a warning names them): commit them with the stamp.');
  addRepoOptions(cmd, { at: false, staged: true }).action(async (id: string, o: AckCliOptions) => {
    const repo = await loadRepo(o);
    try {
      const a = requireArtifact(repo.set, id);
      const before = (await judgeArtifacts({ snapshot: repo.snapshot, config: repo.config, set: repo.set, ids: [a.id] })).artifacts[0];
      const results = await stampArtifacts({ snapshot: repo.snapshot, config: repo.config, set: repo.set, ids: [a.id], dryRun: o.dryRun });
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify({ version: 1, dryRun: !!o.dryRun, acknowledged: before, results }, null, 2) + '\n');
        return;
      }
      const p = colors();
      if (before) {
        const drift = before.anchors.filter((v) => v.state !== 'ok');
        io().out(drift.length ? `${p.bold(a.id)} was ${before.status}; acknowledged:\n${drift.map((v) => `  ${v.state.padEnd(9)} ${v.anchor}${v.movedTo ? ` → ${v.movedTo}` : ''}\n`).join('')}` : `${p.bold(a.id)} was ${before.status}; nothing to acknowledge, stamp refreshed\n`);
      }
      io().out(stampLines(results, { dryRun: o.dryRun }));
    } finally {
      repo.close();
    }
  });
}
