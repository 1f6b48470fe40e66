import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BENCH = path.resolve(__dirname, '../../bench');

describe('bench scripts', () => {
  // Each script's header says what it measures and how to run it; `--help` prints that and
  // starts no clone, build or measurement (a bench that ignored it used to run for minutes).
  const scripts = readdirSync(BENCH).filter((f) => f.endsWith('.mjs'));

  it.each(scripts)('%s --help prints its usage and exits 0 at once', (script) => {
    const r = spawnSync(process.execPath, [path.join(BENCH, script), '--help'], { encoding: 'utf8', timeout: 20_000, cwd: BENCH });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(1);
    expect(r.stdout).not.toMatch(/^\s*$/);
    // the header is prose, not the script's own output of a run
    expect(r.stdout).not.toMatch(/node -e 0\s+\d/);
  });
});
