import path from 'node:path';
import type { Command } from '../commander.js';
import { runGit } from '../../git/exec.js';
import { readFile } from 'node:fs/promises';
import { IMPORT_MAP_FILE, parseImportMap, planImport } from '../../artifacts/sources/convert.js';
import { stampsPath, updateSidecarStamps } from '../../artifacts/sources/stamps.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { containedPath, mkdirContained } from '../../util/contained.js';
import { toRepoPath } from '../../util/paths.js';
import { addRepoOptions, io, loadRepo, type RepoOptions } from '../shared.js';

interface ImportOptions extends RepoOptions {
  dryRun?: boolean;
  copy?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('import')
    .argument('[folders...]', 'only records under these folders (default: every adr source)')
    .description('Convert decision records read in place (sources with format adr) into .contextia/ artifacts with frontmatter')
    .option('-n, --dry-run', 'print what would be written and moved, change nothing')
    .option('--copy', 'leave the records where they are (default: git mv them, keeping their history)')
    .addHelpText('after', '\nEach record keeps its id and number; its status is mapped (the text as written kept in status_text), relations and date/deciders carried over, mentioned code written as paths/anchors, a stamp kept in stamps.jsonl moved into its frontmatter, and the body kept byte for byte.\nRunning it again skips records already imported.\n\nExamples:\n  git ctx import --dry-run\n  git ctx import docs/adr\n  git ctx import --copy\n\nAfter importing, remove the folder from sources: in .contextia/config.yaml (with --copy, until then check reports each id twice).\nExit codes: 0 done, 2 usage or git error.');
  addRepoOptions(cmd, { at: false, staged: false }).action(async (folders: string[], o: ImportOptions) => {
    const repo = await loadRepo(o);
    try {
      const root = repo.snapshot.root;
      const only = folders.length ? folders.map((f) => toRepoPath(root, f, repo.cwd)) : undefined;
      const plan = planImport(repo.set, { only });
      let done = 0;
      const moved = new Set<string>();
      const origins: Record<string, NonNullable<(typeof plan)[number]['origin']>> = {};
      for (const item of plan) {
        if (item.skip) {
          io().out(`skip ${item.from}: ${item.skip}\n`);
          continue;
        }
        io().out(`${o.dryRun ? 'would ' : ''}${o.copy ? 'copy' : 'move'} ${item.from} → ${item.path}  (${item.id})\n`);
        if (o.dryRun) continue;
        if (path.dirname(item.path) !== '.') await mkdirContained(root, path.dirname(item.path));
        // git mv first: the rename is recorded on the unchanged bytes, then the frontmatter is added
        if (!o.copy) await runGit(['mv', '--', item.from, item.path], { cwd: root });
        await writeFileAtomic(await containedPath(root, item.path), item.text);
        if (item.origin) origins[item.id] = item.origin;
        if (item.stamped && !o.copy) moved.add(item.id);
        done++;
      }
      const stamped = plan.filter((i) => !i.skip && i.stamped);
      if (stamped.length) {
        // the stamp now lives in the record's frontmatter; moved records leave the sidecar
        // (copied ones stay read in place, stamped there too, until their folder leaves sources:)
        const file = stampsPath(repo.config.dir);
        io().out(`${o.dryRun ? 'would carry' : 'carried'} the stamp${stamped.length === 1 ? '' : 's'} of ${stamped.map((i) => i.id).join(', ')} from ${file} into the record${stamped.length === 1 ? '' : 's'}${o.copy ? '' : `, removing ${stamped.length === 1 ? 'its line' : 'their lines'} there`}\n`);
        if (moved.size) await updateSidecarStamps(root, repo.config.dir, new Map(), { remove: moved });
      }
      if (done) {
        // the import map: where each record was read, for `git ctx export --format original`
        const mapPath = await containedPath(root, `${repo.config.dir}/${IMPORT_MAP_FILE}`);
        const map = parseImportMap(await readFile(mapPath, 'utf8').catch(() => undefined));
        Object.assign(map.records, origins);
        const sorted = Object.fromEntries(Object.entries(map.records).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
        await writeFileAtomic(mapPath, JSON.stringify({ version: 1, records: sorted }, null, 2) + '\n');
      }
      if (!plan.length) io().err('no records to import: configure a folder under sources: (format adr) in .contextia/config.yaml\n');
      else if (done && !o.dryRun) io().err(`imported ${done} record${done === 1 ? '' : 's'}; now remove the imported folder${only && only.length === 1 ? '' : 's'} from sources: in ${repo.config.dir}/config.yaml\n`);
    } finally {
      repo.close();
    }
  });
}
