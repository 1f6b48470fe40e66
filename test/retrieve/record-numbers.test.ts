import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * A record's number names it; it is no word of what it decides (DEC-142). Shaped like an
 * adr-tools folder whose eleventh record decides how webhooks are matched, beside code that
 * writes `11` as a version; the wording is ours.
 */
const adr = (n: number, title: string, decision: string) => `# ${n}. ${title}\n\nDate: 2026-02-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe needed a rule.\n\n## Decision\n\n${decision}\n`;

function fixture() {
  const files: Record<string, string> = {};
  for (let n = 1; n <= 12; n++) files[`docs/adr/${String(n).padStart(4, '0')}-record-${n}.md`] = adr(n, `Record ${['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'][n - 1]}`, `Decision number ${n} about topic ${n}.`);
  files['docs/adr/0011-record-11.md'] = adr(11, 'Match incoming webhooks by their event reference', 'Incoming webhooks are matched to payments by the event reference they carry, never by the amount.');
  files['docs/adr/0001-record-1.md'] = adr(1, 'Record architecture decisions', 'We keep decision records as described in the 2011/11/15 article on documenting architecture decisions.');
  files['src/runtime.ts'] = "// the runtime the service is built for\nexport const NODE_MAJOR = 11;\nexport const RUNTIME = 'node' + NODE_MAJOR;\nexport const retries = [11, 11, 11];\n";
  const repo = makeRepo(files);
  repo.commit('records');
  return repo;
}

const ids = (dir: string, args: string[]) => {
  const out = runCli([...args, '--json', '--all'], { cwd: dir });
  expect(out.code).toBe(0);
  const j = JSON.parse(out.stdout) as { results: { id: string; why: { terms?: string[] }[] }[]; weak?: { id: string; why: { terms?: string[] }[] }[] };
  return j;
};

describe('record numbers (DEC-142)', () => {
  it('are no word a change shares with a record: a release numbered 11 meets ADR-0011 by its words, not its number', () => {
    const repo = fixture();
    repo.write({
      'docs/adr/0011-record-11.md': adr(11, 'Release versions follow semantic versioning', 'Every release bumps the package version by semantic versioning, and the changelog names the version released.'),
      'src/version.ts': "// the release version of the service\nexport const VERSION = '10.0.0';\n",
    });
    repo.commit('release record');
    repo.write({ 'src/version.ts': "// the release version of the service\nexport const VERSION = '11.0.0';\n" });
    repo.commit('Release version 11');
    const out = runCli(['for', '--diff', 'HEAD~1..HEAD'], { cwd: repo.dir });
    expect(out.code).toBe(0);
    // before DEC-142: "shares the words versions, release, 11 with this change" (the heading's "# 11.")
    expect(out.stdout).toMatch(/ADR-0011 .*\n\s+shares the words versions, release with this change/);
  });

  it('name the record when a person looks it up: "ADR 11", "ADR-0011" and "adr 0011" find ADR-0011 first', () => {
    const repo = fixture();
    for (const q of ['ADR 11', 'ADR-0011', 'adr 0011']) expect([q, ids(repo.dir, ['search', q]).results[0]?.id]).toEqual([q, 'ADR-0011']);
  });
});
