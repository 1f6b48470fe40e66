import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForText } from '../../src/retrieve/engine.js';
import { buildKeywordIndex, COMMON_QUESTION_RANK, COMMON_QUESTION_WEIGHT, queryOf, questionQuery, searchKeywords } from '../../src/retrieve/bm25.js';
import { englishRanks } from '../../src/retrieve/floor.js';
import { semanticLaneFor } from '../../src/semantic/lane.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const adr = (n: number, title: string, context: string, decision: string, consequences: string) =>
  `# ${n}. ${title}\n\nDate: 2020-${String(n % 12 || 12).padStart(2, '0')}-01\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n\n## Consequences\n\n${consequences}\n`;

/**
 * A news site's frontend records, as dotcom-rendering's folder has them: the fonts record says
 * "font" in every sentence; the editions record names a font once in passing, among "one",
 * "only", "first" and "all" — the commonest words of English, with which questions are phrased.
 */
const RECORDS: [number, string, string, string, string, string][] = [
  [12, 'self-host-the-web-fonts', 'Self-host the web fonts', 'Fonts came from a third-party font service, which added a connection before any text could render.', 'We serve our fonts from our own domain. Each font is subset to the characters our editions use, and every page preloads the font files of the body text; the font-display swap rule shows fallback text until a font arrives.', 'Changing a font means building its subsets again.'],
  [21, 'one-front-per-edition', 'One front per edition', 'The first front was shared by every edition, and only the headline order differed.', 'Each edition has one front of its own: the UK, US, Australian and international fronts are edited apart.', "An editor of one edition cannot change another edition's front; a story on all fronts is placed once per edition. Only the masthead, one font and the first container stay shared by all of them."],
  [7, 'css-in-js', 'CSS in JS', 'Styles were kept in global stylesheets that every page downloaded.', 'Components declare their styles beside their markup with Emotion; the server extracts the critical styles of a page into its head.', 'Styles cannot leak between components.'],
  [19, 'images-through-a-resizing-service', 'Images through a resizing service', 'Images were served at their original size.', 'Every image is requested from the resizing service at the width the layout needs, in WebP where the browser accepts it.', 'The service signs every URL.'],
  [15, 'scripts-load-after-the-first-paint', 'Scripts load after the first paint', 'Pages loaded many scripts at once.', 'A small bootstrap is inlined in each page; every other script is loaded after the first paint, one bundle per feature.', 'The bootstrap must stay small.'],
  [3, 'use-react', 'Use React', 'The templates were server-side Scala templates.', 'Components are written in React and rendered on the server.', 'Developers need to know React.'],
  [10, 'elements-as-components', 'Elements as components', 'Article bodies arrive from the content API as a list of elements.', 'Each element type maps to one component that renders it.', 'A new element type needs a new component.'],
];

const file = (n: number, slug: string) => `docs/adr/${String(n).padStart(4, '0')}-${slug}.md`;

function newsSite() {
  const repo = makeRepo(
    Object.fromEntries([
      ['.contextia/config.yaml', 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n'],
      ...RECORDS.map(([n, slug, title, c, d, q]) => [file(n, slug), adr(n, title, c, d, q)] as const),
      ['src/fonts.ts', "// preloads the body text's font files\nexport const bodyFonts = ['GuardianTextEgyptian', 'GuardianTextSans'];\n"],
    ]),
  );
  repo.commit('news site');
  return repo;
}

/** The question about fonts, and one about editions that names a font too (its subject is the editions). */
const FONTS = 'Is there only one font for all the pages?';
const EDITIONS = 'Does each edition have only one front of its own?';

describe("a question's ranking: its commonest English words weigh less, and a record that repeats its subject is about it (issue 30 items 1, 9; DEC-077)", () => {
  it("the commonest English words of a question weigh COMMON_QUESTION_WEIGHT in its ranking; without a word table every word counts", async () => {
    await import('../../src/semantic/lane.js');
    const rank = englishRanks();
    expect(rank).toBeDefined();
    for (const w of ['one', 'only', 'all']) expect(rank!(w)).toBeLessThan(COMMON_QUESTION_RANK);
    expect(rank!('font')).toBeGreaterThan(COMMON_QUESTION_RANK);
    const q = questionQuery(FONTS, rank);
    expect(q.get('one')).toBe(COMMON_QUESTION_WEIGHT);
    expect(q.get('only')).toBe(COMMON_QUESTION_WEIGHT);
    expect(q.get('font')).toBe(1);
    expect(q.get('page')).toBe(1);
    expect([...questionQuery(FONTS)]).toEqual([...queryOf(FONTS)]);
  });

  it('the engine and `search --json` put the fonts record first, where plain BM25 put the record that names a font once among "one", "only" and "all"', async () => {
    const repo = newsSite();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      // what the keyword lane did before: the same question, every word whole, places' K1 and B
      const plain = searchKeywords(buildKeywordIndex(set.artifacts), queryOf(FONTS));
      expect(plain[0]?.id).toBe('ADR-0021');
      const asked = searchKeywords(buildKeywordIndex(set.artifacts), questionQuery(FONTS, englishRanks()), 50, { question: true });
      expect(asked[0]?.id).toBe('ADR-0012');

      const semantic = semanticLaneFor(snapshot.root, set, {});
      const fonts = await retrieveForText({ snapshot, set, semantic, text: FONTS, staleness: false });
      expect(fonts.results[0]?.id).toBe('ADR-0012');
      expect(fonts.results.map((r) => r.id)).toContain('ADR-0021');
      // a question whose subject is the editions still finds the editions record first
      const editions = await retrieveForText({ snapshot, set, semantic, text: EDITIONS, staleness: false });
      expect(editions.results[0]?.id).toBe('ADR-0021');
    } finally {
      snapshot.close();
    }
    const json = JSON.parse(runCli(['search', FONTS, '--json'], { cwd: repo.dir }).stdout) as { results: { id: string; why: { kind: string; terms?: string[] }[] }[] };
    expect(json.results[0]?.id).toBe('ADR-0012');
    // the explanation names the words as asked, the common ones included: they still count
    expect(json.results[0]?.why.find((w) => w.kind === 'keywords')?.terms).toEqual(expect.arrayContaining(['font', 'pages']));
    const editions = JSON.parse(runCli(['search', EDITIONS, '--json'], { cwd: repo.dir }).stdout) as { results: { id: string }[] };
    expect(editions.results[0]?.id).toBe('ADR-0021');
  });

  it('places keep their own K1 and B: the same terms as a place rank as before', () => {
    const artifacts = RECORDS.map(([n, slug, title, c, d, q]) => ({ id: `ADR-${n}`, title, body: adr(n, title, c, d, q), keywords: [] as string[], file: file(n, slug) })) as unknown as Parameters<typeof buildKeywordIndex>[0];
    const index = buildKeywordIndex(artifacts);
    const q = queryOf(FONTS);
    const place = searchKeywords(index, q, 50, { place: true });
    const question = searchKeywords(index, q, 50, { question: true });
    const plain = searchKeywords(index, q);
    // no record here is an outlier in length, so a place's scores are plain BM25's
    expect(place.map((h) => [h.id, h.score])).toEqual(plain.map((h) => [h.id, h.score]));
    expect(question.map((h) => h.score)).not.toEqual(plain.map((h) => h.score));
  });
});
