// Git sources (issue 33, DEC-061): records of another repository, pinned in
// .contextia/sources.lock, fetched into .git/ctx/sources and read offline.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, BIN } from '../helpers/cli.js';
import { gitEnv, makeRepo, tempDir, type TestRepo } from '../helpers/git-repo.js';
import { connect } from '../mcp/helpers.js';
import { assembleBundle, renderBundle } from '../../src/assemble/index.js';

const adr = (n: number, title: string, status: string, body: string) =>
  `# ${n}. ${title}\n\nDate: 2025-01-${String(n).padStart(2, '0')}\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

/** The organisation's standards repository: three decision records in adr/, and code that is not ours to judge. */
function standards(): TestRepo {
  const up = makeRepo({
    'adr/0001-money-in-cents.md': adr(1, 'Keep money in integer cents', 'Accepted', 'Money amounts are stored as integer cents, never floating point.'),
    'adr/0002-timestamps-utc.md': adr(2, 'Timestamps in UTC', 'Accepted', 'Every timestamp is stored and sent in UTC with an explicit offset.'),
    'adr/0003-api-errors.md': adr(3, 'Problem details for API errors', 'Accepted', 'HTTP APIs answer errors as RFC 7807 problem details.'),
    'src/other.ts': 'export const notOurs = 1;\n',
  });
  up.commit('standards');
  return up;
}

const DEC = (extra = '') =>
  `---\nid: DEC-001\ntype: decision\ntitle: Invoices keep cents\nstatus: accepted\npaths: [src/billing/**]\nrequires: [ORG-ADR-0001]\nlinks:\n  decisions: [ORG-ADR-0002${extra}]\n---\n\n# Invoices keep cents\n\nInvoice totals are integer cents, as the organisation decided.\n`;

/** A service that takes its standards from `git` (a path or URL), committed with its lock after `sources update`. */
function service(git: string, opts: { update?: boolean } = {}): TestRepo {
  const svc = makeRepo({
    '.contextia/config.yaml': `sources:\n  - git: ${git}\n    ref: main\n    dir: adr\n    format: adr\n    prefix: ORG-ADR-\n    name: standards\n`,
    '.contextia/system/rationale/DEC-001.md': DEC(),
    'src/billing/invoice.ts': 'export function total(): number {\n  return 100;\n}\n',
  });
  svc.commit('service');
  if (opts.update !== false) {
    const r = runCli(['sources', 'update'], { cwd: svc.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    svc.commit('pin standards');
  }
  return svc;
}

const lockOf = (svc: TestRepo) => JSON.parse(readFileSync(path.join(svc.dir, '.contextia/sources.lock'), 'utf8')) as { lock: number; sources: Record<string, { git: string; ref: string; commit: string }> };
const json = (r: { stdout: string }) => JSON.parse(r.stdout) as Record<string, unknown>;
const ids = (r: { stdout: string }) => (json(r).artifacts as { id: string }[]).map((a) => a.id);

describe('git sources: update, status, fetch', () => {
  it('pins a path upstream, reads its records marked with source and commit, and keeps the pin while upstream moves', () => {
    const up = standards();
    const pinned = up.git('rev-parse', 'HEAD');
    const svc = service('../' + path.basename(up.dir));
    // the config's path is relative to the repository: both live in the same temp folder
    expect(path.dirname(up.dir)).toBe(path.dirname(svc.dir));
    expect(lockOf(svc)).toEqual({ lock: 1, sources: { standards: { git: '../' + path.basename(up.dir), ref: 'main', commit: pinned } } });
    expect(existsSync(path.join(svc.dir, '.git/ctx/sources'))).toBe(true);

    const list = runCli(['list', '--json'], { cwd: svc.dir });
    expect(list.code).toBe(0);
    expect(ids(list)).toEqual(['DEC-001', 'ORG-ADR-0001', 'ORG-ADR-0002', 'ORG-ADR-0003']);
    const org = (json(list).artifacts as { id: string; file: string; scope: string }[]).find((a) => a.id === 'ORG-ADR-0001')!;
    expect(org.file).toBe(`~standards@${pinned.slice(0, 12)}/adr/0001-money-in-cents.md`);
    // shared records sit in the global scope (global → domain → project)
    expect(org.scope).toBe('global');
    const human = runCli(['list'], { cwd: svc.dir });
    expect(human.stdout).toMatch(new RegExp(`ORG-ADR-0002 .*Timestamps in UTC.*\\[from standards@${pinned.slice(0, 12)}\\]`));
    const show = runCli(['show', 'ORG-ADR-0003'], { cwd: svc.dir });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`~standards@${pinned.slice(0, 12)}/adr/0003-api-errors.md`);
    expect(show.stdout).toContain('RFC 7807');

    // upstream moves on: a new record, an edited one, one superseded; nothing changes here
    up.commit('more standards', {
      'adr/0004-money-as-decimal-strings.md': adr(4, 'Money as decimal strings on the wire', 'Accepted\n\nSupersedes [ADR 1](0001-money-in-cents.md)', 'Amounts cross APIs as decimal strings.'),
      'adr/0001-money-in-cents.md': adr(1, 'Keep money in integer cents', 'Superseded by [ADR 4](0004-money-as-decimal-strings.md)', 'Money amounts are stored as integer cents, never floating point.'),
      'adr/0002-timestamps-utc.md': adr(2, 'Timestamps in UTC', 'Accepted', 'Every timestamp is stored and sent in UTC with an explicit offset, to the millisecond.'),
    });
    up.commit('one more', { 'README.md': 'standards\n' });
    expect(ids(runCli(['list', '--json'], { cwd: svc.dir }))).toEqual(['DEC-001', 'ORG-ADR-0001', 'ORG-ADR-0002', 'ORG-ADR-0003']);
    const status = runCli(['sources', 'status', '--json'], { cwd: svc.dir });
    expect(status.code).toBe(0);
    expect(json(status).sources).toEqual([{ name: 'standards', git: '../' + path.basename(up.dir), ref: 'main', pinned, upstream: up.git('rev-parse', 'HEAD'), behind: 2, fetched: true }]);
    expect(runCli(['sources', 'status'], { cwd: svc.dir }).stdout).toBe(`standards: ${pinned.slice(0, 12)} is 2 commits behind main (${up.git('rev-parse', 'HEAD').slice(0, 12)})\n`);

    const update = runCli(['sources', 'update'], { cwd: svc.dir });
    expect(update.code).toBe(0);
    const now = up.git('rev-parse', 'HEAD');
    expect(update.stdout).toBe(
      [
        `standards: ${pinned.slice(0, 12)} → ${now.slice(0, 12)} (main)`,
        '  added 1: ORG-ADR-0004',
        '  changed 2: ORG-ADR-0001, ORG-ADR-0002',
        '  superseded 1: ORG-ADR-0001',
        'wrote .contextia/sources.lock: commit it so every clone reads these pins',
        '',
      ].join('\n'),
    );
    expect(lockOf(svc).sources.standards!.commit).toBe(now);
    expect(ids(runCli(['list', '--json'], { cwd: svc.dir }))).toContain('ORG-ADR-0004');
    expect(runCli(['sources', 'update'], { cwd: svc.dir }).stdout).toContain('.contextia/sources.lock unchanged');
  });

  it('reads a file:// upstream; fetch names what it fetched; a fresh clone fetches on first use with one notice', () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    const commit = lockOf(svc).sources.standards!.commit;
    expect(runCli(['sources', 'fetch'], { cwd: svc.dir }).stdout).toBe(`standards: ${commit.slice(0, 12)} already fetched\n`);

    const dest = path.join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', svc.dir, dest], { env: gitEnv() });
    expect(existsSync(path.join(dest, '.git/ctx/sources'))).toBe(false);
    const first = runCli(['search', 'timestamps UTC', '--json'], { cwd: dest });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(`git-ctx: fetched git source standards at ${commit.slice(0, 12)} (pinned in .contextia/sources.lock) into .git/ctx/sources\n`);
    expect((json(first).results as { id: string }[])[0]!.id).toBe('ORG-ADR-0002');
    const again = runCli(['search', 'timestamps UTC', '--json'], { cwd: dest });
    expect(again.stderr).toBe('');
    expect(json(again).results).toEqual(json(first).results);

    // a second fresh clone fetches ahead with `sources fetch`
    const other = path.join(tempDir(), 'clone2');
    execFileSync('git', ['clone', '-q', svc.dir, other], { env: gitEnv() });
    expect(runCli(['sources', 'fetch'], { cwd: other }).stdout).toBe(`standards: ${commit.slice(0, 12)} fetched\n`);
    expect(runCli(['list'], { cwd: other }).stderr).toBe('');
  });

  it('fetches only the folder\'s blobs where the server filters (partial clone)', () => {
    const up = standards();
    up.git('config', 'uploadpack.allowFilter', 'true');
    up.git('config', 'uploadpack.allowAnySHA1InWant', 'true');
    const svc = service(`file://${up.dir}`);
    const commit = lockOf(svc).sources.standards!.commit;
    const store = runCli(['list', '--json'], { cwd: svc.dir });
    expect(ids(store)).toHaveLength(4);
    const storeDir = execFileSync('sh', ['-c', 'ls -d .git/ctx/sources/*.git'], { cwd: svc.dir, encoding: 'utf8' }).trim();
    const objects = execFileSync('git', ['--git-dir', path.join(svc.dir, storeDir), 'rev-list', '--objects', '--missing=print', commit], { encoding: 'utf8' });
    // src/other.ts is another repository's code: its blob was never fetched
    const otherBlob = up.git('rev-parse', `${commit}:src/other.ts`);
    expect(objects).toContain(`?${otherBlob}`);
    expect(objects).not.toContain(`?${up.git('rev-parse', `${commit}:adr/0001-money-in-cents.md`)}`);
  });

  it('reads offline (network off, then the upstream gone)', () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    const before = runCli(['search', 'money cents', '--json'], { cwd: svc.dir });
    const uid = process.getuid?.() ?? -1;
    const unshare = spawnSync('unshare', ['-n', 'true']);
    if (uid === 0 && unshare.status === 0) {
      const r = spawnSync('unshare', ['-n', process.execPath, BIN, 'search', 'money cents', '--json'], { cwd: svc.dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(r.status).toBe(0);
      expect(json({ stdout: r.stdout }).results).toEqual(json(before).results);
    }
    rmSync(up.dir, { recursive: true, force: true });
    // a cold run (no caches) reads the store, not the upstream
    rmSync(path.join(svc.dir, '.git/ctx/cache'), { recursive: true, force: true });
    const after = runCli(['search', 'money cents', '--json'], { cwd: svc.dir });
    expect(after.code).toBe(0);
    expect(json(after).results).toEqual(json(before).results);
    expect(runCli(['show', 'ORG-ADR-0001'], { cwd: svc.dir }).code).toBe(0);
    // asking the upstream is what needs it
    const status = runCli(['sources', 'status'], { cwd: svc.dir });
    expect(status.code).toBe(2);
    expect(status.stderr.split('\n')[0]).toMatch(/^git-ctx: source standards: cannot ask file:\/\/.* /);
    expect(status.stderr).not.toMatch(/\n\s+at /);
  });

  it('a bad pin, an unreachable upstream and a missing pin are one clear error or finding naming the source', () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    const lock = lockOf(svc);
    lock.sources.standards!.commit = '0123456789abcdef0123456789abcdef01234567';
    writeFileSync(path.join(svc.dir, '.contextia/sources.lock'), JSON.stringify(lock, null, 2) + '\n');
    svc.commit('bad pin');
    const dest = path.join(tempDir(), 'clone');
    execFileSync('git', ['clone', '-q', svc.dir, dest], { env: gitEnv() });
    const bad = runCli(['list'], { cwd: dest });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^git-ctx: source standards: file:\/\/\S+ has no commit 0123456789abcdef0123456789abcdef01234567 \(the pin in sources.lock\)\n/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    const gone = makeRepo({ '.contextia/config.yaml': `sources:\n  - git: file://${path.join(tempDir(), 'missing')}\n    dir: adr\n    prefix: ORG-ADR-\n` });
    gone.commit('config');
    const r = runCli(['sources', 'update'], { cwd: gone.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^git-ctx: source missing: cannot ask file:\/\/\S+missing: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // a pinned folder with nothing in it is a finding too
    const empty = makeRepo({ '.contextia/config.yaml': `sources:\n  - git: file://${up.dir}\n    dir: nothing-here\n    name: standards\n` });
    empty.commit('config');
    expect(runCli(['sources', 'update'], { cwd: empty.dir }).code).toBe(0);
    const emptyCheck = runCli(['check', '--format', 'json'], { cwd: empty.dir });
    expect(json(emptyCheck).findings).toEqual([expect.objectContaining({ rule: 'source-empty', severity: 'error', file: '.contextia/config.yaml', message: `git source standards has no files under nothing-here at ${up.git('rev-parse', 'HEAD').slice(0, 12)}` })]);
    // unpinned: the records are not read, and check says why
    const check = runCli(['check', '--format', 'json'], { cwd: gone.dir });
    expect(check.stdout).toContain('source-unpinned');
    expect(check.stdout).toContain('git source missing');
  });
});

describe('git sources: the pre-commit hook', () => {
  it('checks a commit against the fetched copy with the upstream gone (and the network off where unshare runs)', () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    expect(runCli(['hooks', 'install'], { cwd: svc.dir }).code).toBe(0);
    rmSync(up.dir, { recursive: true, force: true });
    rmSync(path.join(svc.dir, '.git/ctx/cache'), { recursive: true, force: true });
    // git-ctx as the hook finds it on PATH: this checkout's bin
    const bin = tempDir();
    writeFileSync(path.join(bin, 'git-ctx'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const env = gitEnv({ PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' });
    const offline = process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'true']).status === 0;
    const commit = () => spawnSync(offline ? 'unshare' : 'git', [...(offline ? ['-n', 'git'] : []), 'commit', '-q', '-m', 'edit'], { cwd: svc.dir, env, encoding: 'utf8' });
    // GIT_DIR and GIT_INDEX_FILE are set while the hook runs: the store is still read, not the repository
    svc.write({ '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\ntitle: Wrong standard\nstatus: accepted\nrequires: [ORG-ADR-0077]\n---\n\nx\n' });
    svc.git('add', '-A');
    const blocked = commit();
    expect(blocked.status).toBe(1);
    expect(blocked.stderr + blocked.stdout).toContain('requires names ORG-ADR-0077, which does not exist in git source standards at');
    svc.write({ '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\ntitle: Right standard\nstatus: accepted\nrequires: [ORG-ADR-0002]\n---\n\nx\n' });
    svc.git('add', '-A');
    const ok = commit();
    expect(ok.stderr).toMatch(/✓ git-ctx: 1 staged path, 5 artifacts checked \(blocking rules and record warnings\): 0 errors/);
    expect(ok.status).toBe(0);
  });
});

describe('git sources: federated records are first-class', () => {
  it('links and requires into a federated record; a broken one is a finding; a local record of the same id wins', () => {
    const up = standards();
    const svc = service(`file://${up.dir}`, { update: true });
    const commit = lockOf(svc).sources.standards!.commit;
    const clean = runCli(['check', '--format', 'json'], { cwd: svc.dir });
    expect((json(clean).findings as { rule: string }[]).filter((f) => f.rule === 'broken-link')).toEqual([]);
    const show = runCli(['show', 'ORG-ADR-0001', '--json'], { cwd: svc.dir });
    expect(JSON.stringify(json(show))).toContain('DEC-001');

    svc.commit('broken link', { '.contextia/system/rationale/DEC-001.md': DEC(', ORG-ADR-0099') });
    const broken = runCli(['check', '--format', 'json'], { cwd: svc.dir });
    expect(broken.code).toBe(1);
    const found = (json(broken).findings as { rule: string; file: string; message: string }[]).filter((f) => f.rule === 'broken-link');
    expect(found).toEqual([expect.objectContaining({ file: '.contextia/system/rationale/DEC-001.md', message: `links.decisions names ORG-ADR-0099, which does not exist in git source standards at ${commit.slice(0, 12)} (did you mean ORG-ADR-0001?)` })]);

    // the service overrides one standard with its own record of the same id
    svc.commit('local override', { '.contextia/system/rationale/ORG-ADR-0003.md': '---\nid: ORG-ADR-0003\ntype: decision\ntitle: Our own error format\nstatus: accepted\n---\n\nWe keep our legacy error format.\n' });
    const over = runCli(['show', 'ORG-ADR-0003', '--json'], { cwd: svc.dir });
    expect(JSON.stringify(json(over))).toContain('Our own error format');
    const check = runCli(['check', '--format', 'json'], { cwd: svc.dir });
    expect((json(check).findings as { rule: string }[]).filter((f) => f.rule === 'duplicate-id')).toEqual([]);
  });

  it('for and search answer with federated records; the links slot follows a link into one; staleness leaves them alone', () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    const forIt = runCli(['for', 'src/billing/invoice.ts', '--json'], { cwd: svc.dir });
    expect(forIt.code).toBe(0);
    const results = json(forIt).results as { id: string; slot: string; file: string }[];
    expect(results[0]).toMatchObject({ id: 'DEC-001', slot: 'declared' });
    expect(results.filter((x) => x.slot === 'links').map((x) => x.id)).toContain('ORG-ADR-0001');
    const human = runCli(['for', 'src/billing/invoice.ts'], { cwd: svc.dir });
    expect(human.stdout).toMatch(/ORG-ADR-0001 .*\[from standards@[0-9a-f]{12}\]/);
    const stale = runCli(['stale', '--json'], { cwd: svc.dir });
    expect(stale.stdout).not.toContain('ORG-ADR');
  });

  it('bundles name the source commit of every federated record and are reproducible from the commit', async () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    const commit = lockOf(svc).sources.standards!.commit;
    const head = svc.git('rev-parse', 'HEAD');
    // the library call (the CLI's `context --at` has its own exit problem on main, reported apart)
    const bundleAt = async () => renderBundle(await assembleBundle({ id: 'DEC-001', cwd: svc.dir, at: head, tokenCache: false }), 'json');
    const a = await bundleAt();
    const bundle = JSON.parse(a) as { header: { sources: unknown }; entries: { id: string; file: string; origin: string }[] };
    expect(bundle.header.sources).toEqual({ standards: { git: `file://${up.dir}`, ref: 'main', commit, records: ['ORG-ADR-0001', 'ORG-ADR-0002'] } });
    expect(bundle.entries.filter((e) => e.origin === 'federated').map((e) => e.file)).toEqual([`~standards@${commit.slice(0, 12)}/adr/0001-money-in-cents.md`, `~standards@${commit.slice(0, 12)}/adr/0002-timestamps-utc.md`]);
    // upstream moves and the work tree's pin follows it: the commit's bundle does not change
    up.commit('moved', { 'adr/0002-timestamps-utc.md': adr(2, 'Timestamps in UTC', 'Accepted', 'Changed upstream.') });
    expect(runCli(['sources', 'update'], { cwd: svc.dir }).code).toBe(0);
    expect(await bundleAt()).toBe(a);
    const c = runCli(['context', 'DEC-001', '--format', 'json'], { cwd: svc.dir });
    expect(c.code).toBe(0);
    expect((JSON.parse(c.stdout) as typeof bundle).header.sources).toMatchObject({ standards: { commit: up.git('rev-parse', 'HEAD') } });
    expect(c.stdout).toContain('Changed upstream.');
  });

  it('the PR report lists a federated record the change reaches, marked with source and commit', () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    const commit = lockOf(svc).sources.standards!.commit;
    svc.commit('change invoice', { 'src/billing/invoice.ts': 'export function total(): number {\n  return 101;\n}\n' });
    const r = runCli(['pr', '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'markdown'], { cwd: svc.dir });
    expect(r.stdout).toContain(`| \`ORG-ADR-0001\` Keep money in integer cents (from \`standards@${commit.slice(0, 12)}\`)`);
  });

  it('MCP answers with federated records, marked with source and commit (real client)', async () => {
    const up = standards();
    const svc = service(`file://${up.dir}`);
    const commit = lockOf(svc).sources.standards!.commit;
    const c = await connect({ cwd: svc.dir });
    const s = await c.call('search_decisions', { query: 'timestamps in UTC' });
    expect(s.isError).toBeFalsy();
    expect(s.text).toContain('ORG-ADR-0002');
    expect(s.text).toContain(`standards@${commit.slice(0, 12)}`);
    const r = await c.call('read_artifact', { id: 'ORG-ADR-0002' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('explicit offset');
    expect(r.text).toContain(`~standards@${commit.slice(0, 12)}/adr/0002-timestamps-utc.md`);
    const f = await c.call('context_for_code', { place: 'src/billing/invoice.ts' });
    expect(f.text).toContain('ORG-ADR-0001');
  });
});
