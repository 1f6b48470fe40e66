import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseManifests } from '../../src/assemble/record.js';
import { makeRepo } from '../helpers/git-repo.js';
import { BIN, runCli } from '../helpers/cli.js';
import { spawnSync } from 'node:child_process';
import { art, commitFixed, exampleRepo } from './helpers.js';

const SPEC = '.contextia/system/specs/SPEC-BILLING-001.md';

describe('keyed by commit: --at, --record, bundles, replay', () => {
  it('rebuilds an old commit byte for byte after later edits, and replays its recorded note', () => {
    const { repo, commit: c1 } = exampleRepo();
    const first = runCli(['TASK-042', '--record'], { cwd: repo.dir });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^recorded sha256:[0-9a-f]{64} on [0-9a-f]{40} \(refs\/notes\/ctx\)\n$/);
    // recording the same bundle again adds nothing
    expect(runCli(['TASK-042', '--record'], { cwd: repo.dir }).stderr).toContain('already recorded');
    const note = repo.git('notes', '--ref', 'ctx', 'show', c1);
    expect(parseManifests(note)).toHaveLength(1);
    // a second bundle on the same commit coexists in the same note
    expect(runCli(['TASK-042', '--depth', 'meta', '--record'], { cwd: repo.dir }).code).toBe(0);
    expect(parseManifests(repo.git('notes', '--ref', 'ctx', 'show', c1))).toHaveLength(2);

    // later history: the spec drops a decision and gains text
    repo.write({
      [SPEC]: art(
        { id: 'SPEC-BILLING-001', type: 'spec', title: 'Invoice generation', status: 'active', scope: 'domain', links: '{ norms: [NORM-ERROR-001] }' },
        '# Invoice generation\n\nRewritten.\n',
      ),
    });
    const c2 = commitFixed(repo, 'rewrite spec', '2026-03-01T00:00:00Z');
    expect(c2).not.toBe(c1);
    const now = runCli(['TASK-042'], { cwd: repo.dir });
    expect(now.stdout).not.toBe(first.stdout);
    expect(now.stdout).not.toContain('DEC-BILLING-003');

    // --at the old commit: identical bytes, from that commit's objects only
    const at = runCli(['TASK-042', '--at', c1], { cwd: repo.dir });
    expect(at.code).toBe(0);
    expect(at.stdout).toBe(first.stdout);
    const atVerify = runCli(['context', 'TASK-042', '--at', c1, '--verify'], { cwd: repo.dir });
    expect(atVerify.code).toBe(0);
    expect(atVerify.stderr).toContain('verified');

    // bundles lists both recordings; replay rebuilds them from the note
    const list = runCli(['bundles'], { cwd: repo.dir });
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    expect(list.stdout).toContain(`${c1.slice(0, 12)}  TASK-042`);
    const json = JSON.parse(runCli(['bundles', c1, '--json'], { cwd: repo.dir }).stdout) as { bundles: { digest: string }[] };
    expect(json.bundles).toHaveLength(2);
    const replay = runCli(['replay', c1], { cwd: repo.dir });
    expect(replay.code).toBe(0);
    expect(replay.stderr.match(/^ok {8}TASK-042 sha256:/gm)).toHaveLength(2);
    const one = runCli(['replay', c1, '--digest', json.bundles[0]!.digest.slice(7, 20), '--print'], { cwd: repo.dir });
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('=== BUNDLE: TASK-042 ===');

    // HEAD has no recorded bundle: a clear error, exit 2
    const none = runCli(['replay', 'HEAD'], { cwd: repo.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no recorded bundle');
    // --verify on HEAD finds nothing to compare with: exit 1
    expect(runCli(['TASK-042', '--verify'], { cwd: repo.dir }).code).toBe(1);
  });

  it('refuses to record a dirty bundle, and shows the dirty files in the header', () => {
    const { repo } = exampleRepo();
    repo.write({ [SPEC]: art({ id: 'SPEC-BILLING-001', type: 'spec', title: 'Invoice generation', status: 'active' }, 'uncommitted\n') });
    const r = runCli(['TASK-042'], { cwd: repo.dir });
    expect(r.stdout).toContain(`dirty: yes (${SPEC})`);
    const rec = runCli(['TASK-042', '--record'], { cwd: repo.dir });
    expect(rec.code).toBe(2);
    expect(rec.stderr).toContain('cannot record a bundle built from uncommitted changes');
  });
});

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

describe('replay says clearly when a recorded bundle no longer matches', () => {
  it('a global artifact (outside the commit) changed since recording: exit 1 with the reason', () => {
    const globalDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-ctx-global-')));
    dirs.push(globalDir);
    mkdirSync(path.join(globalDir, 'norms'), { recursive: true });
    const gfile = path.join(globalDir, 'norms/NORM-G.md');
    writeFileSync(gfile, art({ id: 'NORM-G', type: 'norm', title: 'Shared norm', status: 'active', scope: 'global' }, 'Version one.\n'));
    const repo = makeRepo({
      '.contextia/identity.md': art({ id: 'IDENTITY', type: 'identity', title: 'P' }),
      '.contextia/work/tasks/TASK-1.md': art({ id: 'TASK-1', type: 'task', title: 'T', status: 'active', links: '{ norms: [NORM-G] }' }),
    });
    const c = commitFixed(repo, 'init');
    const env = { GIT_CTX_GLOBAL_DIR: globalDir };
    const rec = runCli(['TASK-1', '--global', '--record'], { cwd: repo.dir, env });
    expect(rec.code).toBe(0);
    expect(rec.stdout).toContain('global: ~global/norms/NORM-G.md ');
    expect(rec.stdout).toContain('Version one.');
    expect(runCli(['replay', c], { cwd: repo.dir, env }).code).toBe(0);

    writeFileSync(gfile, art({ id: 'NORM-G', type: 'norm', title: 'Shared norm', status: 'active', scope: 'global' }, 'Version two.\n'));
    const bad = runCli(['replay', c], { cwd: repo.dir, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('MISMATCH  TASK-1');
    expect(bad.stderr).toContain('NORM-G: content changed');
    expect(bad.stderr).toContain('global ~global/norms/NORM-G.md: content changed or missing');
    const verify = runCli(['TASK-1', '--global', '--at', c, '--verify'], { cwd: repo.dir, env });
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain('no longer matches');
  });
});

describe('a command ends when it has answered', () => {
  it('context --at with no cache exits (the git object reader it opened is closed)', () => {
    // a committed config is read twice from the commit: once for the bundle, once for the episode
    const { repo } = exampleRepo();
    repo.write({ '.contextia/config.yaml': 'version: 1\n' });
    const commit = commitFixed(repo, 'adopt', '2026-03-01T00:00:00Z');
    rmSync(path.join(repo.dir, '.git/ctx'), { recursive: true, force: true });
    const r = spawnSync(process.execPath, [BIN, 'context', 'TASK-042', '--at', commit], {
      cwd: repo.dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' },
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('=== BUNDLE: TASK-042 ===');
  });
});
