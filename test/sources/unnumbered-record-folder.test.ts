import { describe, expect, it } from 'vitest';
import { detectRecordFolders } from '../../src/artifacts/sources/detect.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * trials28, SAP/jenkins-library: beside the log4brains folder, a second records folder
 * `documentation/architecture/decisions/` holds one unnumbered record (`deployToRegistry.md`
 * here, `## Status` Accepted) and a README. It was not found: numbered or dated files were
 * required, so `for` on the step's code said "nothing here governs this". A folder whose name
 * can only mean decision records is read with unnumbered records too; a bare `decisions`
 * folder of unnumbered pages is not claimed.
 */
const RECORD = '# Artifact Upload to the Registry\n\n## Status\n\nAccepted\n\n## Context\n\nThe upload step pushes build artifacts to the company registry.\n\n## Decision\n\nUpload with the registry client library, one request per artifact.\n';

describe('a records folder of unnumbered records', () => {
  it('detectRecordFolders: architecture/decisions, adr and *decision-records are sources with unnumbered records; a bare decisions folder is not', () => {
    const files = [
      'documentation/adr/20221004-use-log4brains.md',
      'documentation/architecture/decisions/README.md',
      'documentation/architecture/decisions/deployToRegistry.md',
      'services/billing/adr/use-ledger.md',
      'handbook/decision-records/meeting-cadence.md',
      'product/decisions/pricing-notes.md',
      'docs/adr/README.md',
    ];
    const found = detectRecordFolders(files, [{ dir: 'documentation/adr', from: '.log4brains.yml' }]);
    expect(found.map((s) => [s.dir, s.records, !!s.unnumbered])).toEqual([
      ['documentation/adr', 1, false],
      ['documentation/architecture/decisions', 1, true],
      ['handbook/decision-records', 1, true],
      ['services/billing/adr', 1, true],
    ]);
  });

  it('zero-config and init read the folder; for names its record on the code it governs', () => {
    const repo = makeRepo({
      '.log4brains.yml': 'project:\n  name: Steps\n  tz: UTC\n  adrFolder: ./documentation/adr\n  packages: []\n',
      'documentation/adr/20221004-use-log4brains.md': '# Use Log4brains to manage the ADRs\n\n- Status: accepted\n- Date: 2022-10-04\n\n## Context and Problem Statement\n\nWhich tool keeps our records?\n\n## Decision Outcome\n\nChosen option: "Log4brains".\n',
      'documentation/architecture/decisions/README.md': '# Decisions\n\nRecords of the step library.\n',
      'documentation/architecture/decisions/deployToRegistry.md': RECORD,
      'cmd/registryUpload.go': 'package cmd\n\n// registryUpload uploads build artifacts to the registry.\nfunc registryUpload(artifacts []string) error {\n\treturn nil\n}\n',
    });
    repo.commit('records');
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.stdout).toContain('Artifact Upload to the Registry');
    expect(list.stderr).toContain('documentation/architecture/decisions/');
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/documentation\/architecture\/decisions\/ {2}1 record, ids [A-Z-]+<name>/);
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code).toBe(0);
    const forCode = runCli(['for', 'cmd/registryUpload.go'], { cwd: repo.dir });
    expect(forCode.stdout).toContain('Artifact Upload to the Registry');
  });
});
