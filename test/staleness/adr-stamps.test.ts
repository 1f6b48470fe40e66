import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Stamp } from '../../src/artifacts/types.js';
import { parseStamps, renderStamps } from '../../src/artifacts/sources/stamps.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { judgeOne } from './helpers.js';

const CONFIG = 'sources:\n  - dir: docs/adr\n    format: adr\n';
const BILLING_TS = 'export function roundTotal(amount: number): number {\n  return Math.round(amount * 100) / 100;\n}\n';
const TAX_TS = 'export const RATE = 0.2;\n';
// an adr-tools record naming a file, a symbol in another file, and a file that does not exist
const ADR_7 = [
  '# 7. Round invoice totals in one place',
  '',
  'Date: 2025-03-01',
  '',
  '## Status',
  '',
  'Accepted',
  '',
  '## Decision',
  '',
  'Totals are rounded by `src/billing.ts#roundTotal`; the rate lives in `src/tax.ts`.',
  'An old helper, `src/legacy/round.ts`, was removed long ago.',
  '',
].join('\n');
const ADR_8 = '# 8. Name things plainly\n\n## Status\n\nAccepted\n\nSee `src/tax.ts` for an example.\n';
const ADR_7_FILE = 'docs/adr/0007-round-invoice-totals.md';
const ADR_8_FILE = 'docs/adr/0008-name-things.md';

function cli(repo: TestRepo, ...args: string[]) {
  return runCli(args, { cwd: repo.dir });
}

function adrBytes(repo: TestRepo): [Buffer, Buffer] {
  return [readFileSync(path.join(repo.dir, ADR_7_FILE)), readFileSync(path.join(repo.dir, ADR_8_FILE))];
}

/** A repository whose ADR folder is read in place, with one commit of code and records. */
function adrRepo(): { repo: TestRepo; bytes: [Buffer, Buffer] } {
  const repo = makeRepo();
  repo.commit('records and code', {
    '.contextia/config.yaml': CONFIG,
    'src/billing.ts': BILLING_TS,
    'src/tax.ts': TAX_TS,
    [ADR_7_FILE]: ADR_7,
    [ADR_8_FILE]: ADR_8,
  });
  return { repo, bytes: adrBytes(repo) };
}

