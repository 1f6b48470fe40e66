import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

describe('docs/cli.md, the CLI reference', () => {
  it('is what the commands print with --help today (regenerate: node scripts/build-cli-docs.mjs)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-cli-docs.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('has a section for every command and subcommand', () => {
    const page = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
    for (const name of ['check', 'for', 'search', 'trace', 'hooks install', 'hook agent-read', 'mcp config', 'rules export', 'cache status']) {
      expect(page).toContain(`## git ctx ${name}\n`);
      expect(page).toContain(`Usage: git-ctx ${name} `);
    }
  });
});
