// @spec SPEC-RETRIEVE-001

import type { ChangedFile } from '../git/diff.js';
import { EDIT_WORDS, isSpellingFix } from './change-spelling.js';
import { codeWordWeight, type CodeWords } from './code-words.js';
import { extractPlaceTerms } from './extract.js';
import { terms } from './text.js';

/**
 * The query of a change: what its hunks add and remove, the symbols they sit in, its paths,
 * and what its author wrote about it (title, body or commit messages). Whole files are never
 * read: a change to one line of a long module asks about that line, not the module.
 */
export interface ChangeQueryInput {
  files: readonly ChangedFile[];
  /** the pull request's title, or the first line of its commit messages */
  title?: string;
  /** the pull request's body, or the rest of its commit messages */
  body?: string;
  /** per changed path (head side), names of the symbols its hunks sit in, when a code index knows them */
  symbols?: ReadonlyMap<string, readonly string[]>;
  /** record folders: a change to a record is what it says, not a question about it */
  recordDirs?: readonly string[];
}

/** The weighted terms of a change, and where each came from (to say which files brought a record in). */
export interface ChangeQuery {
  terms: Map<string, number>;
  /** per changed path that was read, its terms */
  byFile: Map<string, Set<string>>;
  /** terms of the title and body */
  text: Set<string>;
  /** a short text of the change for the semantic lane: the words people wrote, then the symbols and comments */
  prose: string;
  /** changed paths that were not read, and why (binary, lockfile, generated, a record) */
  skipped: { path: string; reason: string }[];
  /** every changed line read is a version (a dependency bump): the names bumped, as terms (empty otherwise) */
  versionsOnly: boolean;
  bumped: string[];
  /** changed paths read as spelling fixes (change-spelling.ts): a small budget, no path or symbols */
  spelling: string[];
}

/** How much each source of a change counts (what the author wrote about it counts most). */
const WEIGHT = { title: 4, body: 1.5, comments: 1.5, strings: 1, identifiers: 1, imports: 0.6, symbols: 2, path: 2 } as const;
/**
 * The weight one file may bring to the query: a file's terms are scaled down together when
 * their sum is larger, so a 5,000-line generated file or a long test says no more than a short
 * change does, and the title and body keep their say.
 */
const FILE_BUDGET = 40;
/**
 * The weight a spelling fix may bring (a word or two respelled in a comment or a string): the
 * words around a typo are the file's, not the change's, and should not find that file's records.
 */
const SPELLING_BUDGET = 3;
/** A word both removed and added in a file (the unchanged part of a changed line) counts this much of a changed one. */
const UNCHANGED = 0.35;
/** Terms kept (the heaviest): bounded time, less noise. */
const MAX_TERMS = 80;
/**
 * A path word in more than this share of the code files is where every change sits: its
 * weight falls from whole at this share to a fifth at every file (measured on the PR sets,
 * DEC-090: Sylius, whose 11,000 files all sit in `src/Sylius/Bundle/`, put a record linking one
 * such path first for changes all over the bundles).
 */
const UBIQUITOUS_PATH_WORD = 0.5;
/** Distinctiveness curve of the change's words in this repository's code (see code-words.ts). */
const CURVE = { floor: 0.25, power: 2 };

const LOCKFILES = /(^|\/)(yarn\.lock|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|bun\.lockb|Gemfile\.lock|Cargo\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|go\.sum|mix\.lock|packages\.lock\.json|flake\.lock)$/;
/** Continuous-integration and bot settings: how the project is built, not what a decision governs. */
const CI = /^\.github\/(workflows\/|dependabot\.ya?ml$|renovate\.json)|^(\.circleci|\.dependabot|\.buildkite)\/|^(\.gitlab-ci\.ya?ml|\.travis\.yml|azure-pipelines\.ya?ml|renovate\.json5?)$/;
const GENERATED = /(^|\/)(generated|__generated__|__snapshots__|vendor|node_modules|dist)\/|\.(min\.(js|css)|snap|map)$/;

/** Why a changed file says nothing about which decision governs it, or undefined. */
export function unreadableChange(f: ChangedFile, recordDirs: readonly string[] = []): string | undefined {
  if (f.binary) return 'binary';
  if (recordDirs.some((d) => f.path.startsWith(d.replace(/\/+$/, '') + '/'))) return 'record';
  if (LOCKFILES.test(f.path)) return 'lockfile';
  if (CI.test(f.path)) return 'ci';
  if (GENERATED.test(f.path)) return 'generated';
  const head = [...(f.text?.added ?? []), ...(f.text?.removed ?? [])].slice(0, 5).join('\n');
  if (/@generated\b|DO NOT EDIT|auto-?generated/i.test(head)) return 'generated';
  return undefined;
}

/** One version or constraint: `1.2.3`, `^10`, `>=18.0.0`, `v4`, `2.x`. */
const VERSION = String.raw`[~^<>=v]*\d+(?:\.[\w*-]+)*`;
/**
 * A line that only sets a version: `"mocha": "^10.0.0",`, `uses: actions/checkout@v4`,
 * `version = "1.2.3"`, `dugite==1.93.0`, a range (`"node": "^20 || ^22"`, `">=18 <21"`). What
 * such a line says is the name on its left.
 */
