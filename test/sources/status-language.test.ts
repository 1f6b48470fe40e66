import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recolourBadge, replaceAdrStatus } from '../../src/artifacts/record-status.js';
import { inRecordLanguage, withFolderMark } from '../../src/artifacts/sources/status-language.js';
import { DEFAULT_STATUS_MAP, normalizeStatus } from '../../src/artifacts/sources/status.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// DEC-107: deprecate and supersede write a status in the record's language and, on a status
// badge, in its colour too.

const cli = (dir: string, ...args: string[]) => runCli(args, { cwd: dir });
const statuses = (dir: string) => Object.fromEntries((JSON.parse(cli(dir, 'list', '--json').stdout) as { artifacts: { id: string; status: string | null }[] }).artifacts.map((a) => [a.id, a.status]));

describe('a status written in the record language (DEC-107)', () => {
  it('translates the status word and "by", keeps the gender of the word it replaces, and leaves English alone', () => {
    expect(inRecordLanguage('ACCEPTÉ', 'deprecated (trop lent)')).toBe('déprécié (trop lent)');
    expect(inRecordLanguage('acceptée', 'superseded by [2](002.md)')).toBe('remplacée par [2](002.md)');
    expect(inRecordLanguage('aceptada', 'deprecated')).toBe('obsoleta');
    expect(inRecordLanguage('Akzeptiert', 'superseded by x')).toBe('ersetzt durch x');
    expect(inRecordLanguage('geaccepteerd', 'rejected')).toBe('afgewezen');
    expect(inRecordLanguage('Accepted', 'deprecated')).toBe('deprecated');
    expect(inRecordLanguage('en cours', 'accepted')).toBe('accepté');
  });

  it('reads back every status it writes, in every language and gender', () => {
    for (const was of ['accepté', 'acceptée', 'aceptado', 'aceptada', 'aceito', 'aceita', 'akzeptiert', 'geaccepteerd']) {
      for (const status of ['accepted', 'proposed', 'deprecated', 'superseded', 'rejected']) {
        const written = inRecordLanguage(was, status === 'superseded' ? `${status} by [3](003.md)` : status);
        const key = normalizeStatus(written);
        expect({ was, status, read: DEFAULT_STATUS_MAP[key] ?? DEFAULT_STATUS_MAP[key.split(' ')[0]!] }).toEqual({ was, status, read: status });
      }
    }
  });

  it('sets a badge colour to the new status, for badgen, shields.io paths and colour queries', () => {
    expect(recolourBadge('[![s](https://badgen.net/badge/ADR/deprecated/green/)](x)', 'deprecated')).toBe('[![s](https://badgen.net/badge/ADR/deprecated/lightgrey/)](x)');
    expect(recolourBadge('![s](https://img.shields.io/badge/status-rejected-brightgreen.svg)', 'rejected')).toBe('![s](https://img.shields.io/badge/status-rejected-red.svg)');
    expect(recolourBadge('![s](https://img.shields.io/static/v1/badge/x?label=status&message=superseded&color=green)', 'superseded by y')).toBe('![s](https://img.shields.io/static/v1/badge/x?label=status&message=superseded&color=lightgrey)');
    expect(recolourBadge('Status: deprecated', 'deprecated')).toBe('Status: deprecated');
  });

  it('deprecate and supersede on French records write French, in the record capitals, the link as it was', () => {
    const rec = (n: number, title: string) => `# 00${n} - ${title}\n\n* Date : 2024-02-0${n}\n* Statut : ACCEPTÉ <!-- [BROUILLON|ACCEPTÉ|DÉPRÉCIÉ] -->\n\n## Contexte\n\nLes sessions sont perdues à chaque déploiement.\n\n## Décision\n\n${title}.\n`;
    const repo = makeRepo({ 'docs/adr/001_sessions.md': rec(1, 'Sessions en mémoire'), 'docs/adr/002_redis.md': rec(2, 'Sessions dans Redis'), 'docs/adr/003_base.md': rec(3, 'Sessions en base') });
    repo.commit('records');
    expect(cli(repo.dir, 'deprecate', 'ADR-001', '--reason', 'remplacé par le cache').code).toBe(0);
    const one = readFileSync(path.join(repo.dir, 'docs/adr/001_sessions.md'), 'utf8');
    expect(one).toContain('* Statut : DÉPRÉCIÉ (remplacé par le cache) <!-- [BROUILLON|ACCEPTÉ|DÉPRÉCIÉ] -->\n');
    const sup = cli(repo.dir, 'supersede', 'ADR-002', '--by', 'ADR-003');
    expect(sup.code, sup.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'docs/adr/002_redis.md'), 'utf8')).toMatch(/^\* Statut : REMPLACÉ PAR \[[^\]]*\]\(003_base\.md\) <!--/m);
    expect(statuses(repo.dir)).toMatchObject({ 'ADR-001': 'deprecated', 'ADR-002': 'superseded', 'ADR-003': 'accepted' });
  });

  it('deprecate on a badge status changes its word and its colour', () => {
    const rec = (title: string) => `# ${title}\n\n## Status\n\n[![Generic badge](https://badgen.net/badge/ADR/approved/green/)](README.md)\n\n## Context\n\nWe need it.\n\n## Decision\n\n${title}.\n`;
    const repo = makeRepo({ 'docs/adr/adr-001-use-adrs.md': rec('Use ADRs'), 'docs/adr/adr-002-use-queues.md': rec('Use queues') });
    repo.commit('records');
    expect(cli(repo.dir, 'deprecate', 'ADR-002').code).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'docs/adr/adr-002-use-queues.md'), 'utf8')).toContain('[![Generic badge](https://badgen.net/badge/ADR/deprecated/lightgrey/)](README.md)');
    expect(statuses(repo.dir)).toMatchObject({ 'ADR-001': 'accepted', 'ADR-002': 'deprecated' });
  });
});

