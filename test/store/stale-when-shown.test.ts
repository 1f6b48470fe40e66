import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { IMPACT_FILES } from '../impact/fixture.js';
import { openStore } from '../../src/store/store.js';

const env = { GIT_CTX_NO_RECORD: '' };
type Shown = { id: string; commit?: string; evidence: { kind: string; value: string; stale?: { verdict: string; run: string; commit?: string; at: number } }[] };
const lastEpisode = (dir: string) => (JSON.parse(runCli(['episodes', '--limit', '1', '--json'], { cwd: dir, env }).stdout) as { episodes: { id: string }[] }).episodes[0]!.id;
const show = (dir: string, id: string) => JSON.parse(runCli(['episodes', id, '--json'], { cwd: dir, env }).stdout) as Shown;
const money = (s: Shown) => s.evidence.find((e) => e.value === 'DEC-MONEY')!;

describe('staleness markers in episodes: "was stale when shown"', () => {
  it('an episode shows the verdict in force when it was answered, at its commit; earlier episodes and other commits do not', () => {
    const r = makeRepo(IMPACT_FILES);
    r.commit('fixture');
    expect(runCli(['stamp', 'DEC-MONEY'], { cwd: r.dir }).code).toBe(0);
    r.commit('stamp');
    writeFileSync(path.join(r.dir, 'src/util/money.ts'), 'export function round(n: number) {\n  return Math.floor(n + 0.5);\n}\n');
    const drifted = r.commit('round differently');

    expect(runCli(['for', 'src/util/money.ts'], { cwd: r.dir, env }).code).toBe(0);
    const before = lastEpisode(r.dir);
    // a staleness run judges DEC-MONEY stale and appends its markers to .git/ctx/markers.jsonl
    expect(runCli(['stale'], { cwd: r.dir, env }).code).toBe(1);
    expect(existsSync(path.join(r.dir, '.git/ctx/markers.jsonl'))).toBe(true);
    expect(runCli(['for', 'src/util/money.ts'], { cwd: r.dir, env }).code).toBe(0);
    const during = lastEpisode(r.dir);

    const shown = show(r.dir, during);
    // episodes moved the markers journal into the store
    expect(existsSync(path.join(r.dir, '.git/ctx/markers.jsonl'))).toBe(false);
    expect(shown.commit).toBe(drifted);
    expect(money(shown).stale).toMatchObject({ verdict: 'stale', run: 'stale', commit: drifted });
    expect(shown.evidence.filter((e) => e.stale).map((e) => e.value)).toEqual(['DEC-MONEY']);
    expect(money(show(r.dir, before)).stale).toBeUndefined();
    const human = runCli(['episodes', during], { cwd: r.dir, env });
    expect(human.stdout).toMatch(/artifact DEC-MONEY .*stale when shown \(stale run \d{4}-\d\d-\d\d [\d:]+Z at [0-9a-f]{8}\)/);

    // re-stamped and committed: a new episode at the new commit is not stale, the old one still is
    expect(runCli(['stamp', 'DEC-MONEY'], { cwd: r.dir }).code).toBe(0);
    r.commit('re-stamp');
    expect(runCli(['for', 'src/util/money.ts'], { cwd: r.dir, env }).code).toBe(0);
    expect(money(show(r.dir, lastEpisode(r.dir))).stale).toBeUndefined();
    expect(money(show(r.dir, during)).stale).toMatchObject({ verdict: 'stale' });
  });

  it('through the API: the latest marker at or before the time wins, fresh ones clear it, with an injected clock', () => {
    const r = makeRepo({ 'a.txt': 'a\n' });
    r.commit('a');
    let now = Date.parse('2026-11-01T10:00:00Z');
    const store = openStore(r.dir, { clock: () => now });
    try {
      store.recordMarkers([{ artifact: 'ADR-0007', anchor: '', verdict: 'stale', commit: 'c1', run: 'check' }]);
      now += 60_000;
      store.recordMarkers([{ artifact: 'ADR-0007', anchor: '', verdict: 'fresh', commit: 'c1', run: 'stale' }]);
      const t0 = Date.parse('2026-11-01T10:00:00Z');
      expect(store.staleWhenShown(['ADR-0007'], t0 - 1, 'c1').size).toBe(0);
      expect(store.staleWhenShown(['ADR-0007'], t0 + 30_000, 'c1').get('ADR-0007')).toEqual({ verdict: 'stale', at: t0, commit: 'c1', run: 'check' });
      expect(store.staleWhenShown(['ADR-0007'], t0 + 60_000, 'c1').size).toBe(0);
      expect(store.staleWhenShown(['ADR-0007'], t0 + 30_000, 'c2').size).toBe(0);
      // an episode whose commit is not known: any commit's verdict
      expect(store.staleWhenShown(['ADR-0007'], t0 + 30_000, undefined).get('ADR-0007')).toMatchObject({ verdict: 'stale' });
    } finally {
      store.close();
    }
  });
  it('`record: false` in the configuration (or GIT_CTX_NO_RECORD=1) keeps staleness runs from appending markers, as it keeps episodes', () => {
    const r = makeRepo({ ...IMPACT_FILES, '.contextia/config.yaml': 'sources: [docs/adr/]\nrecord: false\n' });
    r.commit('fixture');
    expect(runCli(['stamp', 'DEC-MONEY'], { cwd: r.dir }).code).toBe(0);
    r.commit('stamp');
    writeFileSync(path.join(r.dir, 'src/util/money.ts'), 'export function round(n: number) {\n  return Math.floor(n + 0.5);\n}\n');
    r.commit('round differently');
    const journal = path.join(r.dir, '.git/ctx/markers.jsonl');
    expect(runCli(['stale'], { cwd: r.dir, env }).code).toBe(1);
    expect(runCli(['pr', '--base', 'HEAD~1', '--json'], { cwd: r.dir, env }).code).toBe(0);
    expect(existsSync(journal)).toBe(false);
    // recording on again (the config key removed): the same run appends; the environment turns it off as before
    writeFileSync(path.join(r.dir, '.contextia/config.yaml'), 'sources: [docs/adr/]\n');
    expect(runCli(['stale'], { cwd: r.dir, env: { GIT_CTX_NO_RECORD: '1' } }).code).toBe(1);
    expect(existsSync(journal)).toBe(false);
    expect(runCli(['stale'], { cwd: r.dir, env }).code).toBe(1);
    expect(existsSync(journal)).toBe(true);
  });
});
