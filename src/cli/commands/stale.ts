import { Option, type Command } from '../commander.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { CtxError } from '../../errors.js';
import { judgeArtifacts } from '../../staleness/judge.js';
import { appendMarkers, markersOf } from '../../staleness/markers.js';
import { renderStale, staleExitCode, type StaleFailOn, type StaleFormat } from '../../staleness/render.js';
import { ExitCode, addRepoOptions, colors, formatOption, io, loadRepo, parsePositiveInt, type RepoOptions } from '../shared.js';

interface StaleCliOptions extends RepoOptions {
  format: StaleFormat;
  json?: boolean;
  since?: string;
  all?: boolean;
  failOn?: StaleFailOn;
  renameLimit?: number;
}

const FAIL_ON = ['stale', 'moved', 'unstamped', 'never'];

export function register(program: Command): void {
  const cmd = program
    .command('stale')
    .argument('[ids...]', 'artifacts to judge (default: all)')
    .description('Judge artifacts for drift against their stamps: fresh, moved, stale, unanchored or unstamped, with the commits that explain it')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .option('--since <rev>', 'judge against this revision instead of each stamp')
    .option('-a, --all', 'list fresh and unanchored artifacts too (human format)')
    .addOption(new Option('--fail-on <status>', 'what makes the exit code 1 (default: config staleness.fail_on, else stale)').choices(FAIL_ON))
    .option('--rename-limit <n>', "git's rename limit for history walks (default: git's diff.renameLimit)", parsePositiveInt('--rename-limit'))
    .addHelpText('after', '\nExit codes: 0 nothing stale, 1 something stale (see --fail-on), 2 usage or environment error.');
  addRepoOptions(cmd).action(async (ids: string[], o: StaleCliOptions) => {
    const repo = await loadRepo(o);
    try {
      const resolved = ids.length ? ids.map((id) => requireArtifact(repo.set, id).id) : undefined;
      const report = await judgeArtifacts({ snapshot: repo.snapshot, config: repo.config, set: repo.set, ids: resolved, since: o.since, renameLimit: o.renameLimit });
      // verdicts against each stamp are remembered for impact and episodes; --since answers another question
      if (!o.since && repo.snapshot.kind !== 'index') appendMarkers(repo.snapshot.root, markersOf(report, 'stale'), repo.config);
      io().out(renderStale(report, o.json ? 'json' : o.format, colors(), { all: o.all || !!resolved }));
      const cfg = repo.config.staleness.fail_on;
      const failOn = o.failOn ?? (cfg === undefined ? 'stale' : String(cfg));
      if (!FAIL_ON.includes(failOn)) throw new CtxError('CONFIG', `staleness.fail_on must be one of ${FAIL_ON.join(', ')} (got ${failOn})`, { file: `${repo.config.dir}/config.yaml` });
      const code = staleExitCode(report, failOn as StaleFailOn);
      if (code) throw new ExitCode(code);
    } finally {
      repo.close();
    }
  });
}