const VERSION_LINE = new RegExp(
  String.raw`^\s*(?:-\s*)?(?:uses:\s*)?["']?([@\w./-]+?)["']?\s*(?:[:=@]=?|==|>=|~=)\s*["']?(?:${VERSION}(?:\s*(?:\|\||,|\s-\s|\s)\s*${VERSION})*|[0-9a-f]{7,40})["']?,?\s*(?:#.*)?$`,
);

/**
 * Files whose lines name dependencies and their versions: manifests, version pins, workflows.
 * Elsewhere a number on the right of a name is a setting of the code (`retries = 3`), not a
 * version, unless it is written as one (`"1.2.3"`, `v2.0`).
 */
const MANIFEST = /(?:^|\/)(?:package\.json|requirements[\w.-]*\.txt|constraints[\w.-]*\.txt|Pipfile|pyproject\.toml|setup\.cfg|Gemfile|[\w.-]+\.gemspec|go\.mod|Cargo\.toml|\.tool-versions|\.nvmrc|\.node-version|\.python-version|\.ruby-version|[\w.-]*\.(?:ya?ml))$/;
const WRITTEN_AS_VERSION = /(?:^|[^\w.])v?\d+\.\d+|[~^]\d/;

/** .NET projects and central package files, NuGet specs, Maven poms: versions written as XML. */
const XML_MANIFEST = /\.(?:csproj|fsproj|vbproj|props|targets|nuspec)$|(?:^|\/)(?:pom\.xml|packages\.config)$/;
const XML_PACKAGE = /^\s*<(?:PackageVersion|PackageReference|package|dependency)\b(?=[^>]*\b(?:Version|version)\s*=\s*"[^"]*\d)[^>]*\b(?:Include|Update|id)\s*=\s*"([^"]+)"[^>]*\/?>\s*$/;
const XML_VERSION_ELEMENT = new RegExp(String.raw`^\s*<([\w.-]*[Vv]ersion[\w.-]*)>\s*${VERSION}\s*</\1>\s*$`);

/**
 * The name an XML manifest line bumps: `<PackageVersion Include="Testcontainers.Milvus"
 * Version="4.14.0" />` bumps Testcontainers.Milvus; a version element alone (`<VersionPrefix>1.80.0
 * </VersionPrefix>`, Maven's `<version>`) sets a version and names nothing a record decides.
 * Undefined when the line says more than a version.
 */
function xmlVersionName(line: string): string | undefined {
  const m = XML_PACKAGE.exec(line);
  if (m) return m[1];
  return XML_VERSION_ELEMENT.test(line) ? '' : undefined;
}

/** The names a line of versions bumps, or undefined when the line says more than a version. */
function versionName(line: string, path: string): string | undefined {
  if (!line.trim()) return '';
  if (XML_MANIFEST.test(path)) return xmlVersionName(line);
  const m = VERSION_LINE.exec(line);
  if (!m) return undefined;
  return MANIFEST.test(path) || WRITTEN_AS_VERSION.test(line.slice(line.indexOf(m[1]!) + m[1]!.length)) ? m[1] : undefined;
}

/** What the description says, as terms: links, code blocks, quoted release notes and trailers left out, bounded. */
function descriptionText(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ')
    .split('\n')
    // quoted notes, and trailers (`Co-authored-by:`, `Signed-off-by:`): they name people, not the change
    .filter((l) => !/^\s*>/.test(l) && !/^[A-Za-z][\w-]*-by:\s/i.test(l))
    .join('\n')
    .slice(0, 1500);
}

/** The terms of one changed file, weighted, before its budget. */
function fileTerms(f: ChangedFile, symbols: readonly string[], weight: (t: string) => number, spelling: boolean, pathShare: (t: string) => number = () => 1): Map<string, number> {
  const raw = new Map<string, number>();
  const add = (ts: readonly string[], w: number) => {
    for (const t of ts) raw.set(t, (raw.get(t) ?? 0) + w);
  };
  // data files (JSON, YAML, docs) are read too: their words are the change; code gets its comments split out
  const a = extractPlaceTerms((f.text?.added ?? []).join('\n'), f.path);
  const r = extractPlaceTerms((f.text?.removed ?? []).join('\n'), f.path);
  for (const src of ['comments', 'strings', 'identifiers', 'imports'] as const) {
    // a word on both sides is where the change sits, not what it changes: a typo fixed in a
    // comment changes one word, not the sentence around it
    const count = (ts: string[]) => ts.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());
    const ca = count(a[src]);
    const cr = count(r[src]);
    for (const t of new Set([...ca.keys(), ...cr.keys()])) {
      const x = ca.get(t) ?? 0;
      const y = cr.get(t) ?? 0;
      raw.set(t, (raw.get(t) ?? 0) + WEIGHT[src] * (Math.abs(x - y) + UNCHANGED * Math.min(x, y)));
    }
  }
  const out = new Map<string, number>();
  // where a typo sits (its file, its function) is not what a spelling fix is about
  if (spelling) {
    for (const [term, w] of raw) out.set(term, (1 + Math.log(1 + w)) * weight(term));
    return out;
  }
  // the enclosing symbols git names in the hunk headers, and the code index's
  const ctx = [...new Set([...f.hunks.map((h) => h.context ?? ''), ...symbols])].join('\n');
  add(extractPlaceTerms(ctx, '').identifiers, WEIGHT.symbols);
  const paths = [...new Set([f.path, ...(f.oldPath ? [f.oldPath] : [])])];
  for (const p of paths) for (const t of terms(p.replace(/\.[A-Za-z0-9]+$/, ''))) add([t], (WEIGHT.path / paths.length) * pathShare(t));
  for (const [term, w] of raw) out.set(term, (1 + Math.log(1 + w)) * weight(term));
  return out;
}

