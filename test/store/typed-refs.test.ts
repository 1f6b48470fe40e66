import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { IMPACT_FILES } from '../impact/fixture.js';
import { openStore } from '../../src/store/store.js';

const env = { GIT_CTX_NO_RECORD: '' };
type Ref = { role: string; kind: string; value: string; grounding: string; rank: number; of?: string };
type Shown = { evidence: { kind: string; value: string; rank: number }[]; refs: Ref[] };
const lastEpisode = (dir: string) => (JSON.parse(runCli(['episodes', '--limit', '1', '--json'], { cwd: dir, env }).stdout) as { episodes: { id: string }[] }).episodes[0]!.id;
const show = (dir: string, id: string) => JSON.parse(runCli(['episodes', id, '--json'], { cwd: dir, env }).stdout) as Shown;

describe('typed evidence references beyond artifacts and tasks', () => {
  it('for a symbol: the place asked (path and symbol), the graph code a record was found through, commit; the hook adds session and tool_call', () => {
    const r = makeRepo(IMPACT_FILES);
    const head = r.commit('fixture');
    const out = runCli(['for', 'src/api/handler.ts#handle', '--json'], { cwd: r.dir, env });
    expect(out.code).toBe(0);
    const answer = JSON.parse(out.stdout) as { results: { id: string; why: { kind: string; path?: string[] }[] }[] };
    // DEC-ROUND is declared on invoice.ts#total, which handle() calls
    const round = answer.results.findIndex((x) => x.id === 'DEC-ROUND');
    expect(round).toBeGreaterThanOrEqual(0);
    const graph = answer.results[round]!.why.find((w) => w.kind === 'graph')!;
    expect(graph.path).toContain('src/billing/invoice.ts#total');

    const ep = show(r.dir, lastEpisode(r.dir));
    expect(ep.refs.filter((x) => x.role === 'query')).toEqual([
      { role: 'query', kind: 'path', value: 'src/api/handler.ts', grounding: 'loaded', rank: 0 },
      { role: 'query', kind: 'symbol', value: 'src/api/handler.ts#handle', grounding: 'loaded', rank: 0 },
    ]);
    expect(ep.refs).toContainEqual({ role: 'via', kind: 'symbol', value: 'src/billing/invoice.ts#total', grounding: 'inferred', rank: round + 1, of: 'DEC-ROUND' });
    expect(ep.refs.filter((x) => x.role === 'context')).toEqual([{ role: 'context', kind: 'commit', value: head, grounding: 'validated', rank: 0 }]);
    // the answer itself is unchanged: artifacts in rank order
    expect(ep.evidence.map((e) => e.rank)).toEqual(ep.evidence.map((_, i) => i + 1));
    const human = runCli(['episodes', lastEpisode(r.dir)], { cwd: r.dir, env }).stdout;
    expect(human).toContain('asked:    path src/api/handler.ts [loaded], symbol src/api/handler.ts#handle [loaded]');
    expect(human).toMatch(/found via:\n\s+\d+\. DEC-ROUND through symbol src\/billing\/invoice\.ts#total +\[inferred\]/);
    expect(human).toContain(`context:  commit ${head} [validated]`);

    const hook = runCli(['hook', 'agent-read'], { cwd: r.dir, env, input: JSON.stringify({ session_id: 'agent-7', tool_use_id: 'toolu_01ABC', tool_name: 'Read', tool_input: { file_path: path.join(r.dir, 'src/billing/invoice.ts') } }) });
    expect(hook.code).toBe(0);
    const h = show(r.dir, lastEpisode(r.dir));
    expect(h.refs.filter((x) => x.role === 'context').map((x) => `${x.kind} ${x.value} ${x.grounding}`)).toEqual(['tool_call toolu_01ABC loaded', `commit ${head} validated`, 'session agent-7 loaded']);
    expect(h.refs[0]).toEqual({ role: 'query', kind: 'path', value: 'src/billing/invoice.ts', grounding: 'loaded', rank: 0 });
  });

  it('through the API: refs survive the journal and the database; a line at line N records the symbol found there as indexed', () => {
    const r = makeRepo(IMPACT_FILES);
    r.commit('fixture');
    expect(runCli(['for', 'src/billing/invoice.ts:5'], { cwd: r.dir, env }).code).toBe(0);
    const store = openStore(r.dir);
    try {
      const id = store.listEpisodes({ limit: 1 })[0]!.id;
      const ep = store.getEpisode(id)!;
      expect(ep.query).toEqual({ kind: 'place', text: 'src/billing/invoice.ts:5', place: 'src/billing/invoice.ts' });
      expect(ep.refs.filter((x) => x.role === 'query').map((x) => `${x.kind} ${x.value} ${x.grounding}`)).toEqual(['path src/billing/invoice.ts loaded', 'symbol src/billing/invoice.ts#total indexed']);
    } finally {
      store.close();
    }
  });
});
