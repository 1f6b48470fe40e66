// @spec SPEC-ACTION-001

import { picomatch } from '../util/picomatch.js';

/*
 * `.gitattributes` as git reads them (gitattributes(5)), from any view of the repository: a
 * pull request's head is a commit, and `git check-attr --source` needs git 2.40, so the files
 * are read through the caller's reader and matched here. What is honoured: a file per folder
 * (deeper folders override shallower, later lines override earlier), patterns matched as in
 * .gitignore relative to the file's folder (no slash: the name at any depth; a slash: the
 * path from that folder; `**`), quoted patterns, `attr` / `-attr` / `!attr` / `attr=value`,
 * macros defined by `[attr]` in the top-level file and the built-in `binary` macro.
 * What is not: negative patterns (git forbids them and ignores the line), and
 * $GIT_DIR/info/attributes and core.attributesFile (local to one clone: a pull request's
 * report must read the same on every clone, as GitHub's Linguist does).
 */

/** An attribute's state for a path: true (set), false (unset), a value, or absent (unspecified). */
export type AttrState = true | false | string;

interface AttrLine {
  /** the folder of the .gitattributes file, '' for the top level */
  dir: string;
  /** matches a path relative to `dir` */
  test: (rel: string, base: string) => boolean;
  assigns: [string, AttrState | undefined][];
}

/** Built-in macros (git defines `binary`). */
const BUILTIN_MACROS: Record<string, [string, AttrState | undefined][]> = {
  binary: [['diff', false], ['merge', false], ['text', false]],
};

/** A C-style quoted token ("a\"b", "\303\251"), as git writes and reads quoted paths. */
function unquote(s: string): string {
  const bytes: number[] = [];
  const map: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '\\': 92, '"': 34 };
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = s[++i]!;
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(s.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(map[n] ?? n.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The first token of a line (quoted or not) and the rest. */
function splitPattern(line: string): [string, string] {
  if (line.startsWith('"')) {
    for (let i = 1; i < line.length; i++) {
      if (line[i] === '\\') i++;
      else if (line[i] === '"') return [unquote(line.slice(0, i + 1)), line.slice(i + 1)];
    }
  }
  const m = /^(\S+)(.*)$/.exec(line)!;
  return [m[1]!, m[2]!];
}

function parseAssign(tok: string): [string, AttrState | undefined] {
  if (tok.startsWith('-')) return [tok.slice(1), false];
  if (tok.startsWith('!')) return [tok.slice(1), undefined];
  const eq = tok.indexOf('=');
  return eq < 0 ? [tok, true] : [tok.slice(0, eq), tok.slice(eq + 1)];
}

/** How a gitignore-style pattern tests a path relative to its file's folder. */
function compile(pattern: string): AttrLine['test'] | undefined {
  // a pattern for a folder (trailing slash) never matches a file: attributes do not recurse
  if (pattern.endsWith('/')) return undefined;
  const anchored = pattern.includes('/');
  const glob = pattern.replace(/^\//, '');
  const isMatch = picomatch(glob, { dot: true, noextglob: true, nobrace: true });
  return anchored ? (rel) => isMatch(rel) : (_rel, base) => isMatch(base);
}

/** The attributes files a set of paths can see: every folder on the way to each. */
export function attributesFilesFor(paths: Iterable<string>): string[] {
  const dirs = new Set<string>(['']);
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return [...dirs].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.split('/').length - b.split('/').length || (a < b ? -1 : 1))).map((d) => (d ? `${d}/.gitattributes` : '.gitattributes'));
}

/** A problem in a .gitattributes file, with its line: reported, never fatal (git warns and goes on). */
export interface AttributesProblem {
  file: string;
  line: number;
  message: string;
}

/**
 * The attributes of a tree, from its .gitattributes files (path → text; the caller reads
 * those attributesFilesFor names). Queries answer as `git check-attr` does.
 */
export class GitAttributes {
  private readonly lines: AttrLine[] = [];
  private readonly macros = new Map(Object.entries(BUILTIN_MACROS));
  readonly problems: AttributesProblem[] = [];

  constructor(files: Map<string, string>) {
    // shallow to deep, so that a deeper file's lines come later and win
    const ordered = [...files.keys()].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    for (const file of ordered) this.parse(file, files.get(file)!);
  }

  private parse(file: string, text: string): void {
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith('#')) return;
      const [pattern, rest] = splitPattern(line);
      const assigns = rest.trim().split(/\s+/).filter(Boolean).map(parseAssign);
      if (pattern.startsWith('[attr]')) {
        // macros count only in the top-level file (gitattributes(5))
        if (dir) this.problems.push({ file, line: i + 1, message: `macro ${pattern.slice(6)} is defined outside the top-level .gitattributes: git ignores it` });
        else this.macros.set(pattern.slice(6), assigns);
        return;
      }
      if (pattern.startsWith('!')) {
        this.problems.push({ file, line: i + 1, message: `negative pattern ${pattern}: git forbids them and ignores the line` });
        return;
      }
      const test = compile(pattern);
      if (test) this.lines.push({ dir, test, assigns });
    });
  }

  /** Every attribute specified for a path (unspecified ones absent). */
  attributesOf(path: string): Map<string, AttrState> {
    const out = new Map<string, AttrState>();
    const base = path.slice(path.lastIndexOf('/') + 1);
    const apply = (name: string, state: AttrState | undefined, depth: number): void => {
      if (state === undefined) out.delete(name);
      else out.set(name, state);
      // a set macro applies its attributes; unsetting it unsets nothing else (as git does)
      const m = this.macros.get(name);
      if (m && state === true && depth < 8) for (const [n, s] of m) apply(n, s, depth + 1);
    };
    for (const l of this.lines) {
      if (l.dir && !path.startsWith(l.dir + '/')) continue;
      const rel = l.dir ? path.slice(l.dir.length + 1) : path;
      if (!l.test(rel, base)) continue;
      for (const [n, s] of l.assigns) apply(n, s, 0);
    }
    return out;
  }
}

/** Linguist's reading of a boolean attribute: set or any value but false/0 is true; unset or "false" is false; absent is undefined. */
export function linguistFlag(state: AttrState | undefined): boolean | undefined {
  if (state === undefined) return undefined;
  if (typeof state === 'boolean') return state;
  return !['false', '0'].includes(state.toLowerCase());
}
