import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, pullRequestRepo, type TestRepo } from '../helpers/git-repo.js';
import { madrRecord, madrRecords, madrTemplate } from '../helpers/madr.js';

// DEC-096 leaves out of the decision-near-duplicate rule the records whose Decision is still
// their folder template's guidance. DEC-100: that template is the one of the tree state judged
// (`check --at`, `--staged`, the pre-commit hook, a pull request's head), not the working tree's.

const DIR = 'docs/decisions';
const TEMPLATE_FILE = `${DIR}/adr-template.md`;
// MADR-shaped, placeholders in braces (test/helpers/madr.ts)
const TEMPLATE = madrTemplate();
// the same template with other guidance under Decision Outcome: records written from the first are no longer "fresh" by it
const EDITED = TEMPLATE.replace('Chosen option: "{title of option 1}", because', 'Chosen option: "{the option}", since');
const RECORDS = { [TEMPLATE_FILE]: TEMPLATE, ...madrRecords(DIR) };
const FRESH = ['Trace requests with OpenTelemetry', 'Sign releases'];

/** The records, then two records fresh from the template (`new`), committed. */
function repo(): TestRepo {
  const r = makeRepo(RECORDS);
  r.commit('records');
  for (const title of FRESH) expect(runCli(['new', 'decision', '--title', title], { cwd: r.dir }).code).toBe(0);
  r.commit('two records fresh from the template');
  return r;
}

