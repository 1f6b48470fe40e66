// @spec SPEC-CODEGRAPH-001

/*
 * One file's imports, importers and declarations read from the files that can matter to them,
 * for a question on a tree whose code graph was never built (DEC-089). A cold `git ctx for
 * <file>` on a Java monorepo of 3,000 files parsed and linked every one of them to answer for
 * one; here the file itself is parsed, then the files whose text could import it (found by a
 * scan of the text, without parsing), then the files that decide where those imports lead, and
 * the answer is what the whole graph would say. Languages whose imports are bound by what a
 * file's text must contain: Java (package and class names), Go (the package folder's import
 * path), Python (the module's name), TypeScript/JavaScript (the file's name) and Ruby (the
 * file's name and its constants' last names). Rust answers from the whole graph.
 */

import type { Snapshot } from '../../snapshot/types.js';
import { mark } from '../../util/timing.js';
import { gitGrepFiles } from '../grep.js';
import type { CodeGraphStats } from './index.js';
import { FactsReader, isManifestPath, readConfigs, specResolver, type CodeFile, type Collected } from './build.js';
import { Linker, type SpecResolver } from './link.js';
import { isPackageJsonPath, isTsConfigPath } from './resolve-ts.js';
import { base, dirOf, goModules } from './paths.js';
import type { FileFacts, GraphLanguage } from './types.js';

/** What the graph says of one file: as the whole graph's entry for it gives it. */
export interface FileAnswer {
  imports: string[];
  importers: string[];
  decls: [string, number, number][];
}

const SCOPED: ReadonlySet<GraphLanguage> = new Set(['java', 'go', 'python', 'typescript', 'ruby']);

/** Whether a file's imports and importers can be answered without the whole graph. */
export const canScope = (lang: GraphLanguage): boolean => SCOPED.has(lang);

const READ_BATCH = 512;
/** A file's facts when the graph does not read it for what it declares: only its language (a path in the lists of modules and packages). */
const stub = (lang: GraphLanguage): FileFacts => ({ lang, decls: [], imports: [], calls: [] });

/**
 * The answer for `path` from the files that can matter to it; undefined when its language is
 * not one bound by text (the caller asks the whole graph).
 */
export async function answerForFile(snapshot: Snapshot, c: Collected, path: string, maxBytes: number, useCache: boolean, stats: CodeGraphStats): Promise<FileAnswer | undefined> {
  const focus = c.code.find((x) => x.path === path);
  // not a code file of the graph (no reader, others' code, a link): the graph has no entry for it
  if (!focus) return { imports: [], importers: [], decls: [] };
  if (!canScope(focus.lang)) return undefined;
  const reader = new FactsReader(snapshot, maxBytes, useCache, stats);
  try {
    const own = (await reader.facts([focus])).get(path);
    // unreadable: the whole graph has no facts of it, so nothing links to it either
    if (!own) return { imports: [], importers: [], decls: [] };
    const decls = own.decls.map((d): [string, number, number] => [d.name, d.line, d.end]);
    const same = c.code.filter((x) => x.lang === focus.lang);
    const scope =
      focus.lang === 'java'
        ? await javaScope(snapshot, same, focus, own, reader, maxBytes)
        : focus.lang === 'typescript'
          ? await tsScope(snapshot, c, same, focus, reader, maxBytes)
          : focus.lang === 'ruby'
            ? await rubyScope(snapshot, same, focus, own, reader)
            : await bySpelling(snapshot, c, same, focus, reader, maxBytes);
    if (!scope) return undefined;
    const linker = new Linker(scope.facts, scope.resolver ?? { ts: () => undefined }, scope.manifests);
    const importers = scope.candidates.filter((q) => linker.importsOf(q).includes(path)).sort();
    mark(`code graph: ${path} answered from ${scope.facts.size} of ${same.length} ${focus.lang} files (${scope.candidates.length} could import it; ${stats.parsed} parsed)`);
    return { imports: linker.importsOf(path), importers, decls };
  } finally {
    reader.save();
  }
}

interface Scope {
  /** the facts the linker reads, in the order of the code files */
  facts: Map<string, FileFacts>;
  /** files that may import the focus file (parsed) */
  candidates: string[];
  manifests: Map<string, string>;
  /** TypeScript: where an import specifier leads */
  resolver?: SpecResolver;
}

