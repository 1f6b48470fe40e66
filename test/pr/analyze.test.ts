import { describe, expect, it } from 'vitest';
import { analyzePullRequest, innermostAnnotations } from '../../src/pr/analyze.js';
import { COMMENT_MARKER, prFails, renderPrComment } from '../../src/pr/render.js';
import type { PrResult } from '../../src/pr/types.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { governanceScenario } from './scenario.js';

describe('analyzePullRequest', () => {
  it('maps changed hunks to governing artifacts, requires, relations, staleness, unstamped changes and new findings', async () => {
    const s = await governanceScenario();
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'feature', cache: false });
    expect(r.mergeBase).toBe(s.base);
    expect(r.files.map((f) => [f.path, f.governedBy])).toEqual([
      ['.contextia/system/specs/SPEC-API-002.md', []],
      ['src/api/handler.ts', ['SPEC-API-001']],
      ['src/billing/invoice.ts', ['DEC-BILLING-001']],
    ]);
    const by = Object.fromEntries(r.artifacts.map((a) => [a.id, a]));
    expect(r.artifacts.map((a) => [a.id, a.inclusion])).toEqual([
      ['DEC-BILLING-001', 'direct'],
      ['SPEC-API-001', 'direct'],
      ['SPEC-API-002', 'edited'],
      ['NORM-ERROR-001', 'required'],
      ['DEC-BILLING-000', 'related'],
    ]);
    // the innermost annotated symbol the hunk touches, with its lines at head
    expect(by['SPEC-API-001']!.matches).toEqual([{ via: 'annotation', file: 'src/api/handler.ts', symbol: 'handle', tag: 'spec', line: 1, endLine: 4, side: 'head' }]);
    expect(by['DEC-BILLING-001']!.matches.map((m) => [m.via, m.symbol ?? m.pattern])).toEqual([
      ['paths', 'src/billing/**'],
      ['anchor', 'InvoiceGenerator.generate'],
    ]);
    expect(by['DEC-BILLING-001']!.unstamped.map((u) => [u.anchor, u.change])).toContainEqual(['src/billing/invoice.ts#InvoiceGenerator.generate', 'changed']);
    expect(by['DEC-BILLING-001']!.staleness?.status).toBe('stale');
    expect(by['DEC-BILLING-000']).toMatchObject({ inactive: true, via: { from: 'DEC-BILLING-001', edge: 'supersedes' } });
    expect(by['NORM-ERROR-001']!.via).toEqual({ from: 'DEC-BILLING-001', edge: 'requires' });
    expect(by['SPEC-UNUSED-001']).toBeUndefined();
    expect(r.coherence.introduced.map((f) => [f.rule, f.severity])).toContainEqual(['broken-link', 'error']);
    expect(r.counts).toMatchObject({ files: 3, governed: 2, direct: 2, unstamped: 1, errors: 1 });
    expect(r.locations.map((l) => [l.file, l.line, l.endLine, l.level])).toEqual([
      ['src/api/handler.ts', 1, 4, 'warning'],
      ['src/billing/invoice.ts', 4, 8, 'warning'],
    ]);
    expect(prFails(r, 'error')).toBe(true);
    expect(prFails(r, 'never')).toBe(false);
  });

  it('a formatting-only change to anchored code is governed but not "changed without re-stamp"; a sibling symbol is not governed', async () => {
    const s = await governanceScenario();
    s.repo.git('checkout', '-q', '-b', 'fmt', s.base);
    const head = s.repo.commit('reformat', {
      'src/billing/invoice.ts': (await import('node:fs')).readFileSync(`${s.repo.dir}/src/billing/invoice.ts`, 'utf8').replace('let total = 0;', 'let   total   =   0; // comment'),
      'src/api/handler.ts': (await import('node:fs')).readFileSync(`${s.repo.dir}/src/api/handler.ts`, 'utf8').replace('return 1;', 'return 2;'),
    });
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: s.base, head, cache: false, check: false });
    const dec = r.artifacts.find((a) => a.id === 'DEC-BILLING-001')!;
    expect(dec.inclusion).toBe('direct');
    expect(dec.unstamped.filter((u) => u.anchor.includes('#'))).toEqual([]);
    expect(r.artifacts.find((a) => a.id === 'SPEC-API-001')).toBeUndefined();
    expect(r.files.find((f) => f.path === 'src/api/handler.ts')!.governedBy).toEqual([]);
  });

  it('innermost annotations: a method beats its class, siblings both count, a gap needs both sides', () => {
    const ann = (symbol: string, startLine: number, endLine: number) => ({ tag: 'spec', ids: [symbol.toUpperCase()], file: 'f.ts', line: startLine, symbol, startLine, endLine });
    const all = [ann('C', 1, 20), ann('C.a', 2, 5), ann('C.b', 7, 10)];
    expect(innermostAnnotations(all, { start: 3, end: 3 }).map((a) => a.symbol)).toEqual(['C.a']);
    expect(innermostAnnotations(all, { start: 4, end: 8 }).map((a) => a.symbol)).toEqual(['C.a', 'C.b']);
    expect(innermostAnnotations(all, { start: 12, end: 12 }).map((a) => a.symbol)).toEqual(['C']);
    expect(innermostAnnotations(all, { gap: 5 }).map((a) => a.symbol)).toEqual(['C']);
    expect(innermostAnnotations(all, { gap: 3 }).map((a) => a.symbol)).toEqual(['C.a']);
  });

  it('git ctx pr prints the same markdown the bot posts, or json, with exit codes by --fail-on', async () => {
    const s = await governanceScenario();
    const md = runCli(['pr', '--base', 'main', '--head', 'feature'], { cwd: s.repo.dir });
    expect(md.stderr).toBe('');
    expect(md.code).toBe(1);
    expect(md.stdout.startsWith(COMMENT_MARKER)).toBe(true);
    const lib = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'feature' });
    expect(md.stdout).toBe(renderPrComment(lib));
    const json = runCli(['pr', '--base', 'main', '--head', 'feature', '--format', 'json', '--fail-on', 'never'], { cwd: s.repo.dir });
    expect(json.code).toBe(0);
    const data = JSON.parse(json.stdout) as PrResult;
    expect(data.head.commit).toBe(s.head);
    expect(data.artifacts[0]!.id).toBe('DEC-BILLING-001');
    expect(runCli(['pr', '--base', 'nope'], { cwd: s.repo.dir }).code).toBe(2);
  });

  it('git ctx pr takes a range as git writes it (DEC-093): main...feature and main..feature are --base main --head feature', async () => {
    const s = await governanceScenario();
    const flags = runCli(['pr', '--base', 'main', '--head', 'feature', '--json', '--fail-on', 'never'], { cwd: s.repo.dir });
    for (const range of ['main...feature', 'main..feature']) {
      const r = runCli(['pr', range, '--json', '--fail-on', 'never'], { cwd: s.repo.dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(flags.stdout);
    }
    const twice = runCli(['pr', 'main...feature', '--base', 'main'], { cwd: s.repo.dir });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('two ranges');
    expect(runCli(['pr', '...'], { cwd: s.repo.dir }).stderr).toContain('is no range');
  });

  it('nothing applies: a short note', async () => {
    const repo = makeRepo({ 'a.txt': '1\n' });
    const base = repo.commit('a');
    const head = repo.commit('b', { 'a.txt': '2\n' });
    const r = await analyzePullRequest({ cwd: repo.dir, base, head, cache: false });
    const text = renderPrComment(r);
    expect(text).toContain('no decision, spec or norm governs the code this PR changes (1 file checked)');
    expect(text.split('\n').length).toBeLessThan(8);
  });
});
