import { describe, expect, it } from 'vitest';
import { titleNumber } from '../../src/artifacts/sources/title-number.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// A record started as a copy of the one before it keeps that record's heading number (and
// sometimes its title): "# 41. …" in 0042-…, "# ADR-0006 …" in ADR-0008-…, "# 2. …" in
// 0003-… (GSA-TTS/FAC, dasch-swiss/dsp-api, cloudfoundry/bosh-bootloader). The title is read
// without its number, so nothing said so and the record read under the other's title.
const nygard = (heading: string, decision: string) => `# ${heading}\n\nDate: 2024-05-02\n\n## Status\n\nAccepted\n\n## Context\n\nSubmissions grow.\n\n## Decision\n\n${decision}\n`;
type Finding = { rule: string; file: string; line: number; severity: string; message: string };
const findings = (dir: string) => (JSON.parse(runCli(['check', '--format', 'json'], { cwd: dir }).stdout) as { findings: Finding[] }).findings.filter((f) => f.rule === 'title-number-disagrees');

describe('title-number-disagrees', () => {
  it('reads the number a title is headed with, and no number a title merely starts with', () => {
    expect(['# 41. Deletion workflow', '# ADR-0006 Replace the broker', '# ADR-009: API v3', '# \u{1F4C4} ADR 12 - Queues', '1. Record decisions', '# 7) Seven'].map(titleNumber)).toEqual([41, 6, 9, 12, 1, 7]);
    expect(['# 2FA for admins', '# 2024 roadmap', '# 1.2 release notes', '# Use Redis', '# 3rd-party review'].map(titleNumber)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('warns on the copied heading, naming the record whose title it is', () => {
    const repo = makeRepo({
      'doc/adr/0001-record-decisions.md': nygard('1. Record decisions', 'We keep records.'),
      'doc/adr/0002-store-submissions-as-json.md': nygard('2. Store submissions as JSON', 'Submissions are JSON documents.'),
      'doc/adr/0003-deletion-workflow.md': nygard('3. Deletion workflow', 'Drafts are deleted after ninety days.'),
      'doc/adr/0004-retry-registry-errors.md': nygard('3. Deletion workflow', 'Calls to the registry are retried three times on a 4xx answer.'),
      'doc/adr/0005-queue-uploads.md': nygard('ADR-0002 Queue uploads', 'Uploads wait in a queue.'),
    });
    repo.commit('records');
    const f = findings(repo.dir);
    expect(f.map((x) => [x.file, x.line, x.severity])).toEqual([
      ['doc/adr/0004-retry-registry-errors.md', 1, 'warning'],
      ['doc/adr/0005-queue-uploads.md', 1, 'warning'],
    ]);
    expect(f[0]!.message).toBe('the title is numbered 3 and the file 4 (ADR-0003 has this title too): a heading copied from another record? Renumber the title, or give the record its own');
    expect(f[1]!.message).toMatch(/^the title is numbered 2 and the file 5: /);
  });

  it('says nothing where titles are numbered their own way, or not at all; copies among such titles are told', () => {
    const own = makeRepo({
      'doc/adr/0001-a.md': nygard('0. Record decisions', 'We keep records.'),
      'doc/adr/0002-b.md': nygard('1. Use JSON', 'JSON.'),
      'doc/adr/0003-c.md': nygard('2. Use queues', 'Queues.'),
    });
    own.commit('records');
    expect(findings(own.dir)).toEqual([]);
    // most titles differ, but two share a number: copies of the first record's heading
    const copies = makeRepo({
      'doc/adr/0001-record-decisions.md': nygard('1. Record decisions', 'We keep records.'),
      'doc/adr/0002-host-on-paas.md': nygard('1. Record decisions', 'We host on the platform.'),
      'doc/adr/0003-reuse-the-api.md': nygard('1. Record decisions', 'We call the existing API.'),
      'doc/adr/0004-run-an-oidc-server.md': nygard('Run an OIDC server', 'We run our own server.'),
    });
    copies.commit('records');
    expect(findings(copies.dir).map((x) => x.file)).toEqual(['doc/adr/0002-host-on-paas.md', 'doc/adr/0003-reuse-the-api.md']);
    const plain = makeRepo({ 'doc/adr/0001-a.md': nygard('Record decisions', 'We keep records.'), 'doc/adr/0002-b.md': nygard('2FA for admins', 'Admins use two factors.') });
    plain.commit('records');
    expect(findings(plain.dir)).toEqual([]);
  });
});
