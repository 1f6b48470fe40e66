import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connect } from '../mcp/helpers.js';
import { appendMarkers } from '../../src/staleness/markers.js';
import { openStore } from '../../src/store/store.js';
import { IMPACT_FILES } from './fixture.js';

function repo() {
  const r = makeRepo(IMPACT_FILES);
  r.commit('fixture');
  return r;
}

describe('git ctx impact', () => {
  it('prints the path of every result, in human and JSON formats', () => {
    const r = repo();
    const human = runCli(['impact', 'DEC-MONEY', '--depth', '1'], { cwd: r.dir });
    expect(human.stderr).toBe('');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('DEC-MONEY  what a change to it touches (forward, depth 1)');
    expect(human.stdout).toContain('DEC-ROUND requires DEC-MONEY [.contextia/system/rationale/DEC-ROUND.md:6]');
    expect(human.stdout).toContain('DEC-MONEY anchor src/util/money.ts#round');
    const json = JSON.parse(runCli(['impact', 'src/util/money.ts#round', '--json'], { cwd: r.dir }).stdout);
    expect(json.version).toBe(1);
    expect(json.query).toEqual({ kind: 'symbol', id: 'src/util/money.ts#round', direction: 'reverse', depth: 3 });
    expect(json.artifacts[0]).toMatchObject({ node: { kind: 'artifact', id: 'DEC-MONEY' }, distance: 1, type: 'decision', status: 'accepted' });
    expect(json.artifacts.find((a: { node: { id: string } }) => a.node.id === 'ADR-0001')).toMatchObject({ weak: true });
  });

  it('takes paths relative to the current directory', () => {
    const r = repo();
    const out = runCli(['impact', 'invoice.ts', '--depth', '1', '--json'], { cwd: path.join(r.dir, 'src/billing') });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).query).toMatchObject({ kind: 'file', id: 'src/billing/invoice.ts' });
  });

  it('exits 2 with a suggestion for an unknown id, path or symbol, and for a bad depth', () => {
    const r = repo();
    const id = runCli(['impact', 'DEC-MONY'], { cwd: r.dir });
    expect(id.code).toBe(2);
    expect(id.stderr).toContain('no artifact DEC-MONY');
    expect(id.stderr).toContain('did you mean DEC-MONEY?');
    const file = runCli(['impact', 'src/util/mony.ts'], { cwd: r.dir });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('did you mean src/util/money.ts?');
    const sym = runCli(['impact', 'src/util/money.ts#rund'], { cwd: r.dir });
    expect(sym.code).toBe(2);
    expect(sym.stderr).toContain('no symbol rund in src/util/money.ts');
    expect(runCli(['impact', 'DEC-MONEY', '--depth', '0'], { cwd: r.dir }).code).toBe(2);
    expect(runCli(['impact', 'DEC-MONEY', '--depth', 'x'], { cwd: r.dir }).code).toBe(2);
  });

  it('says "stale" from the markers the last stale run recorded, and check records them too', () => {
    const r = repo();
    expect(runCli(['stamp', 'DEC-MONEY'], { cwd: r.dir }).code).toBe(0);
    r.commit('stamp');
    writeFileSync(path.join(r.dir, 'src/util/money.ts'), 'export function round(n: number) {\n  return Math.floor(n + 0.5);\n}\n');
    r.commit('round differently');
    const stale = runCli(['stale', '--json'], { cwd: r.dir });
    expect(stale.code).toBe(1);
    const journal = readFileSync(path.join(r.dir, '.git/ctx/markers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(journal.find((m) => m.artifact === 'DEC-MONEY' && m.anchor === '')).toMatchObject({ verdict: 'stale', run: 'stale', dirty: true });
    const out = JSON.parse(runCli(['impact', 'DEC-ROUND', '--reverse', '--depth', '1', '--json'], { cwd: r.dir }).stdout);
    expect(out.artifacts.find((a: { node: { id: string } }) => a.node.id === 'DEC-MONEY').stale).toMatchObject({ verdict: 'stale' });
    expect(runCli(['impact', 'DEC-ROUND', '--reverse', '--depth', '1'], { cwd: r.dir }).stdout).toMatch(/DEC-MONEY .*stale \(last judged/);
    // impact moved the journal into the store; check records through a new journal, the staged snapshot (the hook's) does not
    const journal2 = path.join(r.dir, '.git/ctx/markers.jsonl');
    expect(existsSync(journal2)).toBe(false);
    runCli(['check', '--staged'], { cwd: r.dir });
    expect(existsSync(journal2)).toBe(false);
    runCli(['check'], { cwd: r.dir });
    const after = readFileSync(journal2, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(after.some((m) => m.run === 'check' && m.artifact === 'DEC-MONEY' && m.verdict === 'stale')).toBe(true);
  });

  it('keeps edges and markers in the evidence store, and answers the same from files when SQLite cannot load', () => {
    const r = repo();
    appendMarkers(r.dir, [{ artifact: 'DEC-ROUND', anchor: '', verdict: 'moved', dirty: false, at: '2026-11-21T10:00:00.000Z', run: 'check' }]);
    const sqlite = JSON.parse(runCli(['impact', 'DEC-MONEY', '--depth', '1', '--json'], { cwd: r.dir }).stdout);
    expect(sqlite.edges).toMatchObject({ backend: 'sqlite', recomputed: 8 });
    expect(sqlite.artifacts.find((a: { node: { id: string } }) => a.node.id === 'DEC-ROUND').stale).toEqual({ verdict: 'moved', at: '2026-11-21T10:00:00.000Z' });
    // the journal was ingested into the store: gone from the file, still known
    expect(existsSync(path.join(r.dir, '.git/ctx/markers.jsonl'))).toBe(false);
    const store = openStore(r.dir);
    try {
      expect(store.edgesFrom('artifact', 'DEC-ROUND')).toContainEqual({ src_kind: 'artifact', src: 'DEC-ROUND', dst_kind: 'artifact', dst: 'DEC-MONEY', kind: 'requires', origin: '.contextia/system/rationale/DEC-ROUND.md' });
      expect(store.edgesTo('symbol', 'src/billing/invoice.ts#total')).toEqual([{ src_kind: 'artifact', src: 'DEC-ROUND', dst_kind: 'symbol', dst: 'src/billing/invoice.ts#total', kind: 'annotation', origin: 'src/billing/invoice.ts' }]);
      expect(store.edgeOrigins()).toHaveLength(8);
    } finally {
      store.close();
    }
    // a store moved aside or deleted gets the edges back from the next run
    rmSync(path.join(r.dir, '.git/ctx/evidence'), { recursive: true, force: true });
    const again = JSON.parse(runCli(['impact', 'DEC-MONEY', '--depth', '1', '--json'], { cwd: r.dir }).stdout);
    expect(again.edges).toMatchObject({ backend: 'sqlite', recomputed: 0 });
    const refilled = openStore(r.dir);
    try {
      expect(refilled.edgeOrigins()).toHaveLength(8);
    } finally {
      refilled.close();
    }
    const noSqlite = runCli(['impact', 'DEC-MONEY', '--depth', '1', '--json'], { cwd: r.dir, env: { GIT_CTX_SQLITE_MODULE: 'no-such-sqlite-module' } });
    expect(noSqlite.code).toBe(0);
    const files = JSON.parse(noSqlite.stdout);
    expect(files.edges.backend).toBe('file');
    expect(files.artifacts.map((a: { node: { id: string } }) => a.node.id)).toEqual(sqlite.artifacts.map((a: { node: { id: string } }) => a.node.id));
  });

  it('MCP impact: the same data, compact, through a real client', async () => {
    const r = repo();
    const c = await connect({ cwd: r.dir });
    const res = await c.call('impact', { target: 'src/billing/invoice.ts#total', depth: 2 });
    expect(res.isError).toBeFalsy();
    const arts = res.data.artifacts as { id: string; distance: number; path: string[] }[];
    expect(arts[0]).toMatchObject({ id: 'DEC-ROUND', distance: 1, path: ['DEC-ROUND annotation src/billing/invoice.ts#total'] });
    expect(arts.find((a) => a.id === 'SPEC-API')!.path).toEqual(['src/billing/invoice.ts#total called_by src/api/handler.ts#handle', 'SPEC-API paths src/api/handler.ts#handle (via src/api/**)']);
    expect(res.text).toContain('- DEC-ROUND (decision accepted) DEC-ROUND title: DEC-ROUND annotation src/billing/invoice.ts#total');
    const fwd = await c.call('impact', { target: 'DEC-MONEY', depth: 1 });
    expect((fwd.data.artifacts as { id: string }[]).map((a) => a.id).sort()).toEqual(['DEC-CONFLICT', 'DEC-ROUND']);
    const bad = await c.call('impact', { target: 'DEC-MONY' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('did you mean DEC-MONEY?');
  });
});
