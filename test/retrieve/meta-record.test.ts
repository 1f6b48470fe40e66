import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace, retrieveForText } from '../../src/retrieve/engine.js';
import type { RetrievalLane } from '../../src/retrieve/types.js';

type Answer = { results: { id: string }[]; weak?: { id: string }[] };
const ids = (stdout: string) => {
  const a = JSON.parse(stdout) as Answer;
  return { results: a.results.map((r) => r.id), weak: (a.weak ?? []).map((r) => r.id) };
};

// A MADR folder's first record decides how records are written ("Use Markdown Architectural
// Decision Records"); its generic words (template, structure, sections, Markdown, renders)
// made it the first answer for a file of code that renders documentation pages. It governs the
// records folder, not the code (DEC-084).
describe('the record about how decisions are recorded', () => {
  it('is no answer for a place in the code, and still the answer to a question about records', () => {
    const repo = makeRepo({
    "docs/decisions/0000-use-markdown-architectural-decision-records.md": "# Use Markdown Architectural Decision Records\n\n## Context and Problem Statement\n\nWe want to keep the decisions taken in this project, whatever they concern: the architecture, the code, the build or the documentation. Which format and structure should such a record follow so that a reader finds the options and the outcome quickly?\n\n## Considered Options\n\n* MADR 4.0.0\n* a free-form page per decision\n* no records\n\n## Decision Outcome\n\nChosen option: \"MADR 4.0.0\", because it gives every record the same structure, its template is short, and its sections (context, options, outcome) render well as Markdown documentation.\n",
    "docs/decisions/0001-render-docs-with-docusaurus.md": "# Render the documentation site with Docusaurus\n\n## Context and Problem Statement\n\nThe project documentation lives in Markdown files and has to be published as a site with search and versioning.\n\n## Decision Outcome\n\nChosen option: \"Docusaurus\", because it renders our Markdown pages as they are, versions them per release and has a local search plugin.\n",
    "docs/decisions/0002-retry-webhooks.md": "# Retry webhook deliveries with backoff\n\n## Decision Outcome\n\nChosen option: \"exponential backoff\", because a failed webhook delivery is retried five times with a doubling delay before it is parked.\n",
    "src/docs/sections.ts": "/** The sections every documentation page template has, in order, and how each renders as Markdown. */\nexport const TEMPLATE_SECTIONS = ['context', 'options', 'outcome'] as const;\n\n/** Render one section of a page: its heading, then its structure as a Markdown list. */\nexport function renderSection(name: (typeof TEMPLATE_SECTIONS)[number], items: string[]): string {\n  return [`## ${name}`, '', ...items.map((i) => `* ${i}`)].join('\\n');\n}\n",
    });
    repo.commit('records and code');

    const place = runCli(['for', 'src/docs/sections.ts', '--format', 'json'], { cwd: repo.dir });
    expect(place.code, place.stderr).toBe(0);
    const p = ids(place.stdout);
    expect(p.results).not.toContain('ADR-0000');
    expect(p.results[0]).toBe('ADR-0001');
    // not lost: said apart, with the matches under the floor
    expect(p.weak).toContain('ADR-0000');

    const question = runCli(['search', 'which format should our decision records follow', '--format', 'json'], { cwd: repo.dir });
    expect(question.code, question.stderr).toBe(0);
    expect(ids(question.stdout).results[0]).toBe('ADR-0000');
  });

  // Its match is no measure of the others' (DEC-127): met in two words of the file that say
  // much, it lent its evidence to a record met only in the project's name and the folder's
  // word, which every code file carries (trials28), and that record was the answer.
  it("lends no evidence to the other records' standing at a place", async () => {
    const repo = makeRepo({
      'docs/decisions/0000-use-markdown-architectural-decision-records.md': '# Use Markdown Architectural Decision Records\n\n## Context and Problem Statement\n\nWe want to record the decisions of this project. Which template should a record follow?\n\n## Decision Outcome\n\nChosen option: "MADR", because its template has few sections and renders as plain Markdown.\n',
      'docs/decisions/0001-orbital-identity-provider.md': '# Orbital sign-in through the company identity provider\n\n## Decision Outcome\n\nChosen option: "the company identity provider", because every Orbital application then shares one sign-in.\n',
      'src/application/list-view.ts': 'namespace Orbital.Application;\nexport class ListView {\n  createEnabled = false;\n}\n',
    });
    repo.commit('records and code');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      // the keyword lane as the trial measured it: the meta record first, in words that say
      // much (evidence 0.36), the other at a quarter of its score, in words every file has
      const hit = (id: string, score: number, evidence: number) => ({ ref: { kind: 'artifact' as const, id }, score, evidence, why: [{ kind: 'keywords' as const, text: 'matches …' }] });
      const keywords: RetrievalLane = { name: 'keywords', run: async () => [hit('ADR-0000', 1, 0.36), hit('ADR-0001', 0.26, 0.05)] };
      const none: RetrievalLane = { name: 'semantic', run: async () => [] };
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'src/application/list-view.ts' }, staleness: false, lanes: { keywords, semantic: none } });
      expect(r.results.map((x) => x.id)).toEqual([]);
      const weak = new Map((r.weak ?? []).map((w) => [w.id, w.relevance]));
      expect(weak.get('ADR-0001')).toBe(0.05);
      expect(weak.has('ADR-0000')).toBe(true);
      // the same lane for a question: the meta record answers it, and lends as before
      const q = await retrieveForText({ snapshot, set, text: 'which template do records follow', staleness: false, lanes: { keywords, semantic: none } });
      expect(q.results.map((x) => x.id)[0]).toBe('ADR-0000');
    } finally {
      snapshot.close();
    }
  });
});
