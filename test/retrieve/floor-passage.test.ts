import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForText } from '../../src/retrieve/engine.js';
import { PASSAGE_SHARE, passagesOf, RELEVANCE_FLOOR, SHORT_QUESTION_TERMS, textEvidence } from '../../src/retrieve/floor.js';
import { queryOf } from '../../src/retrieve/bm25.js';
import { surfaceForms, terms } from '../../src/retrieve/text.js';
import { semanticLaneFor } from '../../src/semantic/lane.js';
import { runCli } from '../helpers/cli.js';
import { adrEntry } from '../helpers/adr.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connect } from '../mcp/helpers.js';
import { CACHE_REL } from '../helpers/cache.js';


/**
 * A service that keeps Git repositories for its clients, as the git-en-boite development set
 * has one: its records speak of the REST API, versions of tools, fetches and clients in
 * different paragraphs, so a near-domain question no record decides ("How do we version the
 * REST API?") meets a record in words it says apart.
 */
function gitService() {
  const r = (n: number, slug: string, title: string, context: string, decision: string, consequences: string) => adrEntry('doc/adr', n, slug, title, context, decision, consequences, 2020);
  const repo = makeRepo(
    Object.fromEntries([
      ['.contextia/config.yaml', 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n'],
      r(1, 'record-architecture-decisions', 'Record architecture decisions', 'We need to record the architectural decisions made on this service.', 'We will use Architecture Decision Records, as described by Michael Nygard.', 'Developers can read why the service is built the way it is.'),
      r(2, 'git-in-the-container', 'Pin git in the container', 'Clients reach the service through its REST API, and every request ends in a git command run on the server.', 'The Docker image installs one pinned version of git, the same on every machine, and the specs run that binary.', 'Upgrading git means building a new image.'),
      r(3, 'background-fetches', 'Fetch in the background', 'A fetch from a large remote took minutes and held a web request open.', 'Fetches run as jobs on a queue in a separate worker process; the web server only enqueues them.', 'A client polls for the result of its fetch.'),
      r(4, 'bare-repositories', 'Keep bare repositories', 'A working copy on disk doubled the space each connected repository took.', 'Each connected repository is kept as a bare git repository; files are read from its objects.', 'Nothing on the server can edit files in place.'),
      r(6, 'connecting-remotes', 'Connecting hosted repositories', 'Teams connect a repository kept on a remote such as GitHub.\n\nSome hosts hand out tokens that expire.', 'The service clones the repository once and keeps it up to date.', 'Clients see the repository after its first clone.'),
      r(5, 'value-objects', 'Value objects in the core', 'Plain strings for ids, branch names and emails were passed in the wrong order.', 'The core domain wraps every identifier in a small value object of its own.', 'Adding a field means adding a type.'),
      ['src/fetch.ts', '// enqueues a fetch of a connected repository on the worker queue\nexport function fetchRepo(id: string): void {\n  void id;\n}\n'],
    ]),
  );
  repo.commit('git service');
  return repo;
}

/** Short questions no record decides whose words a record says in different paragraphs. */
const SCATTERED = ['How do we rotate and revoke tokens of remote clients?', 'How do we rotate and revoke tokens of remote API clients?'];
/** Short questions a record decides, its words together in one of its paragraphs, with that record. */
const TOGETHER: [string, string][] = [
  ['Which git version does the Docker image pin?', 'ADR-0002'],
  ['Where do fetch jobs run?', 'ADR-0003'],
  ['Why wrap identifiers in value objects?', 'ADR-0005'],
];

describe('a short question is answered by a record that says its words together (DEC-092, issue 30 item 3)', () => {
  it('a passage is the head or one paragraph, read with the index tokeniser', () => {
    const p = passagesOf('Pin git\nADR-0002', 'Clients reach the REST API.\n\nThe image pins one version of git.\n  \nUpgrading means a new image.', terms);
    expect(p).toHaveLength(4);
    expect([...p[0]!]).toEqual(expect.arrayContaining(['pin', 'git']));
    expect(p[1]!.has('api') && p[1]!.has('rest') && !p[1]!.has('version')).toBe(true);
    expect(p[2]!.has('version') && p[2]!.has('git')).toBe(true);
    expect(passagesOf('', '\n\n', terms)).toEqual([]);
  });

  it('a hit whose best passage holds under PASSAGE_SHARE of a short question is no evidence; together, or in a longer question, it counts as before', () => {
    const q = 'How do we version the partner REST API?';
    const t = queryOf(q);
    expect(t.size).toBeLessThanOrEqual(SHORT_QUESTION_TERMS);
    const matched = [...t.keys()];
    const apart = [new Set([matched[0]!]), new Set(matched.slice(1))];
    const together = [new Set(matched)];
    const ev = (text: string, passages?: Set<string>[], unused = true) =>
      textEvidence({ terms: queryOf(text), forms: surfaceForms(text), unused, ...(passages ? { passages: () => passages } : {}) }, [{ id: 'A', matched: [...queryOf(text).keys()].filter((k) => matched.includes(k)) }]).get('A')!;
    // no English table: every word weighs 1; a passage holds a quarter, a half or all of the question
    expect(matched).toHaveLength(4);
    const whole = ev(q);
    expect(whole).toBeGreaterThan(RELEVANCE_FLOOR);
    expect(ev(q, together)).toBeCloseTo(whole, 9);
    expect(ev(q, apart)).toBeCloseTo(whole, 9);
    expect(ev(q, [new Set(matched.slice(0, 2)), new Set(matched.slice(2))])).toBeCloseTo(whole, 9);
    expect(1 / 4).toBeLessThan(PASSAGE_SHARE);
    expect(ev(q, matched.map((m) => new Set([m])))).toBe(0);
    // one telling word met is the one-word rule's to judge (ONE_WORD_SHARE), not the passages'
    const oneWord = textEvidence({ terms: t, forms: surfaceForms(q), unused: true, passages: () => [new Set([matched[0]!])] }, [{ id: 'A', matched: [matched[0]!] }]).get('A')!;
    expect(oneWord).toBeGreaterThan(0);
    expect(oneWord).toBeCloseTo(textEvidence({ terms: t, forms: surfaceForms(q), unused: true }, [{ id: 'A', matched: [matched[0]!] }]).get('A')!, 9);
    // places (not questions) and questions longer than SHORT_QUESTION_TERMS are read whole
    expect(ev(q, matched.map((m) => new Set([m])), false)).toBeCloseTo(ev(q, undefined, false), 9);
    const long = 'How do we version the REST API of the git service for every client?';
    expect(queryOf(long).size).toBeGreaterThan(SHORT_QUESTION_TERMS);
    const one = [...queryOf(long).keys()].map((k) => new Set([k]));
    expect(ev(long, one)).toBeCloseTo(ev(long), 9);
  });

  it('answers nothing to a short question met in scattered words, and the deciding record when they are together', async () => {
    const repo = gitService();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const semantic = semanticLaneFor(snapshot.root, set, {});
      for (const q of SCATTERED) {
        const r = await retrieveForText({ snapshot, set, semantic, text: q, staleness: false });
        expect({ q, results: r.results.map((x) => x.id) }).toEqual({ q, results: [] });
        expect(r.weak?.length).toBeGreaterThan(0);
        for (const w of r.weak ?? []) expect(w.relevance).toBeLessThan(RELEVANCE_FLOOR);
      }
      for (const [q, id] of TOGETHER) {
        const r = await retrieveForText({ snapshot, set, semantic, text: q, staleness: false });
        expect({ q, first: r.results[0]?.id }).toEqual({ q, first: id });
        expect(r.results[0]!.relevance).toBeGreaterThanOrEqual(RELEVANCE_FLOOR);
      }
    } finally {
      snapshot.close();
    }
  });

  it('the CLI JSON and MCP search say the same; the passages are kept by the set and read back alike', async () => {
    const repo = gitService();
    const json = JSON.parse(runCli(['search', SCATTERED[0]!, '--json'], { cwd: repo.dir }).stdout);
    expect(json.results).toEqual([]);
    expect(json.weak.length).toBeGreaterThan(0);
    // kept in their cache kind (src/cache/kinds.ts), and the answer from the kept passages is the fresh one
    const kept = path.join(repo.dir, `${CACHE_REL}/retrieve-passages.json`);
    expect(existsSync(kept)).toBe(true);
    expect(JSON.parse(runCli(['search', 'Which', 'git', 'version', 'does', 'the', 'Docker', 'image', 'pin', 'now?', '--json'], { cwd: repo.dir }).stdout).results[0]).toMatchObject({ id: 'ADR-0002' });
    rmSync(kept);
    expect(JSON.parse(runCli(['search', SCATTERED[0]!, '--json', '--all'], { cwd: repo.dir }).stdout).results).toEqual([]);
    expect(existsSync(kept)).toBe(true);
    const on = JSON.parse(runCli(['search', TOGETHER[0]![0], '--json'], { cwd: repo.dir }).stdout);
    expect(on.results[0]).toMatchObject({ id: 'ADR-0002', slot: 'fused' });
    const c = await connect({ cwd: repo.dir });
    const s = await c.call('search_decisions', { query: SCATTERED[0]! });
    expect(s.isError).toBeFalsy();
    expect(s.data.results).toEqual([]);
    expect(s.text).toContain("Nothing in this repository's records governs this");
    const m = await c.call('search_decisions', { query: TOGETHER[1]![0] });
    expect((m.data.results as { id: string }[])[0]!.id).toBe('ADR-0003');
  });
});
