import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { pullRequestRepo } from '../helpers/git-repo.js';
import { useFakeGitHub } from './run-action.js';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/authoring-similar/repo');
const RATIONALE = '.contextia/system/rationale';
const dec = (id: string, title: string, decision: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n# ${title}\n\n## Decision\n\n${decision}\n`;
// DEC-011 restates DEC-001 (idempotency keys in Redis); DEC-012 is about something else
const DUP = dec('DEC-011', 'Deduplicate payment requests with Redis keys', 'Each payment request carries an idempotency key; keys and responses are kept in Redis for a day so a repeat never charges twice.');
const OTHER = dec('DEC-012', 'GraphQL for the merchant API', 'The public merchant API is served over GraphQL.');

const scenario = () => pullRequestRepo({ fixture: FIX, change: { [`${RATIONALE}/DEC-011.md`]: DUP, [`${RATIONALE}/DEC-012.md`]: OTHER } });

const github = useFakeGitHub();

describe('PR bot: a decision added that resembles an active one', () => {
  it('analysis lists the added decision with the similar ids and scores; the comment has one line for it', async () => {
    const s = scenario();
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'feature', cache: false });
    expect(r.similarDecisions).toHaveLength(1);
    expect(r.similarDecisions![0]).toMatchObject({ id: 'DEC-011', file: `${RATIONALE}/DEC-011.md`, similar: [{ id: 'DEC-001', title: 'Idempotency keys in Redis' }] });
    expect(r.similarDecisions![0]!.similar[0]!.similarity).toBeGreaterThanOrEqual(0.75);
    const md = renderPrComment(r);
    // said on the added record's own line under "Records this PR changes", not in a section of its own (DEC-084)
    expect(md).toMatch(/- Adds decision \*\*DEC\\-011\*\*[^\n]*\n {2}- ⚠️ it resembles \*\*DEC\\-001\*\* Idempotency keys in Redis \((0\.\d\d|1\.00)\): supersede, merge or link them if both stand\.\n/);
    expect(md).not.toContain('#### Resembles an active decision');
    // the check rule reports the same pair as a finding introduced by the PR
    expect(r.coherence.introduced.map((f) => f.rule)).toContain('decision-near-duplicate');
  });

  it('the Action posts the line in its comment (committed bundle, fake GitHub)', async () => {
    const s = scenario();
    const r = await github.pr(s.repo.dir, { number: 9, base: s.base, head: s.head }, { inputs: { 'fail-on': 'never' } });
    expect(r.code, r.stderr).toBe(0);
    const body = github.comment(9)!;
    // the line's place is asserted on the renderer above; the posted comment carries the resemblance of DEC-011 only
    expect(body).toMatch(/\*\*DEC\\-011\*\*[^\n]*\n?[^\n]*resembles \*\*DEC\\-001\*\* Idempotency keys in Redis \(\d\.\d\d\)/);
    expect(body).not.toMatch(/DEC\\-012\*\*[^\n]*\n?[^\n]*resembles/);
  });

  it('says nothing when the added decision resembles no active one', async () => {
    const { repo } = pullRequestRepo({ fixture: FIX, change: { [`${RATIONALE}/DEC-012.md`]: OTHER } });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.similarDecisions).toBeUndefined();
    expect(renderPrComment(r)).not.toContain('it resembles');
  });
});
