import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Finding = { rule: string; severity: string; file: string; message: string };

// eclipse-edc/Connector and SAP/cloud-sdk-js: records mention samples and notes that have since
// moved to other repositories ("we tried it on [the transfer sample](/samples/transfer/README.md)").
// Each dead page failed `check` on a fresh clone as an error, as if a record it relates to were missing.
describe('a dead link in a record\'s prose', () => {
  it('is a warning when it leads outside the records folders, an error when it names a record', () => {
    const rec = (n: number, title: string, body: string) => `# ${n}. ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\nWe do it.\n`;
    const repo = makeRepo({
      'docs/adr/0001-import-batches.md': rec(1, 'Import batches', 'We tried it on [the import sample](/samples/import-demo/README.md) and [the notes](../design/batches.md); [its tests](tests/import/README.md) too.'),
      'docs/adr/0002-batch-size.md': rec(2, 'Batch size', 'See also [the sizing record](0009-sizing.md).'),
    });
    repo.commit('records');
    const r = runCli(['check', '--json'], { cwd: repo.dir });
    const broken = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => f.rule === 'broken-link');
    expect(broken.map((f) => [f.file, f.severity, f.message.split(',')[0]!.replace(/ \(.*$/, '')]).sort()).toEqual([
      ['docs/adr/0001-import-batches.md', 'warning', 'relations.relates_to names docs/design/batches.md'],
      ['docs/adr/0001-import-batches.md', 'warning', 'relations.relates_to names samples/import-demo/README.md'],
      ['docs/adr/0001-import-batches.md', 'warning', 'relations.relates_to names docs/adr/tests/import/README.md'],
      ['docs/adr/0002-batch-size.md', 'error', 'relations.relates_to names docs/adr/0009-sizing.md'],
    ].sort());
    expect(r.code).toBe(1);
    repo.commit('sizing', { 'docs/adr/0002-batch-size.md': rec(2, 'Batch size', 'Sized by load tests.') });
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });
});
