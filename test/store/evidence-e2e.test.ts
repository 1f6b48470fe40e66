import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { connect, fixtureRepo } from '../mcp/helpers.js';

const env = { GIT_CTX_NO_RECORD: '' };
const json = (s: string) => JSON.parse(s) as Record<string, unknown>;
type Listed = { id: string; caller: { kind: string; command?: string; session?: string }; query: { kind: string; text?: string; place?: string }; commit?: string; dirty?: boolean; evidence_count: number };

describe('evidence store end to end (real processes, real MCP client)', () => {
  it('for, search, trace, a bundle and an agent-read hook each record an episode; episodes lists and shows them', () => {
    const repo = fixtureRepo();
    const head = repo.git('rev-parse', 'HEAD');
    expect(runCli(['for', 'src/billing/invoice.ts'], { cwd: repo.dir, env }).code).toBe(0);
    expect(runCli(['search', 'round', 'invoice', 'totals'], { cwd: repo.dir, env }).code).toBe(0);
    expect(runCli(['trace', 'src/billing/invoice.ts'], { cwd: repo.dir, env }).code).toBe(0);
    expect(runCli(['TASK-042'], { cwd: repo.dir, env }).code).toBe(0);
    const hook = runCli(['hook', 'agent-read'], { cwd: repo.dir, env, input: JSON.stringify({ session_id: 'agent-s1', tool_name: 'Read', tool_input: { file_path: path.join(repo.dir, 'src/billing/invoice.ts') } }) });
    expect(hook.code).toBe(0);
    // not recorded: turned off by the environment
    expect(runCli(['search', 'rounding'], { cwd: repo.dir, env: { GIT_CTX_NO_RECORD: '1' } }).code).toBe(0);

    const r = runCli(['episodes', '--json'], { cwd: repo.dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const list = json(r.stdout).episodes as Listed[];
    expect(list.map((e) => `${e.caller.kind} ${e.caller.command}`)).toEqual(['hook Read', 'cli context', 'cli trace', 'cli search', 'cli for']);
    expect(list.every((e) => e.commit === head)).toBe(true);
    expect(list.find((e) => e.caller.command === 'for')).toMatchObject({ dirty: false, query: { kind: 'place', place: 'src/billing/invoice.ts' } });
    expect(list.find((e) => e.caller.command === 'search')!.query).toEqual({ kind: 'search', text: 'round invoice totals' });
    expect(list.find((e) => e.caller.command === 'context')!.query).toEqual({ kind: 'bundle', text: 'TASK-042' });
    expect(list[0]!.caller.session).toBe('agent-s1');

    const forEp = list.find((e) => e.caller.command === 'for')!;
    const one = json(runCli(['episodes', forEp.id, '--json'], { cwd: repo.dir, env }).stdout) as { evidence: { kind: string; value: string; grounding: string; rank: number; slot?: string }[]; lanes: { name: string; status: string }[] };
    expect(one.evidence[0]).toEqual({ kind: 'artifact', value: 'SPEC-BILLING-001', grounding: 'indexed', rank: 1, slot: 'declared' });
    expect(one.lanes.map((l) => l.name)).toContain('keywords');
    const bundle = json(runCli(['episodes', list.find((e) => e.caller.command === 'context')!.id, '--json'], { cwd: repo.dir, env }).stdout) as { evidence: { kind: string; value: string; grounding: string }[] };
    expect(bundle.evidence.find((x) => x.value === 'TASK-042')).toMatchObject({ kind: 'task', grounding: 'loaded' });

    // filters
    expect((json(runCli(['episodes', '--session', 'agent-s1', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[]).length).toBe(1);
    expect((json(runCli(['episodes', '--place', 'src/billing', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[]).length).toBe(3);
    expect((json(runCli(['episodes', '--since', '1d', '--limit', '2', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[]).length).toBe(2);
    expect((json(runCli(['episodes', '--since', '2000-01-01', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[]).length).toBe(5);
    const human = runCli(['episodes'], { cwd: repo.dir, env });
    expect(human.stdout).toContain('cli search  search "round invoice totals"');
    expect(human.stdout).toContain('5 episodes');
    const bad = runCli(['episodes', '--since', 'yesterday'], { cwd: repo.dir, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "yesterday"');
    const unknown = runCli(['episodes', 'zzzzzzzz'], { cwd: repo.dir, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no episode zzzzzzzz');

    // a dirty work tree is recorded as such
    repo.write({ 'src/billing/invoice.ts': readFileSync(path.join(repo.dir, 'src/billing/invoice.ts'), 'utf8') + '// edit\n' });
    runCli(['for', 'src/billing/invoice.ts'], { cwd: repo.dir, env });
    expect((json(runCli(['episodes', '--limit', '1', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[])[0]!.dirty).toBe(true);
  });

  it('feedback is appended to an episode, an unknown episode exits 2 naming it, and eval replays with it', () => {
    const repo = fixtureRepo();
    runCli(['search', 'round', 'invoice', 'totals'], { cwd: repo.dir, env });
    const ep = (json(runCli(['episodes', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[])[0]!;
    const fb = runCli(['feedback', ep.id.slice(0, 8), '--useful', 'DEC-BILLING-001', '--missing', 'NORM-LOG-001', '--not-useful', 'SPEC-BILLING-001', '--note', 'logs matter'], { cwd: repo.dir, env });
    expect(fb.stderr).toBe('');
    expect(fb.code).toBe(0);
    expect(fb.stdout).toContain(`recorded on episode ${ep.id}: useful DEC-BILLING-001, not-useful SPEC-BILLING-001, missing NORM-LOG-001`);
    const unknown = runCli(['feedback', 'nosuchep', '--useful', 'X'], { cwd: repo.dir, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no episode nosuchep in the evidence store');
    const none = runCli(['feedback', ep.id], { cwd: repo.dir, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('at least one reference');
    const shown = runCli(['episodes', ep.id], { cwd: repo.dir, env });
    expect(shown.stdout).toMatch(/missing NORM-LOG-001 +cli +“logs matter”/);

    const ev = runCli(['eval', '--json'], { cwd: repo.dir, env });
    expect(ev.code).toBe(0);
    const report = json(ev.stdout) as { episodes: { id: string; relevant: string[]; recall: number; recordedRecall: number; precision: number | null }[]; totals: { relevant: number; recall: number } };
    expect(report.episodes).toHaveLength(1);
    expect(report.episodes[0]).toMatchObject({ id: ep.id, relevant: ['DEC-BILLING-001', 'NORM-LOG-001'], recall: 0.5, recordedRecall: 0.5 });
    expect(report.totals.relevant).toBe(2);
    // the engine is judged against real use: a record that now mentions the missing words is found
    repo.commit('logs', {
      '.contextia/system/norms/NORM-LOG-001.md': '---\nid: NORM-LOG-001\ntype: norm\ntitle: Structured logs when rounding invoice totals\nstatus: active\n---\n\n# Structured logs\n\nRound invoice totals and log them.\n',
    });
    const after = json(runCli(['eval', '--json'], { cwd: repo.dir, env }).stdout) as { episodes: { recall: number; gained: string[] }[] };
    expect(after.episodes[0]).toMatchObject({ recall: 1, gained: ['NORM-LOG-001'] });
    const gate = runCli(['eval', '--min-recall', '1'], { cwd: repo.dir, env });
    expect(gate.code).toBe(0);
    expect(gate.stdout).toContain('1 episode replayed, 2 relevant references: recall 100.0% (recorded 50.0%)');
    repo.rm('.contextia/system/norms/NORM-LOG-001.md');
    expect(runCli(['eval', '--min-recall', '0.9'], { cwd: repo.dir, env }).code).toBe(1);
  });

  it('MCP: retrieval tools return an episode id, record caller mcp with the session, and feedback appends', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const a = await c.call('context_for_code', { place: 'src/billing/invoice.ts', session_id: 'claude-1' });
    const b = await c.call('search_decisions', { query: 'rounding' });
    const g = await c.call('get_context', { ids: ['TASK-042'], session_id: 'claude-1' });
    for (const r of [a, b, g]) expect(r.data.episode).toMatch(/^[0-9a-z]{15}$/);
    const fb = await c.call('feedback', { episode: a.data.episode as string, useful: ['DEC-BILLING-001'], missing: ['NORM-LOG-001'], session_id: 'claude-1' });
    expect(fb.isError).toBeFalsy();
    expect(fb.data).toMatchObject({ episode: a.data.episode, recorded: 2, useful: 1, missing: 1 });
    const bad = await c.call('feedback', { episode: 'nosuchep', useful: ['X'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('no episode nosuchep');
    const empty = await c.call('feedback', { episode: a.data.episode as string });
    expect(empty.isError).toBe(true);

    const list = json(runCli(['episodes', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[];
    expect(list.map((e) => `${e.caller.kind} ${e.caller.command} ${e.query.kind}`)).toEqual(['mcp get_context ids', 'mcp search_decisions search', 'mcp context_for_code place']);
    expect(list[2]!.caller.session).toBe('claude-1');
    // a call without session_id is grouped under the server's own session
    expect(list[1]!.caller.session).toMatch(/^server-[0-9a-f]{8}$/);
    const shown = json(runCli(['episodes', a.data.episode as string, '--json'], { cwd: repo.dir, env }).stdout) as { feedback: { verdict: string; ref: string; source: string }[] };
    expect(shown.feedback.map((f) => `${f.verdict} ${f.ref} ${f.source}`)).toEqual(['useful DEC-BILLING-001 mcp:claude-1', 'missing NORM-LOG-001 mcp:claude-1']);
    const gc = json(runCli(['episodes', g.data.episode as string, '--json'], { cwd: repo.dir, env }).stdout) as { evidence: { value: string; grounding: string; slot: string }[] };
    expect(gc.evidence[0]).toMatchObject({ value: 'TASK-042', grounding: 'loaded', slot: 'requested' });
    // each episode names the tool call it answered: the JSON-RPC request id, distinct per call
    const calls = [a, b, g].map((r) => {
      const d = json(runCli(['episodes', r.data.episode as string, '--json'], { cwd: repo.dir, env }).stdout) as { refs: { role: string; kind: string; value: string }[] };
      return d.refs.filter((x) => x.role === 'context' && x.kind === 'tool_call').map((x) => x.value);
    });
    for (const c of calls) expect(c).toHaveLength(1);
    expect(new Set(calls.flat()).size).toBe(3);
  });

  it('store commands exit 2 with a clear message when SQLite cannot load; everything else still works and records', () => {
    const repo = fixtureRepo();
    const broken = { ...env, GIT_CTX_SQLITE_MODULE: 'no-such-sqlite-module' };
    expect(runCli(['for', 'src/billing/invoice.ts'], { cwd: repo.dir, env: broken }).code).toBe(0);
    expect(runCli(['check'], { cwd: repo.dir, env: broken }).code).toBe(0);
    for (const args of [['episodes'], ['feedback', 'abcd1234', '--useful', 'X'], ['eval']]) {
      const r = runCli(args, { cwd: repo.dir, env: broken });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the evidence store needs the SQLite module "no-such-sqlite-module"');
      expect(r.stderr).toContain('hint:');
      expect(r.stderr).not.toMatch(/\bat \S+ \(/);
    }
    // the journal kept the episode: it appears once the module loads
    expect((json(runCli(['episodes', '--json'], { cwd: repo.dir, env }).stdout).episodes as Listed[]).length).toBe(1);
  });
});