describe('stamps of records read in place (.contextia/stamps.jsonl)', () => {
  it('a never stamped record stays unstamped, its mentions listed and never guessed from history', async () => {
    const { repo, bytes } = adrRepo();
    repo.commit('change the rate', { 'src/tax.ts': 'export const RATE = 0.25;\n' });
    const j = await judgeOne(repo.dir, 'ADR-0007');
    expect(j.status).toBe('unstamped');
    expect(j.mentioned).toBe(true);
    expect(j.method).toBe('none');
    expect(j.anchors.map((v) => [v.anchor, v.origins])).toEqual([
      ['src/billing.ts#roundTotal', ['mentioned']],
      ['src/tax.ts', ['mentioned']],
    ]);
    expect(j.notes.join('\n')).toContain('judged only once stamped: run git ctx stamp ADR-0007');
    const stale = cli(repo, 'stale', '--json');
    expect(stale.code).toBe(0);
    expect(JSON.parse(stale.stdout).counts).toMatchObject({ unstamped: 2, stale: 0 });
    // check judges stamped artifacts only: nothing to say
    expect(cli(repo, 'check').code).toBe(0);
    expect(adrBytes(repo)).toEqual(bytes);
  });

  it('stamp writes the sidecar (not the record), then an edit of the mentioned code is stale naming its commit', async () => {
    const { repo, bytes } = adrRepo();
    const stamped = cli(repo, 'stamp', 'ADR-0007');
    expect(stamped.code, stamped.stderr).toBe(0);
    expect(stamped.stdout).toContain('stamped  ADR-0007');
    expect(stamped.stdout).toContain('2 anchors (2 mentioned)');
    expect(stamped.stdout).toContain('.contextia/stamps.jsonl (stamp of docs/adr/0007-round-invoice-totals.md, which is not rewritten)');
    // a mention of a file that does not exist is no error and is not stamped
    expect(stamped.stdout).not.toContain('legacy');
    expect(adrBytes(repo)).toEqual(bytes);

    const head = repo.git('rev-parse', 'HEAD');
    const text = readFileSync(path.join(repo.dir, '.contextia/stamps.jsonl'), 'utf8');
    const line = JSON.parse(text.trim());
    expect(line).toMatchObject({ id: 'ADR-0007', commit: head });
    expect(Object.keys(line.fingerprints)).toEqual(['src/billing.ts#roundTotal', 'src/tax.ts']);
    repo.commit('stamp ADR-0007');
    expect((await judgeOne(repo.dir, 'ADR-0007')).status).toBe('fresh');

    const edit = repo.commit('raise the rate', { 'src/tax.ts': 'export const RATE = 0.25;\n' });
    const j = await judgeOne(repo.dir, 'ADR-0007');
    expect(j.status).toBe('stale');
    expect(j.mentioned).toBe(true);
    expect(j.method).toBe('fingerprints');
    const tax = j.anchors.find((v) => v.anchor === 'src/tax.ts')!;
    expect(tax.state).toBe('changed');
    expect(tax.origins).toEqual(['mentioned']);
    expect(tax.commits!.map((c) => c.id)).toEqual([edit]);
    expect(j.anchors.find((v) => v.anchor === 'src/billing.ts#roundTotal')!.state).toBe('ok');

    const human = cli(repo, 'stale');
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/stale \(mentioned code only\) ADR-0007/);
    expect(human.stdout).toContain("src/tax.ts (named in ADR-0007's text): changed since the stamp");
    expect(human.stdout).toContain(`${edit.slice(0, 10)} `);

    const check = cli(repo, 'check', '--format', 'json');
    const findings = JSON.parse(check.stdout).findings as { rule: string; id?: string; file: string; message: string }[];
    const f = findings.find((x) => x.rule === 'stale-artifact');
    expect(f).toMatchObject({ id: 'ADR-0007', file: ADR_7_FILE });
    expect(f!.message).toContain('mentioned code only');
    expect(f!.message).toContain(edit.slice(0, 8));

    // trace of the mentioned file lists the record as mentioned, with its drift
    const trace = cli(repo, 'trace', 'src/tax.ts');
    expect(trace.stdout).toMatch(/mentioned\s+ADR-0007/);
    expect(trace.stdout).toContain('stale: mentioned code only: src/tax.ts changed (1 commit since the stamp)');
    expect(JSON.parse(cli(repo, 'trace', 'src/tax.ts', '--json').stdout).mentioned[0].stale).toMatchObject({ state: 'stale', detail: { mentioned: true } });

    // ack records the review in the sidecar; the record is still not rewritten
    const ack = cli(repo, 'ack', 'ADR-0007');
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toContain('ADR-0007 was stale; acknowledged');
    repo.commit('ack ADR-0007');
    expect((await judgeOne(repo.dir, 'ADR-0007')).status).toBe('fresh');
    expect(adrBytes(repo)).toEqual(bytes);
  });

  it('a renamed mentioned file reads as moved; stamp --fix follows it in the sidecar and never rewrites the record', async () => {
    const { repo, bytes } = adrRepo();
    expect(cli(repo, 'stamp', 'ADR-0007', 'ADR-0008').code).toBe(0);
    repo.commit('stamp');
    repo.git('mv', 'src/tax.ts', 'src/rates.ts');
    const mv = repo.commit('rename tax to rates');
    const j = await judgeOne(repo.dir, 'ADR-0008');
    expect(j.status).toBe('moved');
    expect(j.mentioned).toBe(true);
    expect(j.anchors).toHaveLength(1);
    expect(j.anchors[0]).toMatchObject({ anchor: 'src/tax.ts', state: 'moved', movedTo: 'src/rates.ts', origins: ['mentioned'] });
    expect(j.anchors[0]!.commits!.map((c) => c.id)).toEqual([mv]);

    const check = JSON.parse(cli(repo, 'check', '--format', 'json').stdout).findings as { rule: string; id?: string; message: string }[];
    expect(check.filter((x) => x.rule === 'moved-anchor').map((x) => x.id).sort()).toEqual(['ADR-0007', 'ADR-0008']);
    expect(check.find((x) => x.id === 'ADR-0008')!.message).toContain("the record's text is not rewritten");

    const fix = cli(repo, 'stamp', '--fix');
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.stdout).toContain('src/tax.ts → src/rates.ts');
    expect(adrBytes(repo)).toEqual(bytes);
    const stamps = parseStamps(readFileSync(path.join(repo.dir, '.contextia/stamps.jsonl'), 'utf8'), 'x').stamps;
    expect(Object.keys(stamps.get('ADR-0008')!.fingerprints!)).toEqual(['src/rates.ts']);
    repo.commit('fix stamps');
    // the text still says src/tax.ts (which names nothing now); the stamp pins where it went
    const after = await judgeOne(repo.dir, 'ADR-0008');
    expect(after.status).toBe('fresh');
    expect(after.anchors.map((v) => [v.anchor, v.state, v.origins])).toEqual([['src/rates.ts', 'ok', ['mentioned']]]);
    expect((await judgeOne(repo.dir, 'ADR-0007')).status).toBe('fresh');
    expect(cli(repo, 'check').code).toBe(0);
  });

  it('a deleted mentioned file is stale (mentioned code gone), and dry runs write nothing', async () => {
    const { repo, bytes } = adrRepo();
    const dry = cli(repo, 'stamp', 'ADR-0008', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('dry run: nothing written');
    expect(dry.stdout).toContain('"id":"ADR-0008"');
    expect(repo.git('status', '--porcelain')).toBe('');
    cli(repo, 'stamp', 'ADR-0008');
    repo.commit('stamp');
    repo.rm('src/tax.ts');
    const del = repo.commit('drop tax');
    const j = await judgeOne(repo.dir, 'ADR-0008');
    expect(j.status).toBe('stale');
    expect(j.anchors[0]).toMatchObject({ anchor: 'src/tax.ts', state: 'removed', note: `deleted in ${del.slice(0, 12)}` });
    expect(adrBytes(repo)).toEqual(bytes);
  });

  it('the PR bot lists the record that mentions a changed file with its mentioned drift', async () => {
    const { repo } = adrRepo();
    cli(repo, 'stamp', 'ADR-0008');
    repo.commit('stamp');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('raise the rate', { 'src/tax.ts': 'export const RATE = 0.25;\n' });
    const pr = cli(repo, 'pr', '--base', 'main', '--json');
    expect(pr.code, pr.stderr).toBeLessThan(2);
    const report = JSON.parse(pr.stdout);
    const a = report.artifacts.find((x: { id: string }) => x.id === 'ADR-0008');
    expect(a).toMatchObject({ inclusion: 'mentioned', staleness: { status: 'stale', mentioned: true } });
    expect(a.staleness.anchors[0]).toMatchObject({ anchor: 'src/tax.ts', state: 'changed', mentioned: true });
    const md = cli(repo, 'pr', '--base', 'main', '--format', 'markdown').stdout;
    expect(md).toContain('is stale (mentioned code only) at head');
  });
});