/** Read files in batches: path -> buffer (absent when unreadable). */
async function readAll(snapshot: Snapshot, paths: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (let i = 0; i < paths.length; i += READ_BATCH) {
    const batch = paths.slice(i, i + READ_BATCH);
    const bufs = await snapshot.readMany(batch);
    batch.forEach((p, j) => {
      const b = bufs[j];
      if (b) out.set(p, b);
    });
  }
  return out;
}

/** Whether the graph reads a file's text (as build.ts's extract: not over the size bound, not binary). */
const readable = (buf: Buffer, maxBytes: number) => buf.length <= maxBytes && !buf.subarray(0, 8000).includes(0);

/** Comments and white space Java allows between the tokens of a declaration (tree-sitter's extras). */
const EXTRAS = String.raw`(?:[ \t\r\n\f]|//[^\n]*\n|/\*[\s\S]*?\*/)*`;

/**
 * Java. A file Q imports P when one of Q's imports names a class P declares (`pkg.Class`,
 * `pkg.Outer.Inner`, `pkg.FileName`: the text of the import is in Q's text) or P's package with
 * `.*`. Where an import leads depends on every file declaring that name: those sit in a package
 * that is a prefix of the name, which a scan of each file's package line tells without parsing
 * (a file whose package line is anything unusual is parsed, as are files with none).
 */
