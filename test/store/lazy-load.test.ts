import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { fixtureRepo } from '../mcp/helpers.js';

/**
 * A preload that reports every load of the SQLite driver (libsql or its native package) to a
 * file: proof, on real processes, that check, bundles, the hooks and the retrieval commands
 * (which only journal their episodes) never load it, while the store commands do.
 */
function preload(): { file: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('git-ctx-preload-');
  const log = path.join(dir, 'loaded.log');
  const hook = path.join(dir, 'watch.cjs');
  writeFileSync(
    hook,
    `const Module = require('node:module'); const fs = require('node:fs');
const orig = Module._load;
Module._load = function (request, ...rest) {
  if (/^(libsql|@libsql\\/|better-sqlite3)/.test(request)) fs.appendFileSync(${JSON.stringify(log)}, request + '\\n');
  return orig.call(this, request, ...rest);
};`,
  );
  return { file: log, env: { NODE_OPTIONS: `--require ${hook}`, GIT_CTX_NO_RECORD: '' } };
}

describe('the SQLite driver is loaded lazily', () => {
  it('check, a bundle, the pre-commit and agent-read hooks, for, search and trace never load it; episodes does', () => {
    const repo = fixtureRepo();
    const w = preload();
    const runs: [string[], string?][] = [
      [['check']],
      [['TASK-042']],
      [['hook', 'pre-commit']],
      [['hook', 'agent-read'], JSON.stringify({ session_id: 's', tool_name: 'Read', tool_input: { file_path: path.join(repo.dir, 'src/billing/invoice.ts') } })],
      [['for', 'src/billing/invoice.ts']],
      [['search', 'rounding']],
      [['trace', 'src/billing/invoice.ts']],
    ];
    for (const [args, input] of runs) {
      const r = runCli(args, { cwd: repo.dir, env: w.env, input });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    expect(existsSync(w.file) ? readFileSync(w.file, 'utf8') : '').toBe('');
    // the episodes were journalled all the same, and the detector does see a load
    const r = runCli(['episodes', '--json'], { cwd: repo.dir, env: w.env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { episodes: unknown[] }).episodes.length).toBe(5);
    expect(readFileSync(w.file, 'utf8')).toContain('libsql');
  });

  it('the Action bundle contains no SQLite driver', () => {
    const bundle = readFileSync(path.join(ROOT, 'action/dist/index.js'), 'utf8');
    expect(bundle).not.toMatch(/require\(["'](libsql|better-sqlite3)["']\)|@libsql\//);
    // it does journal its episodes (the recording code is bundled)
    expect(bundle).toContain('journal.jsonl');
  });
});
