// @spec SPEC-CACHE-001

import path from 'node:path';
import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { resolveGitDir } from '../../git/git-dir.js';
import { plural } from '../../util/plural.js';
import { formatOption, io } from '../shared.js';

interface CacheCliOptions {
  root?: string;
  format: 'human' | 'json';
  json?: boolean;
  all?: boolean;
  prune?: boolean;
}

const size = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(0)} KB` : `${n} B`);

/** The repository root for -C (or the current directory); caches need a git directory, not a snapshot. */
function rootOf(o: CacheCliOptions): string {
  const root = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
  // the git dir is found from the root's .git; from a subdirectory, walk up to it
  for (let d = root; ; d = path.dirname(d)) {
    if (resolveGitDir(d)) return d;
    if (path.dirname(d) === d) throw new CtxError('USAGE', `not inside a git repository: ${root}`, { hint: 'run it in a repository, or pass -C <dir>' });
  }
}

function withCommon(cmd: Command): Command {
  return cmd.addOption(formatOption(['human', 'json'], 'human')).option('--json', 'shorthand for --format json').option('-C, --root <dir>', 'repository to work on (default: the current directory)');
}

/** `git ctx cache status|clean`: the derived data under .git/ctx/cache. */
export function register(program: Command): void {
  const cache = program.command('cache').description('The caches under .git/ctx/cache (derived data, safe to delete): status, clean');

  withCommon(cache.command('status').description('List every registered cache kind with its files, size and entries, the total against the size limit, and the per-user V8 code cache'))
    .option('--prune', 'also prune now: delete the least recently written caches until the total is under the limit')
    .addHelpText('after', '\nThe limit is 512 MB per clone (GIT_CTX_CACHE_LIMIT_MB overrides it); runs that write a cache prune\nat most once an hour. GIT_CTX_NO_CACHE=1 turns every cache off.\n\nExit codes: 0 reported, 2 usage or environment error (not in a repository).')
    .action(async (o: CacheCliOptions) => {
      const root = rootOf(o);
      const { cacheStatus, pruneCaches } = await import('../../cache/inventory.js');
      const pruned = o.prune ? pruneCaches(root) : undefined;
      const s = cacheStatus(root, io().env);
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify({ ...s, ...(pruned ? { pruned } : {}) }, null, 2) + '\n');
        return;
      }
      const rel = (d: string | undefined) => {
        if (!d) return '(none)';
        const r = path.relative(io().cwd, d);
        return r.startsWith('..') ? d : r || '.';
      };
      const lines: string[] = [];
      if (s.disabled) lines.push('caches are off (GIT_CTX_NO_CACHE=1): nothing is read or written');
      lines.push(`${rel(s.dir)}: ${size(s.bytes)} in ${plural(s.files.length, 'file')} (limit ${size(s.limitBytes)})`);
      // each area with files, then every registered kind of it (with its entries of this version)
      const areas = [...s.kinds.map((k) => k.kind), ...new Set(s.caches.map((c) => c.area).filter((a) => !s.kinds.some((k) => k.kind === a)))];
      for (const area of areas) {
        const k = s.kinds.find((x) => x.kind === area);
        if (k) lines.push(`  ${k.kind.padEnd(11)} ${size(k.bytes).padStart(9)}  ${plural(k.files, 'file').padEnd(9)} ${k.what}`);
        else lines.push(`  ${area.padEnd(11)} ${'-'.padStart(9)}  no files`);
        for (const c of s.caches.filter((x) => x.area === area)) {
          const entries = c.entries === undefined ? '' : `, ${plural(c.entries, 'entry', 'entries')}`;
          lines.push(`    ${c.name.padEnd(24)} ${size(c.bytes).padStart(9)}  ${plural(c.files, 'file')}${entries}  (${c.file}, v${c.version}, ${c.codec})`);
        }
      }
      if (s.otherBuilds.files) lines.push(`other builds of git-ctx: ${size(s.otherBuilds.bytes)} in ${plural(s.otherBuilds.files, 'file')} (not read by this one; pruning deletes them)`);
      lines.push(`agent sessions: ${size(s.sessions.bytes)} in ${plural(s.sessions.files, 'file')} (older than a week are dropped)`);
      lines.push(`V8 code cache (per user, every repository): ${rel(s.compileCache.dir)}: ${size(s.compileCache.bytes)} in ${plural(s.compileCache.files, 'file')}`);
      if (pruned) lines.push(pruned.removed.length ? `pruned ${plural(pruned.removed.length, 'file')}, ${size(pruned.freedBytes)} freed` : 'pruned nothing: under the limit');
      io().out(lines.join('\n') + '\n');
    });

  withCommon(cache.command('clean').description('Delete the caches of this repository (the next run rebuilds them); --all also agent-session memories and the per-user V8 code cache'))
    .option('-a, --all', 'also delete agent-session memories and the per-user V8 code cache')
    .addHelpText('after', '\nNever touches anything but caches: locks, the evidence store and a written map stay.\n\nExit codes: 0 done (or nothing to delete), 2 usage or environment error.')
    .action(async (o: CacheCliOptions) => {
      const root = rootOf(o);
      const { cleanCaches } = await import('../../cache/inventory.js');
      const r = cleanCaches(root, { all: o.all });
      if (o.json || o.format === 'json') {
        io().out(JSON.stringify(r, null, 2) + '\n');
        return;
      }
      if (!r.removed.length) io().out('nothing to delete\n');
      for (const d of r.removed) io().out(`deleted ${path.relative(io().cwd, d.dir) || d.dir}: ${plural(d.files, 'file')}, ${size(d.bytes)}\n`);
    });
}
