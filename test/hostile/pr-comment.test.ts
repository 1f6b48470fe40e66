import { describe, expect, it } from 'vitest';
import { planAnnotations } from '../../src/action/annotations.js';
import { analyzePullRequest, annotationText, code, escapeText, renderPrComment } from '../../src/pr/index.js';
import { useFakeGitHub } from '../action/run-action.js';
import { artifact, CASE_MS, cli, expectContained, hostileRepo } from './harness.js';

/** Invisible format characters a hostile title, summary or path can carry. */
const INVISIBLE: [string, string][] = [
  ['\u202a', 'LRE'], ['\u202b', 'RLE'], ['\u202c', 'PDF'], ['\u202d', 'LRO'], ['\u202e', 'RLO'],
  ['\u2066', 'LRI'], ['\u2067', 'RLI'], ['\u2068', 'FSI'], ['\u2069', 'PDI'],
  ['\u200e', 'LRM'], ['\u200f', 'RLM'], ['\u061c', 'ALM'], ['\u200b', 'ZWSP'], ['\ufeff', 'BOM'], ['\u2060', 'WJ'], ['\u00ad', 'SHY'],
];
const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

describe('PR comment: invisible format characters are made visible', () => {
  it.each(INVISIBLE)('%#: %s (%s) in escapeText, code spans and annotations', (c) => {
    const s = `safe${c}txt.exe`;
    for (const out of [escapeText(s), code(s), annotationText(s)]) {
      expect(out).not.toContain(c);
      expect(out.replace(/\\/g, '')).toContain(hex(c));
    }
  });

  function bidiRepo() {
    const RLO = '\u202e';
    const repo = hostileRepo({ 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'pr');
    repo.write({
      [`.contextia/system/rationale/DEC-BIDI-001.md`]: artifact(`id: DEC-BIDI-001\ntype: decision\ntitle: "Approve ${RLO}gnp.exe"\nstatus: accepted\nsummary: "hidden\u2066 text\u2069 here"\npaths: ["src/**"]\nlinks:\n  specs: [SPEC-GONE-001]`),
      [`src/${RLO}cod.ts`]: '// @decision DEC-BIDI-001\nexport const b = 2;\n',
      'src/a.ts': 'export const a = 2;\n',
    });
    repo.commit('bidi');
    return repo;
  }
  const noBidi = (s: string) => expect(s).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);

  it('analysis → comment, job summary and annotations carry no raw bidi control', { timeout: CASE_MS }, async () => {
    const repo = bidiRepo();
    await expectContained(repo, async () => {
      const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'pr' });
      const comment = renderPrComment(r);
      noBidi(comment);
      expect(comment).toContain('U+202E');
      noBidi(renderPrComment(r, { marker: false, maxItems: 10_000 }));
      for (const a of planAnnotations(r).annotations) {
        noBidi(a.message);
        noBidi(a.properties.title ?? '');
      }
      const md = cli(['pr', '--base', 'main', '--head', 'pr'], repo.dir);
      noBidi(md.stdout);
    });
  });

  describe('through the Action bundle (real process, fake GitHub)', () => {
    const github = useFakeGitHub();
    it('the posted comment, the job summary and the annotations show U+202E instead of reversing text', { timeout: CASE_MS }, async () => {
      const repo = bidiRepo();
      const base = repo.git('rev-parse', 'main');
      const head = repo.git('rev-parse', 'pr');
      const r = await github.pr(repo.dir, { number: 3, base, head }, { inputs: { 'fail-on': 'never' } });
      const body = github.comment(3)!;
      noBidi(body);
      expect(body).toContain('U+202E');
      noBidi(r.summary);
      for (const a of r.annotations) {
        noBidi(a.message);
        noBidi(a.props.title ?? '');
      }
    });
  });
});