describe('the stamps sidecar format', () => {
  it('one sorted line per record, a blank line between records, round-tripping', () => {
    const m = new Map<string, Stamp>([
      ['ADR-0010', { commit: 'b'.repeat(40), fingerprints: { 'src/z.ts': '2', 'src/a.ts': '1' } }],
      ['ADR-0002', { commit: 'a'.repeat(40), fingerprints: { 'src/x.ts': '3' } }],
    ]);
    const text = renderStamps(m);
    expect(text).toBe(`{"id":"ADR-0002","commit":"${'a'.repeat(40)}","fingerprints":{"src/x.ts":"3"}}\n\n{"id":"ADR-0010","commit":"${'b'.repeat(40)}","fingerprints":{"src/a.ts":"1","src/z.ts":"2"}}\n`);
    const back = parseStamps(text, 'f');
    expect(back.problems).toEqual([]);
    expect(renderStamps(back.stamps)).toBe(text);
  });

  it('a malformed line is a problem naming file and line; stamping refuses to rewrite it', () => {
    const { problems, stamps } = parseStamps('{"id":"ADR-1","commit":"c","fingerprints":{}}\n\n<<<<<<< HEAD\n', '.contextia/stamps.jsonl');
    expect(stamps.has('ADR-1')).toBe(true);
    expect(problems).toEqual([expect.objectContaining({ file: '.contextia/stamps.jsonl', line: 3, rule: 'stamps-malformed' })]);
  });

  it('check reports a stamp no record takes any more (record renumbered) as a warning with its line', () => {
    const { repo } = adrRepo();
    expect(cli(repo, 'stamp', 'ADR-0008').code).toBe(0);
    repo.commit('stamp');
    const clean = JSON.parse(cli(repo, 'check', '--format', 'json').stdout) as { findings: { rule: string }[] };
    expect(clean.findings.filter((x) => x.rule === 'stamps-orphaned')).toEqual([]);
    // the record is renumbered: its stamp names an id nothing has
    repo.git('mv', ADR_8_FILE, ADR_8_FILE.replace('0008', '0018'));
    repo.commit('renumber');
    const check = cli(repo, 'check', '--format', 'json');
    const f = (JSON.parse(check.stdout).findings as { rule: string; file: string; line: number; severity: string; message: string }[]).filter((x) => x.rule === 'stamps-orphaned');
    expect(f).toEqual([expect.objectContaining({ file: '.contextia/stamps.jsonl', line: 1, severity: 'warning' })]);
    expect(f[0]!.message).toContain('ADR-0008');
  });

  it('check reports a malformed sidecar line as a warning, and stamp refuses to drop it', () => {
    const { repo } = adrRepo();
    repo.commit('broken sidecar', { '.contextia/stamps.jsonl': 'not json\n' });
    const check = cli(repo, 'check', '--format', 'json');
    const f = (JSON.parse(check.stdout).findings as { rule: string; file: string; line: number; severity: string }[]).find((x) => x.rule === 'stamps-malformed');
    expect(f).toMatchObject({ file: '.contextia/stamps.jsonl', line: 1, severity: 'warning' });
    const stamp = cli(repo, 'stamp', 'ADR-0008');
    expect(stamp.code).toBe(2);
    expect(stamp.stderr).toContain('.contextia/stamps.jsonl:1');
    expect(readFileSync(path.join(repo.dir, '.contextia/stamps.jsonl'), 'utf8')).toBe('not json\n');
  });
});
