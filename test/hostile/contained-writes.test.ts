import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { artifact, CASE_MS, cli, expectContained, expectKnownError, hostileRepo, OK_DEC } from './harness.js';

describe('contained writes: a linked artifact folder', () => {
  const LINKS: { name: string; link: string; to: string }[] = [
    { name: '.contextia itself', link: '.contextia', to: '../outside' },
    { name: 'a folder inside .contextia', link: '.contextia/system', to: '../../outside' },
    { name: 'the type folder', link: '.contextia/system/rationale', to: '../../../outside' },
  ];
  it.each(LINKS)('$name → outside: new refuses (exit 2, names the link), check reports it', { timeout: CASE_MS }, async ({ link, to }) => {
    const repo = hostileRepo(link === '.contextia' ? { 'README.md': 'x\n' } : { '.contextia/work/tasks/TASK-A-001.md': artifact('id: TASK-A-001\ntype: task\ntitle: A\nstatus: todo') });
    repo.commit('base');
    const abs = path.join(repo.dir, link);
    mkdirSync(path.dirname(abs), { recursive: true });
    symlinkSync(to, abs);
    await expectContained(repo, () => {
      expectKnownError(cli(['new', 'decision', '--title', 'Escape'], repo.dir), link);
      const check = cli(['check'], repo.dir);
      expect(check.stdout).toMatch(new RegExp(`${link.replace(/\./g, '\\.')}\\s+warning\\s+.*symbolic link.*symlink-skipped`));
    });
  });

  it('init refuses a linked .contextia', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({});
    symlinkSync('../outside', path.join(repo.dir, '.contextia'));
    await expectContained(repo, () => expectKnownError(cli(['init'], repo.dir), '.contextia'));
  });

  it('deprecate cannot reach an artifact behind a linked folder', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/system/specs/SPEC-A-001.md': artifact('id: SPEC-A-001\ntype: spec\ntitle: A\nstatus: active') });
    writeFileSync(path.join(repo.outside, 'DEC-OUT-001.md'), OK_DEC.replace('DEC-OK-001', 'DEC-OUT-001'));
    mkdirSync(path.join(repo.dir, '.contextia/system'), { recursive: true });
    symlinkSync('../../outside', path.join(repo.dir, '.contextia/system/rationale'));
    await expectContained(repo, () => {
      const r = cli(['deprecate', 'DEC-OUT-001'], repo.dir);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(/please report/);
    });
  });
});

describe('contained writes: rule files and exports behind a linked folder', () => {
  it('rules export refuses a linked .cursor/rules; export --out refuses a linked folder', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC, 'AGENTS.md': '# Agents\n' });
    mkdirSync(path.join(repo.dir, '.cursor'), { recursive: true });
    symlinkSync('../../outside', path.join(repo.dir, '.cursor/rules'));
    symlinkSync('../outside', path.join(repo.dir, 'exported'));
    repo.commit('base');
    await expectContained(repo, () => {
      expectKnownError(cli(['rules', 'export', '--format', 'cursor'], repo.dir), '.cursor/rules');
      expectKnownError(cli(['export', '--format', 'nygard', '--out', 'exported'], repo.dir), 'exported');
    });
  });
});

describe('contained writes: configured folders outside the work tree', () => {
  const DIRS = ['../../..', '../../../outside', '../../../outside/../outside/deeper', '../../.git/hooks/..'];
  it.each(DIRS)('types.decision.dir: %s → new refuses with exit 2', { timeout: CASE_MS }, async (dir) => {
    const repo = hostileRepo({ '.contextia/config.yaml': `types:\n  decision:\n    dir: ${JSON.stringify(dir)}\n` });
    repo.commit('base');
    await expectContained(repo, () => {
      const r = cli(['new', 'decision', '--title', 'Escape'], repo.dir);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toMatch(/outside the repository|never writes/);
      expect(r.stderr).not.toMatch(/please report/);
    });
  });
});

describe('contained writes: ids that are not file names everywhere', () => {
  const IDS = ['CON', 'nul', 'NUL.txt', 'com1', 'LPT9', 'Aux', 'team/PRN'];
  it.each(IDS)('new --id %s is refused (Windows reserved name)', { timeout: CASE_MS }, async (id) => {
    const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC });
    repo.commit('base');
    await expectContained(repo, () => {
      const r = cli(['new', 'decision', '--id', id], repo.dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/reserved file name on Windows/);
    });
  });
});

describe('contained writes: a writer killed at any instant', () => {
  it('SIGKILL in a loop leaves the file old or new, and the next write removes stray temp files', { timeout: CASE_MS * 2 }, async () => {
    const repo = hostileRepo({});
    const file = path.join(repo.dir, 'target.md');
    const A = 'old\n'.repeat(20_000);
    const B = 'new\n'.repeat(20_000);
    const scriptFile = path.join(repo.parent, 'writer.mjs');
    writeFileSync(file, A);
    const atomic = pathToFileURL(path.join(ROOT, 'dist/util/atomic.js')).href;
    writeFileSync(
      scriptFile,
      `const { writeFileAtomic } = await import(${JSON.stringify(atomic)}); const f = ${JSON.stringify(file)}; const A = 'old\\n'.repeat(20000); const B = 'new\\n'.repeat(20000); let i = 0; process.stdout.write('go\\n'); for (;;) await writeFileAtomic(f, i++ % 2 ? A : B);`,
    );
    for (let round = 0; round < 15; round++) {
      const child = spawn(process.execPath, [scriptFile], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 5 + ((round * 37) % 60)));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const now = readFileSync(file, 'utf8');
      expect(now === A || now === B).toBe(true);
    }
    const { writeFileAtomic } = (await import(atomic)) as typeof import('../../src/util/atomic.js');
    await writeFileAtomic(file, 'final\n');
    expect(readFileSync(file, 'utf8')).toBe('final\n');
    expect(readdirSync(repo.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