async function javaScope(snapshot: Snapshot, java: CodeFile[], focus: CodeFile, own: FileFacts, reader: FactsReader, maxBytes: number): Promise<Scope | undefined> {
  const bufs = await readAll(snapshot, java.map((x) => x.path));
  const texts = new Map<string, string>();
  for (const [p, b] of bufs) if (readable(b, maxBytes)) texts.set(p, b.toString('utf8'));
  const pkg = own.pkg ?? '';
  const names = [...new Set([...own.decls.filter((d) => d.kind === 'class').map((d) => d.name), base(focus.path).replace(/\.java$/, '')])];
  const keys = names.map((n) => (pkg ? `${pkg}.${n}` : n));
  const wildcard = pkg ? new RegExp(`${escapeRe(pkg)}${EXTRAS}\\.${EXTRAS}\\*`) : undefined;
  const candidates = java.filter((q) => {
    const t = q.path === focus.path ? undefined : texts.get(q.path);
    return t !== undefined && (keys.some((k) => t.includes(k)) || (wildcard?.test(t) ?? false));
  });
  const candidateFacts = await reader.facts(candidates, bufs);

  // packages all of whose files must be read: where the focus file's imports lead, and where a
  // candidate's import naming the focus file's classes could lead instead
  const packages = new Set<string>();
  const prefixes = (name: string) => {
    for (let i = name.indexOf('.'); i > 0; i = name.indexOf('.', i + 1)) packages.add(name.slice(0, i));
  };
  const keySet = new Set(keys);
  const need = (spec: string, isStatic: boolean | undefined, relevant: (name: string) => boolean) => {
    if (spec.endsWith('.*')) {
      const whole = spec.slice(0, -2);
      if (!relevant(whole)) return;
      packages.add(whole);
      prefixes(whole);
      return;
    }
    const cls = isStatic ? spec.slice(0, spec.lastIndexOf('.')) : spec;
    if (relevant(cls)) prefixes(cls);
  };
  for (const imp of own.imports) need(imp.spec, imp.static, () => true);
  for (const f of candidateFacts.values()) for (const imp of f.imports) need(imp.spec, imp.static, (n) => keySet.has(n));

  const chosen = new Set([focus.path, ...candidateFacts.keys()]);
  const scope = java.filter((q) => {
    if (chosen.has(q.path)) return true;
    const t = texts.get(q.path);
    // a file the graph reads no package of (too large, binary) is in the default package
    if (t === undefined) return bufs.has(q.path);
    const declared = declaredPackage(t);
    return declared === undefined || declared === '' || packages.has(declared);
  });
  const facts = await reader.facts(scope, bufs);
  return { facts, candidates: [...candidateFacts.keys()], manifests: new Map() };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAME = /[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*/y;
const SPACE = /[ \t\r\n\f]/;

/**
 * The package a Java file declares as the graph reads it (tree-sitter's text of the name):
 * `''` when the text has no `package` at all; undefined when the package line is anything but
 * comments and white space, `package`, a plain dotted name and `;`, or when `package` comes
 * again later (the graph keeps the last declaration it meets): such a file is parsed.
 */
export function declaredPackage(text: string): string | undefined {
  if (!text.includes('package')) return '';
  let i = skipExtras(text, 0);
  if (i === undefined || !text.startsWith('package', i)) return undefined;
  i += 'package'.length;
  if (!SPACE.test(text[i] ?? '') && text[i] !== '/') return undefined;
  i = skipExtras(text, i);
  if (i === undefined) return undefined;
  NAME.lastIndex = i;
  const m = NAME.exec(text);
  if (!m) return undefined;
  const end = skipExtras(text, i + m[0].length);
  if (end === undefined || text[end] !== ';') return undefined;
  return /(?<![A-Za-z0-9_$])package(?![A-Za-z0-9_$])/.test(text.slice(end + 1)) ? undefined : m[0];
}

/** The index after white space and comments from `i`; undefined inside an unclosed comment. */
function skipExtras(text: string, i: number): number | undefined {
  for (;;) {
    while (i < text.length && SPACE.test(text[i]!)) i++;
    if (text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return undefined;
      i = nl + 1;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return undefined;
      i = close + 2;
    } else return i;
  }
}

/**
 * Go and Python, whose imports resolve by paths alone (Go: go.mod's module path and the package
 * folder; Python: the module path): every other file of the language stands in by its path, and
 * only the files whose text spells the focus file's import are parsed. A Go import of P's folder
 * ends with the folder's name (or is the module's path, for the module's own folder); a Python
 * import of P names its module (the folder, for a package's `__init__`), and a relative import
 * of a package's `__init__` comes from inside the package, whose files are all parsed.
 */
async function bySpelling(snapshot: Snapshot, c: Collected, files: CodeFile[], focus: CodeFile, reader: FactsReader, maxBytes: number): Promise<Scope | undefined> {
  // Go: the go.mod files, read as the whole graph reads them
  const manifests = focus.lang === 'go' ? await readConfigs(snapshot, c.configs.filter((p) => isManifestPath(p) && base(p) === 'go.mod'), maxBytes) : new Map<string, string>();
  const dir = dirOf(focus.path);
  const words = new Set<string>();
  let inside: ((p: string) => boolean) | undefined;
  if (focus.lang === 'go') {
    if (dir) words.add(base(dir));
    for (const [mod, at] of goModules(manifests)) if (at === dir) words.add(mod.slice(mod.lastIndexOf('/') + 1));
  } else {
    const stem = base(focus.path).replace(/\.pyi?$/, '');
    if (stem !== '__init__') words.add(stem);
    else {
      if (dir) words.add(base(dir));
      inside = (p) => !dir || p.startsWith(dir + '/');
    }
  }
  const others = files.filter((q) => q.path !== focus.path);
  const spelled = await filesSpelling(snapshot, others.map((q) => q.path), [...words]);
  if (!spelled) return undefined;
  const candidates = others.filter((q) => spelled.has(q.path) || (inside?.(q.path) ?? false));
  const parsed = await reader.facts([focus, ...candidates]);
  const facts = new Map<string, FileFacts>();
  for (const q of files) facts.set(q.path, parsed.get(q.path) ?? stub(q.lang));
  // a file the graph could not read has no facts there either: not a module or package file
  for (const q of [focus, ...candidates]) if (!parsed.has(q.path)) facts.delete(q.path);
  return { facts, candidates: candidates.filter((q) => parsed.has(q.path)).map((q) => q.path), manifests };
}

/**
 * Ruby. A file Q imports P by a `require` whose path ends in P's name (`require 'orders/place'`,
 * `require_relative '../place'`), or by calling a constant P declares (`Orders::Place.call`),
 * which Q's text spells by the constant's last name. Where a constant leads depends on every
 * file declaring a constant of that last name (the first in the graph's order, innermost
 * scope first): those files spell it too. So the files spelling P's name or its classes' last
 * names are parsed, then the files spelling the last name of any constant they (and P) call;
 * every other Ruby file stands in by its path, for the requires. @decision DEC-096
 */
async function rubyScope(snapshot: Snapshot, files: CodeFile[], focus: CodeFile, own: FileFacts, reader: FactsReader): Promise<Scope | undefined> {
  const last = (name: string) => name.slice(name.lastIndexOf('.') + 1);
  const words = new Set([base(focus.path).replace(/\.rb$/, ''), ...own.decls.filter((d) => d.kind === 'class').map((d) => last(d.name))].filter(Boolean));
  const others = files.filter((q) => q.path !== focus.path);
  const spelled = await filesSpelling(snapshot, others.map((q) => q.path), [...words]);
  if (!spelled) return undefined;
  const candidates = others.filter((q) => spelled.has(q.path));
  const parsed = await reader.facts([focus, ...candidates]);
  // the last names of the constants they call (`Foo::Bar.baz` -> Bar): every file declaring one is read
  const constants = new Set<string>();
  for (const f of parsed.values()) {
    for (const call of f.calls) {
      let k = 0;
      while (k < call.callee.length && /^[A-Z]/.test(call.callee[k]!)) k++;
      if (k && call.callee[0] !== 'this') constants.add(call.callee[k - 1]!);
    }
  }
  const rest = others.filter((q) => !parsed.has(q.path) && !spelled.has(q.path));
  const declaring = await filesSpelling(snapshot, rest.map((q) => q.path), [...constants]);
  if (!declaring) return undefined;
  const more = await reader.facts(rest.filter((q) => declaring.has(q.path)));
  const facts = new Map<string, FileFacts>();
  for (const q of files) facts.set(q.path, parsed.get(q.path) ?? more.get(q.path) ?? stub(q.lang));
  // a file the graph could not read has no facts there either: no path a require reaches
  for (const q of [focus, ...candidates, ...rest.filter((x) => declaring.has(x.path))]) if (!parsed.has(q.path) && !more.has(q.path)) facts.delete(q.path);
  return { facts, candidates: candidates.filter((q) => parsed.has(q.path)).map((q) => q.path), manifests: new Map() };
}

/**
 * TypeScript and JavaScript. Every relative, `paths`-mapped, `baseUrl` or package-subpath
 * import of a file ends in its name without the extension (`./FootballTable`,
 * `@/components/FootballTable.js`), so only the files whose text spells that name can import
 * it, and the compiler's resolution over the whole file list says which do. An import can
 * reach a file without spelling its name only through a folder (`index`), a package's entry
 * point or an exact `paths` mapping: an `index` file, or a name that some tsconfig or
 * package.json spells, is answered from the whole graph.
 */
async function tsScope(snapshot: Snapshot, c: Collected, files: CodeFile[], focus: CodeFile, reader: FactsReader, maxBytes: number): Promise<Scope | undefined> {
  const stem = base(focus.path).replace(/(?:\.d)?\.[cm]?[jt]sx?$/i, '');
  if (!stem || stem === 'index') return undefined;
  const texts = await readConfigs(
    snapshot,
    c.configs.filter((p) => isTsConfigPath(p) || isPackageJsonPath(p)),
    maxBytes,
  );
  // a config that spells the name may map an import to it
  if ([...texts.values()].some((t) => t.includes(stem))) return undefined;
  const others = files.filter((q) => q.path !== focus.path);
  const spelled = await filesSpelling(snapshot, others.map((q) => q.path), [stem]);
  if (!spelled) return undefined;
  const candidates = others.filter((q) => spelled.has(q.path));
  const facts = await reader.facts([focus, ...candidates]);
  return { facts, candidates: candidates.filter((q) => facts.has(q.path)).map((q) => q.path), manifests: new Map(), resolver: await specResolver(snapshot, c.code, texts) };
}

/** Of `paths`, those whose text contains one of `words` (git's grep, else read here); undefined when a word cannot be searched for as bytes. */
async function filesSpelling(snapshot: Snapshot, paths: string[], words: string[]): Promise<Set<string> | undefined> {
  if (!words.length || !paths.length) return new Set();
  // a name read from text that was not valid UTF-8 is not in the file's bytes as written
  if (words.some((w) => w.includes('\uFFFD'))) return undefined;
  const wanted = new Set(paths);
  const grep = await gitGrepFiles(snapshot, words, { fixed: true });
  if (grep) return new Set([...grep].filter((p) => wanted.has(p)));
  const texts = await readAll(snapshot, paths);
  return new Set([...texts].filter(([, b]) => words.some((w) => b.includes(w))).map(([p]) => p));
}
