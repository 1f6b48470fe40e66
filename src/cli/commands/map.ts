import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { ctxDir } from '../../git/git-dir.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { addRepoOptions, io, loadRepo, type RepoOptions } from '../shared.js';
import { plural } from '../../util/plural.js';

interface MapCliOptions extends RepoOptions {
  output?: string;
  staleness: boolean;
  title?: string;
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('map')
    .description('Write the decision map: one self-contained HTML page of the records, their links and their drift')
    .option('-o, --output <file>', 'where to write the page (default: <git-dir>/ctx/map.html)')
    .option('--no-staleness', 'do not judge staleness (faster; nodes show unstamped/unanchored/not judged)')
    .option('--title <text>', 'page title (default: "Decision map")')
    .option('--json', 'print the map data as JSON instead of writing the page')
    .addHelpText(
      'after',
      [
        '',
        'The page needs no network: the graph library (cytoscape), style, script and data are inlined.',
        'Nodes are coloured by type, bordered by staleness (red stale, orange moved, green fresh), faded when',
        'inactive; edges are links, requires and relations (supersedes dashed red). Filter by type, status,',
        'domain and staleness; search by id, title, summary or keyword; click a node for its panel.',
        'The path of the written page is printed on stdout.',
        '',
        'Examples:',
        '  git ctx map                          # writes .git/ctx/map.html and prints its path',
        '  git ctx map -o decisions.html --at v1.2.0',
        '  xdg-open "$(git ctx map)"',
      ].join('\n'),
    );
  addRepoOptions(cmd).action(async (o: MapCliOptions) => {
    const [{ buildMapData }, { renderMapHtml }] = await Promise.all([import('../../map/data.js'), import('../../map/render.js')]);
    const repo = await loadRepo(o);
    try {
      const data = await buildMapData({ snapshot: repo.snapshot, config: repo.config, set: repo.set, staleness: o.staleness, title: o.title });
      if (o.json) {
        io().out(JSON.stringify(data, null, 2) + '\n');
        return;
      }
      const file = o.output ? path.resolve(io().cwd, o.output) : ctxDir(repo.snapshot.root, 'map.html');
      if (!file) throw new CtxError('NOT_A_REPO', 'no git directory to write the map into', { hint: 'pass -o FILE' });
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, renderMapHtml(data));
      for (const w of data.warnings) io().err(`git-ctx: warning: ${w}\n`);
      // a file with a problem that still gave its record (an unmapped status) is on the map
      const loaded = new Set(repo.set.artifacts.map((a) => a.file));
      const unloaded = new Set(repo.set.problems.filter((p) => !loaded.has(p.file)).map((p) => p.file)).size;
      if (unloaded) io().err(`git-ctx: warning: ${plural(unloaded, 'file')} did not load and ${unloaded === 1 ? 'is' : 'are'} not on the map; git ctx check lists ${unloaded === 1 ? 'it' : 'them'}\n`);
      // what the page holds, on stderr: stdout stays the path alone (`xdg-open "$(git ctx map)"`)
      const stale = data.nodes.filter((n) => n.staleness === 'stale').length;
      io().err(`map: ${plural(data.nodes.length, 'record')}, ${plural(data.edges.length, 'edge')}${data.broken.length ? `, ${plural(data.broken.length, 'broken link')}` : ''}${stale ? `, ${stale} stale` : ''}\n`);
      io().out(file + '\n');
    } finally {
      repo.close();
    }
  });
}
