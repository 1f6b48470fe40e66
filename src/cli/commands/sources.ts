// @spec SPEC-FEDERATION-001

import path from 'node:path';
import type { Command } from '../commander.js';
import type { PinChange, PinStatus } from '../../artifacts/sources/pins.js';
import type { Config } from '../../config.js';
import type { Snapshot } from '../../snapshot/types.js';
import { plural } from '../../util/plural.js';
import { formatOption, io, openRepo } from '../shared.js';

interface SourcesCliOptions {
  root?: string;
  format: 'human' | 'json';
  json?: boolean;
}

const short = (c: string | undefined) => (c ? c.slice(0, 12) : '-');

function withCommon(cmd: Command): Command {
  return cmd.addOption(formatOption(['human', 'json'], 'human')).option('--json', 'shorthand for --format json').option('-C, --root <dir>', 'repository to work on (default: the current directory)');
}

/** What moving one pin changed, in a few lines. */
function changeLines(c: PinChange): string[] {
  const head = c.from === c.to ? `${c.name}: ${short(c.to)} (${c.ref}), unchanged` : `${c.name}: ${c.from ? `${short(c.from)} → ` : 'pinned at '}${short(c.to)} (${c.ref})`;
  const lines = [head];
  if (c.previousUnavailable) lines.push(`  the previous pin ${short(c.from)} is no longer in the upstream's history: records are not compared`);
  const list = (what: string, ids: string[]) => {
    if (ids.length) lines.push(`  ${what} ${ids.length}: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? `, … ${ids.length - 12} more` : ''}`);
  };
  list('added', c.added);
  list('changed', c.changed);
  list(
    'renamed',
    c.renamed.map((r) => `${r.from === r.to ? r.from : `${r.from} → ${r.to}`} (${path.posix.basename(r.fromFile)} → ${path.posix.basename(r.toFile)}${r.changed ? ', changed' : ''})`),
  );
  list('superseded', c.superseded);
  list('removed', c.removed);
  return lines;
}

function statusLine(s: PinStatus): string {
  const where = s.fetched ? '' : ' (not fetched in this clone: `git ctx sources fetch`)';
  const ref = s.refChanged ? ` (ref is now ${s.ref} in config.yaml: \`git ctx sources update\` pins it)` : '';
  if (!s.pinned) return `${s.name}: not pinned; ${s.ref} is ${short(s.upstream)} upstream: run \`git ctx sources update\``;
  if (s.behind === 0) return `${s.name}: ${short(s.pinned)} is ${s.ref} upstream, up to date${ref}${where}`;
  if (s.behind === undefined) return `${s.name}: ${short(s.pinned)} is not in the history of ${s.ref} upstream (${short(s.upstream)}): the branch was rewritten${ref}${where}`;
  return `${s.name}: ${short(s.pinned)} is ${plural(s.behind, 'commit')} behind ${s.ref} (${short(s.upstream)})${ref}${where}`;
}

/**
 * One sources subcommand's run: open the repository, ask pins.ts, print JSON or the text
 * lines, close the repository whatever happened.
 */
async function runOnSources<R>(o: SourcesCliOptions, ask: (pins: typeof import('../../artifacts/sources/pins.js'), snapshot: Snapshot, config: Config) => Promise<R>, json: (r: R) => unknown, text: (r: R) => string[]): Promise<void> {
  const { snapshot, config } = await openRepo({ ...(o.root ? { root: o.root } : {}) });
  try {
    const r = await ask(await import('../../artifacts/sources/pins.js'), snapshot, config);
    io().out(o.json || o.format === 'json' ? JSON.stringify(json(r), null, 2) + '\n' : text(r).join('\n') + '\n');
  } finally {
    snapshot.close();
  }
}

/** `git ctx sources update|status|fetch`: records of other repositories, pinned in .contextia/sources.lock. */
export function register(program: Command): void {
  const sources = program
    .command('sources')
    .description("Records from other repositories (`sources:` entries with `git:`), pinned in .contextia/sources.lock: update, status, fetch");

  withCommon(sources.command('update').description('Pin each git source (or those named) to the commit its ref names now, fetch it, and say which records were added, changed or superseded'))
    .argument('[names...]', 'sources to update (default: every git source)')
    .addHelpText('after', '\nWrites .contextia/sources.lock (commit it: every clone, CI and the Action then read the same\nrecords). Nothing changes for readers until the next update, however far upstream moves.\n\nExit codes: 0 pinned, 2 a source could not be resolved or fetched (the message names it).')
    .action((names: string[], o: SourcesCliOptions) =>
      runOnSources(
        o,
        (pins, snapshot, config) => pins.updateSources(snapshot, config, { names }),
        (r) => r,
        (r) => [...r.changes.flatMap(changeLines), ...r.dropped.map((n) => `${n}: no longer configured, its pin was dropped`), r.written ? `wrote ${r.lock}: commit it so every clone reads these pins` : `${r.lock} unchanged`],
      ),
    );

  withCommon(sources.command('status').description('Say how far each pin is behind its ref upstream, and whether the pinned copy is in this clone'))
    .argument('[names...]', 'sources to ask about (default: every git source)')
    .addHelpText('after', '\nAsks the upstream (network); reading records never does.\n\nExit codes: 0 reported, 2 a source could not be reached (the message names it).')
    .action((names: string[], o: SourcesCliOptions) =>
      runOnSources(
        o,
        (pins, snapshot, config) => pins.sourcesStatus(snapshot, config, { names }),
        (r) => ({ sources: r }),
        (r) => r.map(statusLine),
      ),
    );

  withCommon(sources.command('fetch').description('Fetch the pinned commit of each git source into this clone (.git/ctx/sources), so every command reads it offline'))
    .argument('[names...]', 'sources to fetch (default: every git source)')
    .addHelpText('after', '\nA fresh clone also fetches on first use, with a one-line notice; this does it ahead (CI, before going offline).\n\nExit codes: 0 fetched (or already here), 2 a pin could not be fetched (the message names the source).')
    .action((names: string[], o: SourcesCliOptions) =>
      runOnSources(
        o,
        (pins, snapshot, config) => pins.fetchSources(snapshot, config, { names }),
        (r) => ({ sources: r }),
        (r) => r.map((x) => `${x.name}: ${short(x.commit)} ${x.fetched ? 'fetched' : 'already fetched'}`),
      ),
    );
}