describe("a new record's status in the folder's marks", () => {
  it("takes the mark most of the folder's records write before that status word, when two or more do", () => {
    const folder = ['\u2705 Accepted', '\u2705 Accepted', '\u2705 Accepted (documenting an existing thing)', '\ud83e\udd14 Proposed', '\ud83e\udd14 Proposed', '\u274c Rejected', undefined];
    expect(withFolderMark('Accepted', folder)).toBe('\u2705 Accepted');
    expect(withFolderMark('Proposed', folder)).toBe('\ud83e\udd14 Proposed');
    // one record is no habit; a mark already given stays as given; a folder without marks adds none
    expect(withFolderMark('Rejected', folder)).toBe('Rejected');
    expect(withFolderMark('\u2b50 Accepted', folder)).toBe('\u2b50 Accepted');
    expect(withFolderMark('Accepted', ['Accepted', 'Accepted', '\u2705 Accepted'])).toBe('Accepted');
  });

  it('new and add write the mark in an adr-tools folder that uses them, and read the status back', () => {
    const rec = (n: string, title: string, status: string) => `# ${Number(n)}. ${title}\n\nDate: 2024-01-0${Number(n)}\n\n## Status\n\n${status}\n\n## Context\n\nText.\n\n## Decision\n\nText.\n\n## Consequences\n\nText.\n`;
    const repo = makeRepo({
      'architecture-decision-record/001-use-queues.md': rec('001', 'Use queues', '\u2705 Accepted'),
      'architecture-decision-record/002-use-topics.md': rec('002', 'Use topics', '\u2705 Accepted'),
      'architecture-decision-record/003-use-streams.md': rec('003', 'Use streams', '\ud83e\udd14 Proposed'),
      'architecture-decision-record/004-use-logs.md': rec('004', 'Use logs', '\ud83e\udd14 Proposed'),
    });
    repo.commit('records');
    const created = cli(repo.dir, 'new', 'decision', 'Rotate credentials monthly');
    expect(created.code, created.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'architecture-decision-record/005-rotate-credentials-monthly.md'), 'utf8');
    expect(text).toContain('## Status\n\n\ud83e\udd14 Proposed\n');
    expect(statuses(repo.dir)['ADR-005']).toBe('proposed');
  });

  it("supersede and deprecate write the folder's mark for the new status, the old mark going with the old status", () => {
    const rec = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nText.\n\n## Decision\n\nText.\n`;
    const repo = makeRepo({
      'architecture-decision-record/001-use-queues.md': rec(1, 'Use queues', '\u2705 Accepted'),
      'architecture-decision-record/002-use-topics.md': rec(2, 'Use topics', '\u2705 Accepted'),
      'architecture-decision-record/003-use-streams.md': rec(3, 'Use streams', '\u274c Superseded by [5. Use logs](005-use-logs.md)'),
      'architecture-decision-record/004-use-files.md': rec(4, 'Use files', '\u274c Superseded by [5. Use logs](005-use-logs.md)'),
      'architecture-decision-record/005-use-logs.md': rec(5, 'Use logs', '\u2705 **Accepted**'),
    });
    repo.commit('records');
    const sup = cli(repo.dir, 'supersede', 'ADR-001', '--by', 'ADR-002');
    expect(sup.code, sup.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'architecture-decision-record/001-use-queues.md'), 'utf8')).toContain('## Status\n\n\u274c Superseded by [Use topics](002-use-topics.md)\n');
    // no record of the folder marks "Deprecated": the word is written plain, the green mark gone with "Accepted"; the markup stays
    expect(cli(repo.dir, 'deprecate', 'ADR-005', '--reason', 'too slow').code).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'architecture-decision-record/005-use-logs.md'), 'utf8')).toContain('## Status\n\n**Deprecated (too slow)**\n');
    expect(statuses(repo.dir)).toMatchObject({ 'ADR-001': 'superseded', 'ADR-002': 'accepted', 'ADR-005': 'deprecated' });
  });

  it("confirm and reject write the folder's mark too, as supersede and deprecate do", () => {
    const rec = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-02-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nText.\n\n## Decision\n\nText.\n`;
    const repo = makeRepo({
      'architecture-decision-record/001-use-queues.md': rec(1, 'Use queues', '\u2705 Accepted'),
      'architecture-decision-record/002-use-topics.md': rec(2, 'Use topics', '\u2705 Accepted'),
      'architecture-decision-record/003-use-streams.md': rec(3, 'Use streams', '\ud83e\udd14 Proposed'),
      'architecture-decision-record/004-use-files.md': rec(4, 'Use files', '\ud83e\udd14 Proposed'),
    });
    repo.commit('records');
    const ok = cli(repo.dir, 'confirm', 'ADR-003');
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'architecture-decision-record/003-use-streams.md'), 'utf8')).toContain('## Status\n\n\u2705 Accepted\n');
    // no record of the folder marks "Rejected": written plain, the proposal's mark gone with its word
    expect(cli(repo.dir, 'reject', 'ADR-004').code).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'architecture-decision-record/004-use-files.md'), 'utf8')).toContain('## Status\n\nRejected\n');
  });

  it('replaces a marked status with the mark the folder writes for the new word, or none', () => {
    const folder = ['\u231b\ufe0f Deprecated', '\u231b\ufe0f Deprecated (old)', '\u2705 Accepted'];
    expect(replaceAdrStatus('## Status\n\n\u2705 Accepted\n', 3, '\u2705 Accepted', 'deprecated', undefined, folder)).toBe('## Status\n\n\u231b\ufe0f Deprecated\n');
    expect(replaceAdrStatus('Status: \u2705 **Accepted**\n', 1, '\u2705 Accepted', 'deprecated', undefined, folder)).toBe('Status: \u231b\ufe0f **Deprecated**\n');
    expect(replaceAdrStatus('Status: \u2705 **Accepted**\n', 1, '\u2705 Accepted', 'rejected', undefined, folder)).toBe('Status: **Rejected**\n');
    expect(replaceAdrStatus('Status: Accepted\n', 1, 'Accepted', 'deprecated', undefined, [])).toBe('Status: Deprecated\n');
  });
});
