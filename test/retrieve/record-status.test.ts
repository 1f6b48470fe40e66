import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connect } from '../mcp/helpers.js';

const adr = (n: number, title: string, status: string, context: string, decision: string) =>
  [`doc/adr/${String(n).padStart(4, '0')}-${title.toLowerCase().replace(/[^a-z]+/g, '-')}.md`, `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n\n## Consequences\n\nSee the decision.\n`] as const;

/**
 * An adr-tools folder, read without `git ctx init`, with a record of each standing: a proposal
 * the team turned down (rejected), one replaced by a later record (superseded), one the team
 * stopped following (deprecated).
 */
function forecasts() {
  const repo = makeRepo(
    Object.fromEntries([
      adr(1, 'Record architecture decisions', 'Accepted', 'We need to record the architectural decisions made on this project.', 'We will use Architecture Decision Records, as described by Michael Nygard.'),
      adr(2, 'Stream batch forecast responses', 'Rejected', 'The batch forecast endpoints take an array of locations and buffer every forecast before the client sees the first one.', 'Returning an async enumerable would stream each forecast as it is computed. A failure halfway through reaches the client as a bare HTTP 500 without a reason, so the endpoints keep returning the whole buffered response.'),
      adr(3, 'Cache forecasts in process memory', 'Superseded by [4. Cache forecasts in Redis](0004-cache-forecasts-in-redis.md)', 'Forecast providers are slow and rate limited.', 'Forecasts are cached in process memory for ten minutes.'),
      adr(4, 'Cache forecasts in Redis', 'Accepted\n\nSupersedes [3. Cache forecasts in process memory](0003-cache-forecasts-in-process-memory.md)', 'Several instances of the API each kept their own forecast cache.', 'Forecasts are cached in Redis, shared by every instance, for ten minutes.'),
      adr(5, 'Compare screenshots with Percy', 'Deprecated', 'Visual changes to the dashboard slipped through review.', 'Percy takes screenshots of every dashboard page and compares them with the last approved ones.'),
      ['src/BatchController.cs', 'namespace Forecasts;\n\npublic class BatchController\n{\n    // the whole response is buffered: see the rejected streaming proposal\n    public IActionResult BatchForecast(Location[] locations) => Ok(locations);\n}\n'],
    ]),
  );
  repo.commit('forecast api with its decision records');
  return repo;
}

interface Hit {
  id: string;
  status: string | null;
  inactive?: boolean;
  slot: string;
}
const search = (dir: string, q: string, ...extra: string[]) => {
  const r = runCli(['search', q, '--json', ...extra], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { results: Hit[] };
};

describe('a record out of force in retrieval (DEC-076)', () => {
  it('a rejected record answers the question it settled, marked; it names the reasons the proposal was turned down', () => {
    const repo = forecasts();
    const out = search(repo.dir, 'why do the batch forecast endpoints not stream their responses?');
    expect(out.results[0]).toMatchObject({ id: 'ADR-0002', status: 'rejected', inactive: true });
    const human = runCli(['search', 'why do the batch forecast endpoints not stream their responses?'], { cwd: repo.dir });
    expect(human.stdout).toMatch(/ADR-0002\s+decision rejected \(inactive\)\s+Stream batch forecast responses/);
  });

  it('a superseded record is not an answer: the record that replaced it is, by its own words or as its successor', () => {
    const repo = forecasts();
    const ids = search(repo.dir, 'cache forecasts in process memory').results.map((r) => r.id);
    expect(ids).not.toContain('ADR-0003');
    expect(ids).toContain('ADR-0004');
    // with --all it is listed, marked
    const all = search(repo.dir, 'cache forecasts in process memory', '--all').results;
    expect(all.find((r) => r.id === 'ADR-0003')).toMatchObject({ status: 'superseded', inactive: true });
  });

  it('the metadata slot counts a hidden record once, though the band and the links slot both met it', () => {
    const repo = forecasts();
    // ADR-0003 is found by its own words and again through ADR-0004's "supersedes" link;
    // the deprecated ADR-0005 is a weak match: two records hidden, not three meetings
    const r = runCli(['search', 'cache forecasts in process memory', '--json'], { cwd: repo.dir });
    const out = JSON.parse(r.stdout) as { slots: { metadata: { count: number; message?: string } } };
    const all = JSON.parse(runCli(['search', 'cache forecasts in process memory', '--json', '--all'], { cwd: repo.dir }).stdout) as { results: Hit[]; weak: Hit[] };
    const inactive = new Set([...all.results, ...all.weak].filter((h) => h.inactive && h.status !== 'rejected').map((h) => h.id));
    expect([...inactive].sort()).toEqual(['ADR-0003', 'ADR-0005']);
    expect(out.slots.metadata).toMatchObject({ count: 2, message: '2 hidden by filters: inactive records need --all' });
    // the human line reads once, without brackets inside brackets
    const human = runCli(['search', 'cache forecasts in process memory'], { cwd: repo.dir }).stdout;
    expect(human).toContain('metadata: ok (2 hidden by filters: inactive records need --all)');
  });

  it('a deprecated record answers only with --all', () => {
    const repo = forecasts();
    expect(search(repo.dir, 'compare dashboard screenshots with percy').results.map((r) => r.id)).not.toContain('ADR-0005');
    expect(search(repo.dir, 'compare dashboard screenshots with percy', '--all').results[0]).toMatchObject({ id: 'ADR-0005', status: 'deprecated', inactive: true });
  });

  it('for a file, the rejected proposal about it is shown, marked, and MCP search_decisions says so too', async () => {
    const repo = forecasts();
    const r = runCli(['for', 'src/BatchController.cs', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const results = (JSON.parse(r.stdout) as { results: Hit[] }).results;
    expect(results[0]).toMatchObject({ id: 'ADR-0002', status: 'rejected', inactive: true });
    // an agent reading the file is told the record is a proposal turned down, not guidance
    const payload = JSON.stringify({ session_id: 'status', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(repo.dir, 'src/BatchController.cs') }, cwd: repo.dir });
    const hook = runCli(['hook', 'agent-read'], { cwd: repo.dir, input: payload });
    expect(hook.code, hook.stderr).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toMatch(/## ADR-0002 — Stream batch forecast responses \(decision, rejected: a proposal turned down, not a rule to follow; the record says why; related\)/);
    const c = await connect({ cwd: repo.dir });
    try {
      const res = await c.call('search_decisions', { query: 'why do the batch forecast endpoints not stream their responses?' });
      expect(res.isError).toBeFalsy();
      expect((res.data.results as Hit[])[0]).toMatchObject({ id: 'ADR-0002', status: 'rejected', inactive: true });
      expect(res.text).toContain('ADR-0002 — Stream batch forecast responses (decision, rejected: a proposal turned down, not a rule to follow');
    } finally {
      await c.close();
    }
  });

  it('rule files leave a rejected record out: it is not a rule to follow', () => {
    const repo = forecasts();
    const r = runCli(['rules', 'export', '--dry-run', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('ADR-0004');
    expect(r.stdout).not.toContain('ADR-0002');
    expect(r.stdout).not.toContain('ADR-0003');
  });
});
