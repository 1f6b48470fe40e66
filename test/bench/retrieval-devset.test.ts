import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { namesFile, tokenize, validateDataset, type DevSet } from '../../bench/retrieval/lib.mjs';

// The labelled dev set on guardian/dotcom-rendering (issue 13 item 7, issue 17 item 1).
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const data = JSON.parse(readFileSync(path.join(ROOT, 'bench/retrieval/dotcom-rendering.json'), 'utf8')) as DevSet;
const MIRROR = process.env.GIT_CTX_DEVSET_REPO ?? '/work/.mirror/guardian+dotcom-rendering/repo';
const haveMirror = existsSync(MIRROR);
if (!haveMirror) {
  console.warn(`retrieval-devset: ${MIRROR} not found (set GIT_CTX_DEVSET_REPO to a clone); the checks against the pinned commit are skipped`);
}

/** Title words that would give a paraphrase away; short and glue words do not count. */
const GLUE = new Set(['with', 'from', 'that', 'this', 'their', 'into', 'only', 'over', 'when', 'what', 'have', 'using', 'about', 'does', 'more']);
const titleWords = (text: string): string[] => {
  const title = text.match(/^title:\s*(.*)$/m)?.[1] ?? text.match(/^#\s+(.*)$/m)?.[1] ?? '';
  return tokenize(title).filter((t) => t.length >= 4 && !GLUE.has(t));
};

describe('the dotcom-rendering dev set', () => {
  it('has the agreed shape and at least the agreed number of queries of each kind', () => {
    expect(validateDataset(data, { total: 80, file: 20, unnamed: 10, symbol: 10, question: 20, paraphrase: 26, keyword: 10, offtopic: 8 })).toEqual([]);
  });

  it('pins a full commit and an ADR source config for git-ctx', () => {
    expect(data.commit).toMatch(/^[0-9a-f]{40}$/);
    const sources = (data.config as { sources: { dir: string; format: string }[] }).sources;
    expect(sources).toEqual([expect.objectContaining({ dir: 'dotcom-rendering/docs/architecture', format: 'adr' })]);
    for (const r of data.queries.flatMap((q) => q.relevant)) expect(r.startsWith('dotcom-rendering/docs/architecture/')).toBe(true);
  });

  it('keyword queries are 2–4 words (one distinctive word allowed), questions end with a question mark', () => {
    for (const q of data.queries.filter((x) => x.kind === 'keyword')) expect(q.input.split(/\s+/).length, q.id).toBeLessThanOrEqual(4);
    for (const q of data.queries.filter((x) => x.kind === 'question' || x.kind === 'paraphrase')) expect(q.input, q.id).toMatch(/\?$/);
    for (const q of data.queries.filter((x) => x.kind === 'offtopic')) expect(q.relevant, q.id).toEqual([]);
  });

  describe.skipIf(!haveMirror)(`against the pinned commit in ${MIRROR}`, () => {
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', MIRROR, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const tree = haveMirror ? new Set(git('ls-tree', '-r', '--name-only', '-z', data.commit!).split('\0').filter(Boolean)) : new Set<string>();
    const show = (p: string) => git('show', `${data.commit}:${p}`);
    const records = haveMirror ? [...tree].filter((p) => p.startsWith('dotcom-rendering/docs/architecture/') && p.endsWith('.md')) : [];
    const recordText = new Map(records.map((r) => [r, haveMirror ? show(r) : '']));

    it('every labelled record exists in the pinned commit', () => {
      const missing = [...new Set(data.queries.flatMap((q) => q.relevant))].filter((r) => !tree.has(r));
      expect(missing).toEqual([]);
    });

    it('every file and symbol query names a file of the commit, and each symbol is declared in its file', () => {
      for (const q of data.queries.filter((x) => x.kind === 'file' || x.kind === 'symbol')) {
        const [file, symbol] = q.input.split('#') as [string, string | undefined];
        expect(tree.has(file), `${q.id}: ${file}`).toBe(true);
        if (symbol) expect(show(file), `${q.id}: ${symbol}`).toMatch(new RegExp(`(const|function|class|type|interface)\\s+${symbol}\\b`));
      }
    });

    it('every ungoverned file is a file of the commit that no record names', () => {
      const ungoverned = data.queries.filter((x) => x.kind === 'ungoverned');
      expect(ungoverned.length).toBeGreaterThanOrEqual(7);
      for (const q of ungoverned) {
        expect(tree.has(q.input), `${q.id}: ${q.input}`).toBe(true);
        expect(records.filter((r) => namesFile(recordText.get(r)!, q.input)), q.id).toEqual([]);
      }
    });

    it('unnamed: true exactly when no record names the file', () => {
      for (const q of data.queries.filter((x) => x.kind === 'file')) {
        const naming = records.filter((r) => namesFile(recordText.get(r)!, q.input));
        if (q.unnamed) expect(naming, `${q.id} is marked unnamed`).toEqual([]);
        else expect(naming.length, `${q.id} is marked named`).toBeGreaterThan(0);
      }
    });

    it('no paraphrase uses a word of its target record’s title', () => {
      for (const q of data.queries.filter((x) => x.kind === 'paraphrase')) {
        const words = new Set(tokenize(q.input));
        for (const r of q.relevant) expect(titleWords(recordText.get(r)!).filter((t) => words.has(t)), `${q.id} vs ${r}`).toEqual([]);
      }
    });
  });
});