const nearDuplicates = (dir: string, ...args: string[]) => {
  const out = runCli(['check', '--format', 'json', '--rule', 'decision-near-duplicate', ...args], { cwd: dir });
  return (JSON.parse(out.stdout) as { findings: { rule: string; message: string }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate').map((f) => f.message);
};
const hookNearDuplicates = (dir: string) => {
  const out = runCli(['hook', 'pre-commit', '--all-rules', '--json'], { cwd: dir });
  return (JSON.parse(out.stdout) as { check: { findings: { rule: string; message: string }[] } }).check.findings.filter((f) => f.rule === 'decision-near-duplicate').map((f) => f.message);
};
const PAIR = [expect.stringMatching(/^ADR-0003 and ADR-0004 are active and nearly the same decision/)];

describe('the template a check judges fresh records by is the judged tree state\'s (DEC-100)', () => {
  it('check --at HEAD: a template edited or deleted in the working tree only does not change the verdict', () => {
    const r = repo();
    expect(nearDuplicates(r.dir, '--at', 'HEAD')).toEqual([]);
    expect(nearDuplicates(r.dir)).toEqual([]);
    // edited in the working tree: the working tree's records are no longer the template's, HEAD's still are
    r.write({ [TEMPLATE_FILE]: EDITED });
    expect(nearDuplicates(r.dir)).toEqual(PAIR);
    expect(nearDuplicates(r.dir, '--at', 'HEAD')).toEqual([]);
    // deleted in the working tree: the same
    r.rm(TEMPLATE_FILE);
    expect(nearDuplicates(r.dir)).toEqual(PAIR);
    expect(nearDuplicates(r.dir, '--at', 'HEAD')).toEqual([]);
    // and the other way round: HEAD without the template judges the pair, whatever the working tree holds
    r.commit('template removed');
    r.write({ [TEMPLATE_FILE]: TEMPLATE });
    expect(nearDuplicates(r.dir)).toEqual([]);
    expect(nearDuplicates(r.dir, '--at', 'HEAD')).toEqual(PAIR);
    expect(nearDuplicates(r.dir, '--at', 'HEAD~1')).toEqual([]);
  });

  it('--staged and the pre-commit hook judge the index\'s template, not the working tree\'s', () => {
    const r = repo();
    // staged: the edited template; working tree: the committed one
    r.write({ [TEMPLATE_FILE]: EDITED });
    r.git('add', TEMPLATE_FILE);
    r.write({ [TEMPLATE_FILE]: TEMPLATE });
    expect(nearDuplicates(r.dir)).toEqual([]);
    expect(nearDuplicates(r.dir, '--staged')).toEqual(PAIR);
    expect(hookNearDuplicates(r.dir)).toEqual(PAIR);
    // staged: the committed template; working tree: deleted
    r.git('reset', '-q', '--', TEMPLATE_FILE);
    r.rm(TEMPLATE_FILE);
    expect(nearDuplicates(r.dir)).toEqual(PAIR);
    expect(nearDuplicates(r.dir, '--staged')).toEqual([]);
    expect(hookNearDuplicates(r.dir)).toEqual([]);
  });

  it('working tree equal to HEAD: every view gives the verdict it gave before', () => {
    const r = repo();
    for (const args of [[], ['--at', 'HEAD'], ['--staged']]) expect(nearDuplicates(r.dir, ...args)).toEqual([]);
    expect(hookNearDuplicates(r.dir)).toEqual([]);
    // a restatement is still one, in every view
    r.commit('a restatement', { [`${DIR}/0005-keep-user-sessions-in-redis.md`]: madrRecord(5, 'Keep user sessions in Redis', 'Deploys logged users out.', '"Redis", user sessions live in Redis with a thirty-minute sliding expiry instead of process memory.') });
    const restated = [expect.stringMatching(/^ADR-0002 and ADR-0005 are active and nearly the same decision/)];
    for (const args of [[], ['--at', 'HEAD'], ['--staged']]) expect(nearDuplicates(r.dir, ...args)).toEqual(restated);
    expect(hookNearDuplicates(r.dir)).toEqual(restated);
  });

  it('a pull request: the head\'s template, whatever the working tree holds', async () => {
    const { repo: r } = pullRequestRepo({
      files: RECORDS,
      change: (repo) => {
        for (const title of FRESH) expect(runCli(['new', 'decision', '--title', title], { cwd: repo.dir }).code).toBe(0);
      },
    });
    const analyze = async () => {
      const a = await analyzePullRequest({ cwd: r.dir, base: 'main', head: 'feature', cache: false });
      return { similar: a.similarDecisions ?? [], introduced: a.coherence.introduced.filter((f) => f.rule === 'decision-near-duplicate') };
    };
    const clean = await analyze();
    expect(clean).toEqual({ similar: [], introduced: [] });
    r.write({ [TEMPLATE_FILE]: EDITED });
    expect(await analyze()).toEqual(clean);
    r.rm(TEMPLATE_FILE);
    expect(await analyze()).toEqual(clean);
    // checked out elsewhere (the base), the working tree's template is the base's: still the head's verdict
    r.git('checkout', '-q', '--', '.');
    r.git('checkout', '-q', 'main');
    r.write({ [TEMPLATE_FILE]: EDITED });
    expect(await analyze()).toEqual(clean);
  });
});

describe('add judges drafts by the working tree\'s template (DEC-100)', () => {
  it('a template only in the working tree (untracked) still keeps fresh records from being restatements', () => {
    const r = repo();
    r.git('rm', '-q', '--cached', TEMPLATE_FILE);
    r.git('commit', '-q', '-m', 'template untracked');
    expect(r.git('status', '--porcelain')).toBe(`?? ${TEMPLATE_FILE}`);
    // a draft saying what the template's Decision Outcome guidance says
    const draft = ['add', '--dry-run', '--format', 'json', '-t', 'Choose the first option', '-d', 'Chosen option: "{title of option 1}", because {justification: the only option meeting a driver, or the one that comes out best}.'];
    const similar = () => (JSON.parse(runCli(draft, { cwd: r.dir }).stdout) as { similar: { id: string }[] }).similar.map((s) => s.id);
    expect(similar()).toEqual([]);
    expect(nearDuplicates(r.dir)).toEqual([]);
    expect(nearDuplicates(r.dir, '--at', 'HEAD')).toEqual(PAIR);
    r.rm(TEMPLATE_FILE);
    expect(similar()).not.toEqual([]);
  });
});
