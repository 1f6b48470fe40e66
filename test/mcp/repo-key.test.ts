import { existsSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RepoReader } from '../../src/mcp/repo.js';
import { fixtureRepo, tempDir } from './helpers.js';

// The MCP server's long-lived reader keys its loaded states by what the tree module
// (src/tree) says the records folders hold (DEC-045): a warm call reuses the state, any
// change on disk, in the index or in HEAD gives a fresh one, and the dirty flag follows.

const saved = process.env.GIT_TRACE;
afterEach(() => {
  if (saved === undefined) delete process.env.GIT_TRACE;
  else process.env.GIT_TRACE = saved;
});

/** Files written by the fixture made older than the index, the index's stat data refreshed (nothing racily clean). */
function settle(dir: string, git: (...a: string[]) => string): void {
  const past = Math.floor(Date.now() / 1000) - 30;
  for (const p of git('ls-files').split('\n')) if (p && statSync(path.join(dir, p)).mtimeMs > (past + 20) * 1000) utimesSync(path.join(dir, p), past, past);
  git('update-index', '-q', '--refresh');
}

describe('MCP repository reader', () => {
  it('reuses a state while nothing changes, and loads afresh after an edit, staging, a commit and a new record', async () => {
    const repo = fixtureRepo();
    settle(repo.dir, repo.git);
    const reader = new RepoReader({ cwd: repo.dir, globalDir: tempDir() });
    const first = await reader.state();
    expect(first.dirty).toBe(false);
    expect(first.head).toBe(repo.git('rev-parse', 'HEAD').trim());
    // warm: the same state, and no git process to tell (the index's stat data answers)
    const trace = path.join(tempDir(), 'trace.txt');
    process.env.GIT_TRACE = trace;
    expect(await reader.state()).toBe(first);
    delete process.env.GIT_TRACE;
    expect(existsSync(trace) ? readFileSync(trace, 'utf8') : '').not.toMatch(/trace: built-in: git/);

    const dec = '.contextia/system/rationale/DEC-BILLING-001.md';
    const text = readFileSync(path.join(repo.dir, dec), 'utf8');
    // edited on disk, not staged
    repo.write({ [dec]: text.replace("Banker's rounding", 'Round half to even') });
    const edited = await reader.state();
    expect(edited).not.toBe(first);
    expect(edited.dirty).toBe(true);
    expect(edited.set.byId.get('DEC-BILLING-001')!.title).toBe('Round half to even');
    expect(await reader.state()).toBe(edited);
    // staged: same content, still dirty against HEAD
    repo.git('add', dec);
    const staged = await reader.state();
    expect(staged.dirty).toBe(true);
    expect(staged.set.byId.get('DEC-BILLING-001')!.title).toBe('Round half to even');
    // committed: HEAD moves, clean again
    repo.commit('edit');
    const committed = await reader.state();
    expect(committed.dirty).toBe(false);
    expect(committed.head).toBe(repo.git('rev-parse', 'HEAD').trim());
    // a new, untracked record, then removed: back to the committed content
    repo.write({ '.contextia/system/rationale/DEC-NEW-001.md': '---\nid: DEC-NEW-001\ntype: decision\ntitle: New\nstatus: accepted\n---\n\nNew.\n' });
    const added = await reader.state();
    expect(added.set.byId.has('DEC-NEW-001')).toBe(true);
    expect(added.dirty).toBe(true);
    rmSync(path.join(repo.dir, '.contextia/system/rationale/DEC-NEW-001.md'));
    const back = await reader.state();
    expect(back.set.byId.has('DEC-NEW-001')).toBe(false);
    expect(back.dirty).toBe(false);
  }, 60_000);
});