/**
 * The query of a change. `codeWords` says how distinctive each word is in this repository's
 * code (a word every file has says little); unknown, every word counts alike.
 */
export function changeQuery(input: ChangeQueryInput, codeWords?: CodeWords): ChangeQuery {
  const weight = codeWordWeight(codeWords, CURVE);
  // a folder most files sit in (`src`, `Bundle`) says where the change is, not what it does:
  // summed over every changed file it would outweigh the title. A folder of a tenth of the
  // code (`amp/`, `payments/`) is what a change there is about, and keeps its whole say.
  const pathShare = (t: string) => {
    const share = codeWords && codeWords.files >= 20 ? (codeWords.df[t] ?? 0) / codeWords.files : 0;
    return share <= UBIQUITOUS_PATH_WORD ? 1 : Math.max(0.2, (1 - share) / (1 - UBIQUITOUS_PATH_WORD));
  };
  const q = new Map<string, number>();
  const byFile = new Map<string, Set<string>>();
  const skipped: ChangeQuery['skipped'] = [];
  const add = (t: string, w: number) => q.set(t, (q.get(t) ?? 0) + w);
  const body = descriptionText(input.body ?? '');
  const prose: string[] = [input.title ?? '', body];
  const read = input.files.filter((f) => {
    const why = unreadableChange(f, input.recordDirs);
    if (why) skipped.push({ path: f.path, reason: why });
    return !why;
  });
  // a dependency bump: every changed line a version. Its description ("bump", "update
  // dependencies") matches whatever record talks about dependencies; only the names bumped say
  // which decision might care (a record preferring that library)
  const changedLines = read.flatMap((f) => [...(f.text?.added ?? []), ...(f.text?.removed ?? [])].map((line) => ({ line, path: f.path })));
  const names = changedLines.map((c) => versionName(c.line, c.path));
  const versionsOnly = changedLines.some((c) => c.line.trim()) && names.every((n) => n !== undefined);
  if (versionsOnly) {
    const bumped = new Set(names.filter((n): n is string => !!n));
    for (const n of bumped) for (const t of terms(n)) add(t, WEIGHT.identifiers * weight(t));
    for (const f of read) byFile.set(f.path, new Set([...bumped].flatMap((n) => terms(n))));
    return { terms: q, byFile, text: new Set(), prose: [...bumped].join(' '), skipped, versionsOnly, bumped: [...new Set([...bumped].flatMap((n) => terms(n)))], spelling: [] };
  }
  // many files share out the code's weight: a wide change is not louder than its description
  const share = 1 / Math.sqrt(Math.max(1, read.length));
  const spelling: string[] = [];
  for (const f of read) {
    const typo = isSpellingFix(f, codeWords);
    if (typo) spelling.push(f.path);
    const ft = fileTerms(f, input.symbols?.get(f.path) ?? [], weight, typo, pathShare);
    let sum = 0;
    for (const w of ft.values()) sum += w;
    const budget = typo ? SPELLING_BUDGET : FILE_BUDGET;
    const scale = (sum > budget ? budget / sum : 1) * share;
    for (const [t, w] of ft) add(t, w * scale);
    byFile.set(f.path, new Set(ft.keys()));
    if (typo) continue;
    const code = extractPlaceTerms([...(f.text?.added ?? []), ...(f.text?.removed ?? [])].join('\n'), f.path);
    prose.push(code.comments.slice(0, 30).join(' '), f.hunks.map((h) => h.context ?? '').join(' '));
  }
  const text = new Set<string>();
  // a change of spellings only: "Fix typo" says what kind of edit it is, not what it is about
  const onlySpelling = read.length > 0 && spelling.length === read.length;
  for (const [src, w] of [[input.title ?? '', WEIGHT.title], [body, WEIGHT.body]] as const) {
    const counts = new Map<string, number>();
    for (const t of terms(src)) if (!onlySpelling || !EDIT_WORDS.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, n] of counts) {
      add(t, w * (1 + Math.log(n)));
      text.add(t);
    }
  }
  const kept = q.size <= MAX_TERMS ? q : new Map([...q].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_TERMS));
  return { terms: kept, byFile, text, prose: prose.filter(Boolean).join('\n').slice(0, 4000), skipped, versionsOnly, bumped: [], spelling };
}

