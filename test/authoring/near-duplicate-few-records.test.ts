import { describe, expect, it } from 'vitest';
import { adrEntry } from '../helpers/adr.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * A small folder of records about one library (guardian/cdk's shape: seven records on AWS CDK
 * constructs). Too few records for the default embedder to remove their common component, every
 * pair met at a cosine of 0.95 or more, and `check` told the team to supersede one of two
 * different decisions (DEC-134). Written for this test; no text of that repository.
 */
const r = (n: number, slug: string, title: string, context: string, decision: string, consequences: string) => adrEntry('docs/adr', n, slug, title, context, decision, consequences, 2021);
const RECORDS = [
  r(1, 'constructs-and-patterns', 'Constructs and patterns', 'The infrastructure library wraps the cloud provider constructs so that teams get sensible defaults for their stacks, and stacks are assembled by hand from many constructs.', 'The library offers constructs with our defaults (a load balancer, an autoscaling group, an instance role) and, built from them, patterns for the common stack shapes (a web application on instances, a scheduled function). Patterns are the entry point; constructs are for the cases no pattern covers.', 'Teams start from a pattern and reach for constructs only when their stack is unusual.'),
  r(2, 'construct-constructors', 'Construct constructors', 'Constructs of the library took their arguments in different orders and with different names, so the stacks using them read differently from one team to the next.', 'Every construct takes the scope, then an id, then one props object; ids are written in upper camel case; optional props have defaults in the construct, never in the stack.', 'Stacks read alike and props can grow without breaking callers.'),
  r(3, 'package-manager', 'Package manager', 'The library and the stacks that use it installed their dependencies with two different tools, and lockfiles disagreed between machines.', 'The repository installs with one package manager, pinned in its package file, and commits its lockfile; the continuous integration job fails when the lockfile is out of date.', 'Installs are reproducible on every machine and in CI.'),
  r(4, 'testing', 'Testing', 'Changes to constructs broke stacks in ways no test of the library noticed until a deployment failed.', 'Constructs are tested with direct assertions on the template they produce; patterns and whole stacks are tested with snapshots of their synthesised templates, reviewed in pull requests.', 'A change to a construct shows up as a failing assertion or a snapshot diff before it is released.'),
  r(5, 'package-structure', 'Package structure', 'As the library grew, constructs were added wherever their author liked and users could not guess where to import them from.', 'The folders under constructs mirror the cloud provider library names (compute, networking, identity), so the load balancer, the autoscaling group and the instance role constructs each sit in the folder the provider library uses; each folder has an index file exporting its members; nested folders only group implementations of one construct, and patterns have a folder of their own.', 'Users familiar with the provider library can guess where a construct lives.'),
  r(6, 'stage-awareness', 'Stage awareness', 'The same stack is deployed to a test stage and a production stage, and instance sizes and alarm thresholds differ between them.', 'Stacks are synthesised once per stage; stage-specific values are given per stage in the stack definition and never looked up at deploy time.', 'What each stage gets is visible in the synthesised templates.'),
];

describe('near-duplicate decisions in a small folder (DEC-134)', () => {
  it('does not call two different decisions of one small folder nearly the same', () => {
    const repo = makeRepo(Object.fromEntries(RECORDS));
    repo.commit('records');
    const c = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    const findings = (JSON.parse(c.stdout) as { findings: { rule: string; message: string }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate');
    expect(findings.map((f) => f.message)).toEqual([]);
  });

  it('still names a restatement among them, by the words they share', () => {
    const repo = makeRepo(
      Object.fromEntries([
        ...RECORDS,
        r(7, 'tests-of-constructs', 'Tests of constructs and patterns', 'Stacks broke after construct changes that the library tests did not notice.', 'Constructs are tested with direct assertions on the template they produce; patterns and stacks are tested with snapshots of their synthesised templates, reviewed in pull requests.', 'Construct changes show as failing assertions or snapshot diffs.'),
      ]),
    );
    repo.commit('records');
    const c = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    const findings = (JSON.parse(c.stdout) as { findings: { rule: string; message: string }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(/ADR-0004 and ADR-0007|ADR-0007 and ADR-0004/);
  });
});
