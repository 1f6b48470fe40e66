import path from 'node:path';
import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { IMPORT_MAP_FILE, exportAdr, exportCsv, exportJson, exportOriginal, parseImportMap } from '../../artifacts/sources/convert.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { containedPath, mkdirContained } from '../../util/contained.js';
import { toRepoPath } from '../../util/paths.js';
import { plural } from '../../util/plural.js';
import { addRepoOptions, io, loadRepo, type RepoOptions } from '../shared.js';

interface ExportOptions extends RepoOptions {
  format: 'json' | 'csv' | 'nygard' | 'madr' | 'original';
  out?: string;
  type?: string[];
  dryRun?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('export')
    .description('Write the artifact set as an ADR folder (Nygard or MADR), one JSON document, or CSV')
    .requiredOption('-f, --format <format>', 'json | csv | nygard | madr | original (imported records back as the files they were read from)')
    .option('-o, --out <path>', 'file (json, csv; default stdout) or folder (nygard, madr: required; original: default each record\'s own path) inside the repository')
    .option('-t, --type <type...>', 'artifact types written as ADRs (nygard, madr)', ['decision'])
    .option('-n, --dry-run', 'list the files an ADR export would write, write nothing')
    .addHelpText('after', '\nExamples:\n  git ctx export --format json > artifacts.json\n  git ctx export --format csv --out decisions.csv\n  git ctx export --format nygard --out docs/adr\n  git ctx export --format madr --out docs/decisions --dry-run\n  git ctx export --format original        # undo an import: each record back to its file, byte for byte\n\nExisting files are replaced only when they are the same record (same path); nothing outside the repository is written.\nExit codes: 0 written, 2 usage error.');
  addRepoOptions(cmd).action(async (o: ExportOptions) => {
    if (!['json', 'csv', 'nygard', 'madr', 'original'].includes(o.format)) throw new CtxError('USAGE', `unknown export format ${JSON.stringify(o.format)}`, { hint: 'use json, csv, nygard, madr or original' });
    const repo = await loadRepo(o);
    try {
      const root = repo.snapshot.root;
      if (o.format === 'json' || o.format === 'csv') {
        const text = o.format === 'json' ? exportJson(repo.set) : exportCsv(repo.set);
        if (!o.out) return void io().out(text);
        const rel = toRepoPath(root, o.out, repo.cwd);
        if (!o.dryRun) {
          if (path.dirname(rel) !== '.') await mkdirContained(root, path.dirname(rel));
          await writeFileAtomic(await containedPath(root, rel), text);
        }
        io().err(`${o.dryRun ? 'would write' : 'wrote'} ${rel}\n`);
        return;
      }
      if (o.format === 'original') {
        const map = parseImportMap((await repo.snapshot.read(`${repo.config.dir}/${IMPORT_MAP_FILE}`))?.toString('utf8'));
        const { files, other } = exportOriginal(repo.set, map, o.out ? toRepoPath(root, o.out, repo.cwd) : undefined, o.type);
        for (const f of files) {
          if (!o.dryRun) {
            if (path.dirname(f.path) !== '.') await mkdirContained(root, path.dirname(f.path));
            await writeFileAtomic(await containedPath(root, f.path), f.text);
          }
          io().out(`${o.dryRun ? 'would write' : 'wrote'} ${f.path}  (${f.id})\n`);
        }
        if (other.length) io().err(`${plural(other.length, 'record')} never read from an ADR file (${other.slice(0, 5).join(', ')}${other.length > 5 ? ', …' : ''}): not written; use --format nygard or madr for those\n`);
        if (!files.length && !other.length) io().err(`no ${o.type?.join('/') ?? 'decision'} artifacts to export\n`);
        return;
      }
      if (!o.out) throw new CtxError('USAGE', `--out <folder> is required for --format ${o.format}`, { hint: 'e.g. git ctx export --format nygard --out docs/adr' });
      const dir = toRepoPath(root, o.out, repo.cwd);
      const files = exportAdr(repo.set, o.format, dir, o.type);
      for (const f of files) {
        if (!o.dryRun) {
          if (path.dirname(f.path) !== '.') await mkdirContained(root, path.dirname(f.path));
          await writeFileAtomic(await containedPath(root, f.path), f.text);
        }
        io().out(`${o.dryRun ? 'would write' : 'wrote'} ${f.path}  (${f.id})\n`);
      }
      if (!files.length) io().err(`no ${o.type?.join('/') ?? 'decision'} artifacts to export\n`);
    } finally {
      repo.close();
    }
  });
}
