// @spec SPEC-RETRIEVE-001

import type { ChangedFile } from '../git/diff.js';
import { isCodePath, type CodeWords } from './code-words.js';
import { extractPlaceTerms } from './extract.js';
import { terms } from './text.js';

/*
 * A spelling fix (issue 31, negatives): a change whose every changed line is the line it
 * replaces with a word or two respelled — `sesssion` → `session` in a comment — changes no
 * behaviour and no design. Its lines are full of the words of the code around the typo, and
 * those words are what a decision about that code would say; asked with them, a typo fix finds
 * the records of whatever file it happens to sit in. So the query reads such a file at a small
 * budget, without its path and symbols (change-query.ts).
 */

/** Shortest word a respelling is judged on: `min` → `max`, `get` → `set` are different words, not typos. */
const MIN_WORD = 4;
/** Edits allowed per respelled word (a transposition counts one): 1, or 2 from this length on. */
const LONG_WORD = 8;

/** Edit distance with adjacent transpositions (optimal string alignment), exact up to `max`, else max + 1. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
      least = Math.min(least, d);
    }
    if (least > max) return max + 1;
    rows.push(row);
  }
  return Math.min(rows[a.length]![b.length]!, max + 1);
}

/**
 * Whether `to` is `from` respelled: both words of 4 letters or more, one edit apart (two from 8
 * letters), neither the other with an ending added (`user` → `users`, `enable` → `enabled` are
 * other words), and — when the repository's code words are known — the old spelling no more
 * used in the code than the new one (`post` → `port` in a string is a change of value).
 */
function respelled(from: string, to: string, codeWords?: CodeWords): boolean {
  const x = from.toLowerCase();
  const y = to.toLowerCase();
  if (Math.min(x.length, y.length) < MIN_WORD || x.startsWith(y) || y.startsWith(x)) return false;
  if (editDistance(x, y) > (Math.min(x.length, y.length) >= LONG_WORD ? 2 : 1)) return false;
  if (!codeWords) return true;
  const df = (w: string) => Math.max(0, ...terms(w).map((t) => codeWords.df[t] ?? 0));
  return df(x) <= df(y);
}

/** A line's shape without its words: punctuation, digits and word positions, whitespace left out. */
const shape = (line: string) => line.replace(/[A-Za-z]+/g, 'w').replace(/\s+/g, '');

const sorted = (ts: readonly string[]) => [...ts].sort().join(' ');

/**
 * Whether a changed file is a spelling fix: as many lines added as removed, each added line the
 * removed one in the same place with the same punctuation, digits and word count, its words the
 * same but for at least one respelled word (case aside); in code, the identifiers and imports of
 * the changed lines unchanged (a typo fixed in a comment or a string, not a rename). A truncated
 * or one-sided change is not one.
 */
export function isSpellingFix(f: ChangedFile, codeWords?: CodeWords): boolean {
  const t = f.text;
  if (!t || t.truncated || !t.removed.length || t.removed.length !== t.added.length) return false;
  if (isCodePath(f.path)) {
    const a = extractPlaceTerms(t.added.join('\n'), f.path);
    const r = extractPlaceTerms(t.removed.join('\n'), f.path);
    if (sorted(a.identifiers) !== sorted(r.identifiers) || sorted(a.imports) !== sorted(r.imports)) return false;
  }
  let respellings = 0;
  for (let i = 0; i < t.removed.length; i++) {
    const before = t.removed[i]!;
    const after = t.added[i]!;
    if (shape(before) !== shape(after)) return false;
    const wa = before.match(/[A-Za-z]+/g) ?? [];
    const wb = after.match(/[A-Za-z]+/g) ?? [];
    for (let k = 0; k < wa.length; k++) {
      if (wa[k]!.toLowerCase() === wb[k]!.toLowerCase()) continue;
      if (!respelled(wa[k]!, wb[k]!, codeWords)) return false;
      respellings++;
    }
  }
  return respellings > 0;
}

/**
 * Words of a description that say a change is an edit of wording, not what it is about: "Fix
 * typo", "Correct spelling in comments". Left out of the query when every file read is a
 * spelling fix, so such a title asks for nothing; its other words (a domain word, a record's id) stay.
 */
export const EDIT_WORDS = new Set(
  terms('fix fixes fixed fixing typo typos spelling spellings spelt misspelling misspellings misspelled misspelt misspell correct corrects corrected correction corrections grammar grammatical wording word words comment comments minor small tiny tweak tweaks nit nits respell'),
);
