import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { madrRecord, madrRecords, madrTemplate } from '../helpers/madr.js';

// DEC-093 keeps the template's guidance in the parts `new` and `add` were not given, as adr-tools
// does; DEC-096: the output names those sections (one line; `guidance` in JSON), and check does
// not read two records still holding the template's Decision guidance as the same decision.

// MADR-shaped, its optional parts marked by comments (test/helpers/madr.ts)
const TEMPLATE = madrTemplate({ optional: true });

function repo() {
  const r = makeRepo({
    'docs/decisions/adr-template.md': TEMPLATE,
    ...madrRecords('docs/decisions'),
  });
  r.commit('records');
  return r;
}

const nearDuplicates = (dir: string) =>
  (JSON.parse(runCli(['check', '--format', 'json'], { cwd: dir }).stdout) as { findings: { rule: string; message: string }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate').map((f) => f.message);

describe('sections still holding the template guidance', () => {
  it('new and add name them, in words and in JSON', () => {
    const r = repo();
    const dry = runCli(['new', 'decision', '--title', 'Trace requests with OpenTelemetry', '--dry-run', '--json'], { cwd: r.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as { guidance: string[] }).guidance).toEqual(['Context and Problem Statement', 'Considered Options', 'Decision Outcome', 'Positive Consequences', 'More Information']);
    const made = runCli(['new', 'decision', '--title', 'Trace requests with OpenTelemetry'], { cwd: r.dir });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain("to write: Context and Problem Statement, Considered Options, Decision Outcome, Positive Consequences, More Information (the template's guidance is still there)\n");

    // add wrote the context and the outcome (the outcome's guidance subsections go with it)
    const add = runCli(['add', '-d', 'Log one JSON object per line with the request id', '-r', 'Logs must be searchable across services', '--format', 'json'], { cwd: r.dir });
    expect(add.code, add.stderr).toBe(0);
    expect((JSON.parse(add.stdout) as { guidance: string[] }).guidance).toEqual(['Considered Options', 'More Information']);
    const human = runCli(['add', '-d', 'Deploy each service with its own Helm chart', '-r', 'Teams release on their own'], { cwd: r.dir });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toContain("to write: Considered Options, More Information (the template's guidance is still there)\n");
  });

  it('a folder without a template: no note', () => {
    const r = makeRepo({ 'docs/decisions/0001-use-markdown-records.md': madrRecord(1, 'Use Markdown records', 'Why.', '"MADR".') });
    r.commit('records');
    const made = runCli(['new', 'decision', '--title', 'Use Gradle', '--json'], { cwd: r.dir });
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).not.toHaveProperty('guidance');
    expect(runCli(['new', 'decision', '--title', 'Use Kotlin'], { cwd: r.dir }).stderr).not.toContain('to write:');
  });

  it('check: records still holding the template decision are not near-duplicates; a restatement still is', () => {
    const r = repo();
    for (const title of ['Trace requests with OpenTelemetry', 'Sign releases']) expect(runCli(['new', 'decision', '--title', title], { cwd: r.dir }).code).toBe(0);
    expect(runCli(['add', '-d', 'Log one JSON object per line with the request id', '-r', 'Logs must be searchable'], { cwd: r.dir }).code).toBe(0);
    r.commit('new records');
    expect(nearDuplicates(r.dir)).toEqual([]);
    r.commit('a restatement', { 'docs/decisions/0006-keep-user-sessions-in-redis.md': madrRecord(6, 'Keep user sessions in Redis', 'Deploys logged users out.', '"Redis", user sessions live in Redis with a thirty-minute sliding expiry instead of process memory.') });
    expect(nearDuplicates(r.dir)).toEqual([expect.stringMatching(/^ADR-0002 and ADR-0006 are active and nearly the same decision/)]);
  });
});
