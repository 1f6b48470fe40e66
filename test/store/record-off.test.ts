import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeGitHub } from '../action/run-action.js';
import { runCli } from '../helpers/cli.js';
import { governanceScenario } from '../pr/scenario.js';

const on = { GIT_CTX_NO_RECORD: '' };
const journal = (dir: string) => path.join(dir, '.git/ctx/evidence/journal.jsonl');
const recorded = (dir: string) => (existsSync(journal(dir)) ? readFileSync(journal(dir), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { caller: { kind: string; command?: string }; query: { kind: string }; refs?: { role: string; kind: string; value: string }[] }) : []);
/** A commit on the PR head that turns recording off in the committed configuration. */
const recordOff = (s: Awaited<ReturnType<typeof governanceScenario>>) => {
  const cfg = path.join(s.repo.dir, '.contextia/config.yaml');
  const text = existsSync(cfg) ? readFileSync(cfg, 'utf8') : '';
  return s.repo.commit('no recording', { '.contextia/config.yaml': `${text}${text.endsWith('\n') || !text ? '' : '\n'}record: false\n` });
};

const github = useFakeGitHub();

describe('record: false and GIT_CTX_NO_RECORD in git ctx pr and the GitHub Action', () => {
  it('git ctx pr records an episode by default, none with GIT_CTX_NO_RECORD=1, none with record: false committed at head', async () => {
    const s = await governanceScenario();
    expect(runCli(['pr', '--base', s.base, '--head', s.head, '--fail-on', 'never'], { cwd: s.repo.dir, env: { GIT_CTX_NO_RECORD: '1' } }).code).toBe(0);
    expect(recorded(s.repo.dir)).toEqual([]);
    expect(runCli(['pr', '--base', s.base, '--head', s.head, '--fail-on', 'never'], { cwd: s.repo.dir, env: on }).code).toBe(0);
    expect(recorded(s.repo.dir).map((e) => `${e.caller.kind} ${e.caller.command} ${e.query.kind}`)).toEqual(['cli pr pr']);
    const head = recordOff(s);
    const r = runCli(['pr', '--base', s.base, '--head', head, '--fail-on', 'never'], { cwd: s.repo.dir, env: on });
    expect(r.code).toBe(0);
    expect(recorded(s.repo.dir)).toHaveLength(1);
  });

  it('the Action records caller action by default, and nothing with record: false committed or GIT_CTX_NO_RECORD=1', async () => {
    const s = await governanceScenario();
    const run = (head: string, env: NodeJS.ProcessEnv) => github.pr(s.repo.dir, { number: 7, base: s.base, head }, { inputs: { 'fail-on': 'never' }, env });
    expect((await run(s.head, { GIT_CTX_NO_RECORD: '1' })).code).toBe(0);
    expect(recorded(s.repo.dir)).toEqual([]);
    expect((await run(s.head, {})).code).toBe(0);
    expect(recorded(s.repo.dir).map((e) => `${e.caller.kind} ${e.query.kind}`)).toEqual(['action pr']);
    // the workflow run that analysed it, as a context reference
    expect(recorded(s.repo.dir)[0]!.refs).toEqual([{ role: 'context', kind: 'run', value: '4242', grounding: 'loaded', rank: 0 }]);
    const head = recordOff(s);
    expect((await run(head, {})).code).toBe(0);
    expect(recorded(s.repo.dir)).toHaveLength(1);
  });
});
