// Git sources (issue 33's weaker items, DEC-066): a renamed or renumbered upstream record is
// reported as renamed by `sources update`; one id given by two sources is a visible finding
// naming both; a link of a pinned record that leaves its folder is resolved in its upstream
// at the pinned commit, or reported naming the source and commit.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

const adr = (n: number, title: string, body: string, status = 'Accepted') =>
  `# ${n}. ${title}\n\nDate: 2025-01-${String(n).padStart(2, '0')}\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

function upstream(files: Record<string, string>): TestRepo {
  const up = makeRepo(files);
  up.commit('standards');
  return up;
}

/** A service reading each upstream's adr/ folder as a git source, pinned and committed. */
function service(sources: { up: TestRepo; name: string; prefix: string }[]): TestRepo {
  const entries = sources.map((s) => `  - git: ../${path.basename(s.up.dir)}\n    ref: main\n    dir: adr\n    format: adr\n    prefix: ${s.prefix}\n    name: ${s.name}\n`).join('');
  const svc = makeRepo({ '.contextia/config.yaml': `sources:\n${entries}`, 'src/app.ts': 'export const app = 1;\n' });
  svc.commit('service');
  const r = runCli(['sources', 'update'], { cwd: svc.dir });
  expect(r.code).toBe(0);
  svc.commit('pin');
  return svc;
}

type Finding = { rule: string; severity: string; file?: string; message: string };
const findings = (dir: string): Finding[] => {
  const r = runCli(['check', '--json'], { cwd: dir });
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
};

const MONEY = 'Money amounts are stored as integer cents, never floating point; rounding happens once, at the invoice total, half to even.';
const TIME = 'Every timestamp is stored and sent in UTC with an explicit offset; clients convert for display only.';
const ERRORS = 'HTTP APIs answer errors as RFC 7807 problem details with a stable type URI per error kind.';

describe('git sources: what issue 33 left weaker', () => {
  it('sources update reports a renamed file and a renumbered record as renamed, not removed and added', () => {
    const up = upstream({
      'adr/0001-money-in-cents.md': adr(1, 'Keep money in integer cents', MONEY),
      'adr/0002-timestamps-utc.md': adr(2, 'Timestamps in UTC', TIME),
      'adr/0003-api-errors.md': adr(3, 'Problem details for API errors', ERRORS),
    });
    const svc = service([{ up, name: 'standards', prefix: 'ORG-ADR-' }]);
    const from = up.git('rev-parse', 'HEAD');
    // a file renamed (same number, same id), a record renumbered 3 → 7 (its title's number too) and edited a little, one removed, one added
    up.git('mv', 'adr/0002-timestamps-utc.md', 'adr/0002-timestamps-in-utc.md');
    up.git('mv', 'adr/0003-api-errors.md', 'adr/0007-api-errors.md');
    up.rm('adr/0001-money-in-cents.md');
    const to = up.commit('renumber', {
      'adr/0007-api-errors.md': adr(7, 'Problem details for API errors', `${ERRORS} Validation errors list every field.`),
      'adr/0008-idempotency-keys.md': adr(8, 'Idempotency keys on POST', 'Every POST that creates takes an Idempotency-Key header kept for a day.'),
    });
    const r = runCli(['sources', 'update'], { cwd: svc.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `standards: ${from.slice(0, 12)} → ${to.slice(0, 12)} (main)`,
        '  added 1: ORG-ADR-0008',
        '  renamed 2: ORG-ADR-0002 (0002-timestamps-utc.md → 0002-timestamps-in-utc.md), ORG-ADR-0003 → ORG-ADR-0007 (0003-api-errors.md → 0007-api-errors.md, changed)',
        '  removed 1: ORG-ADR-0001',
        'wrote .contextia/sources.lock: commit it so every clone reads these pins',
        '',
      ].join('\n'),
    );
    const json = runCli(['sources', 'update', '--json'], { cwd: svc.dir });
    expect(json.code).toBe(0);
    // pinned now: moving to the same commit changes nothing
    expect((JSON.parse(json.stdout) as { changes: { renamed: unknown[] }[] }).changes[0]!.renamed).toEqual([]);
  });

  it('two sources giving one id is a visible finding naming both, and the same source is read every time', () => {
    const a = upstream({ 'adr/0001-money-in-cents.md': adr(1, 'Keep money in integer cents', MONEY) });
    const b = upstream({ 'adr/0001-money-as-strings.md': adr(1, 'Money as decimal strings', 'Amounts cross APIs as decimal strings, never numbers.') });
    const svc = service([
      { up: b, name: 'platform', prefix: 'ORG-' },
      { up: a, name: 'finance', prefix: 'ORG-' },
    ]);
    const found = findings(svc.dir).filter((f) => f.rule === 'duplicate-id');
    expect(found).toHaveLength(1);
    const f = found[0]!;
    expect(f.file).toBe('.contextia/config.yaml');
    expect(f.severity).toBe('warning');
    const ca = a.git('rev-parse', 'HEAD').slice(0, 12);
    const cb = b.git('rev-parse', 'HEAD').slice(0, 12);
    expect(f.message).toBe(
      `git sources finance and platform both give id ORG-0001: finance@${ca} (adr/0001-money-in-cents.md), platform@${cb} (adr/0001-money-as-strings.md); the record of finance is read (the sources in the order of their names); give the sources different \`prefix:\` settings, or write a local record of that id to choose`,
    );
    const show = runCli(['show', 'ORG-0001', '--json'], { cwd: svc.dir });
    expect((JSON.parse(show.stdout) as { title: string }).title).toBe('Keep money in integer cents');
  });

  it("a pinned record's link out of its folder is resolved in the upstream at the pinned commit, or reported with source and commit", async () => {
    const up = upstream({
      'adr/0001-money-in-cents.md': adr(1, 'Keep money in integer cents', `${MONEY} See [the guide](../guides/money.md), [the root note](/NOTES.md), [a draft](../drafts/0009-gone.md), [outside](../../elsewhere.md) and [ADR 2](0002-timestamps-utc.md).`),
      'adr/0002-timestamps-utc.md': adr(2, 'Timestamps in UTC', TIME),
      'guides/money.md': '# Money guide\n',
      'NOTES.md': 'notes\n',
    });
    const svc = service([{ up, name: 'standards', prefix: 'ORG-ADR-' }]);
    // a local file of the same path as the upstream's escaping link must not be what it names
    svc.commit('local', { 'elsewhere.md': 'local\n' });
    const commit = up.git('rev-parse', 'HEAD').slice(0, 12);
    const broken = findings(svc.dir).filter((f) => f.rule === 'broken-link');
    expect(broken.map((f) => [f.file, f.severity, f.message])).toEqual([
      ['.contextia/config.yaml', 'warning', `git source standards@${commit}: ORG-ADR-0001 (adr/0001-money-in-cents.md) links ../elsewhere.md, which is not in the upstream at that commit`],
      ['.contextia/config.yaml', 'warning', `git source standards@${commit}: ORG-ADR-0001 (adr/0001-money-in-cents.md) links drafts/0009-gone.md, which is not in the upstream at that commit`],
    ]);
    // the record's relations: the record of its folder by id; the upstream's documents, and what is not there, none
    const snap = await openSnapshot({ cwd: svc.dir });
    try {
      const set = await loadArtifactSet(snap, await loadConfig(snap));
      const rec = set.byId.get('ORG-ADR-0001')!;
      expect(Object.values(rec.relations).flat()).toEqual(['ORG-ADR-0002']);
      expect(rec.links.filter((l) => l.id.startsWith('~'))).toEqual([]);
    } finally {
      snap.close();
    }
  });
});
