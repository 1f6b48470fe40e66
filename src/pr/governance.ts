import { GlobIndex } from '../util/glob.js';
import type { ArtifactSet } from '../artifacts/load.js';
import { findEndpoint, findSymbol, parseAnchor } from '../code/anchors.js';
import type { CodeIndex } from '../code/code-index.js';
import type { Annotation } from '../code/types.js';
import { normalizeRepoPath } from '../util/paths.js';
import { compilePaths } from '../util/path-set.js';
import type { ChangedFile, Hunk } from '../git/diff.js';
import type { GovernanceMatch } from './types.js';

/*
 * Direct governance of a pull request's changes: which records the changed lines belong to,
 * through annotations on the innermost changed symbols, frontmatter anchors and `paths:`
 * globs, on the head side and on the merge-base side.
 */

/** A changed line range on one side; a gap is a pure insertion/deletion point between line n and n+1. */
export type Range = { start: number; end: number } | { gap: number };

function sideRanges(hunks: Hunk[], side: 'old' | 'new'): Range[] {
  return hunks.map((h) => {
    const start = side === 'old' ? h.oldStart : h.newStart;
    const n = side === 'old' ? h.oldLines : h.newLines;
    return n > 0 ? { start, end: start + n - 1 } : { gap: start };
  });
}

/** Does a changed range touch the lines [s, e]? A gap only counts when the lines surround it. */
function touchesSpan(r: Range, s: number, e: number): boolean {
  if ('gap' in r) return s <= r.gap && e >= r.gap + 1;
  return r.start <= e && r.end >= s;
}

/**
 * The innermost annotated symbols a range touches: among the symbol annotations overlapping
 * it, those whose span holds no other overlapping annotated span. Two sibling functions in
 * one hunk both count; a class whose method was changed yields to the method.
 */
export function innermostAnnotations(annotations: Annotation[], r: Range): Annotation[] {
  const hits = annotations.filter((a) => a.symbol !== undefined && touchesSpan(r, a.startLine, a.endLine));
  return hits.filter((a) => !hits.some((b) => b.startLine >= a.startLine && b.endLine <= a.endLine && (b.startLine > a.startLine || b.endLine < a.endLine)));
}

export interface ChangeView {
  file: ChangedFile;
  headPath?: string;
  basePath?: string;
  head: Range[];
  base: Range[];
  /** a change without hunks (binary, pure rename, mode): the whole file counts, no symbol does */
  wholeFile: boolean;
}

/** The changed files as both sides see them, code apart from the records' own files. */
export interface ChangedSides {
  views: ChangeView[];
  /** changed code paths at head and at the merge base (record files left out) */
  headPaths: Set<string>;
  basePaths: Set<string>;
  /** merge-base path → head path of files the PR kept (renamed or not) */
  headOf: Map<string, string>;
  byHead: Map<string, ChangeView>;
  byBase: Map<string, ChangeView>;
  /** every changed code path, sorted */
  codePaths: string[];
  /** one sorted index of the changed paths: each paths:/glob entry is compiled once and tested only against files under its static base */
  changed: GlobIndex;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Phase: the changed files split into code and record files, each with its changed ranges on both sides. */
export function changedSides(files: ChangedFile[], recordDirs: string[]): ChangedSides {
  const artifactDirs = recordDirs.map((d) => d.replace(/\/+$/, '') + '/');
  const isArtifactPath = (p: string) => artifactDirs.some((d) => p.startsWith(d));
  const views: ChangeView[] = [];
  const headPaths = new Set<string>();
  const basePaths = new Set<string>();
  for (const f of files) {
    const headPath = f.status === 'deleted' ? undefined : f.path;
    const basePath = f.status === 'added' ? undefined : (f.oldPath ?? f.path);
    const v: ChangeView = {
      file: f,
      headPath,
      basePath,
      head: sideRanges(f.hunks, 'new'),
      base: sideRanges(f.hunks, 'old'),
      wholeFile: f.hunks.length === 0,
    };
    views.push(v);
    if (headPath && !isArtifactPath(headPath)) headPaths.add(headPath);
    if (basePath && !isArtifactPath(basePath)) basePaths.add(basePath);
  }
  const headOf = new Map(views.filter((v) => v.basePath && v.headPath).map((v) => [v.basePath!, v.headPath!]));
  const byHead = new Map<string, ChangeView>();
  const byBase = new Map<string, ChangeView>();
  for (const v of views) {
    if (v.headPath && headPaths.has(v.headPath)) byHead.set(v.headPath, v);
    if (v.basePath && basePaths.has(v.basePath)) byBase.set(v.basePath, v);
  }
  const codePaths = [...new Set([...headPaths, ...basePaths])].sort(cmp);
  return { views, headPaths, basePaths, headOf, byHead, byBase, codePaths, changed: new GlobIndex(codePaths) };
}

/** What governs the changes, as found: the matches per record id, and the head locations to annotate. */
export class Governance {
  readonly matches = new Map<string, GovernanceMatch[]>();
  readonly locations = new Map<string, { file: string; line: number; endLine: number; symbol?: string; ids: Set<string> }>();

  /** @param idOf the record an id as written in code means (`@adr 5` is ADR-0005, DEC-093); as written without a set */
  constructor(private readonly idOf: (written: string) => string = (id) => id) {}

  addMatch(written: string, m: GovernanceMatch): void {
    const id = this.idOf(written);
    const l = this.matches.get(id);
    if (!l) this.matches.set(id, [m]);
    else if (!l.some((x) => x.via === m.via && x.file === m.file && x.symbol === m.symbol && x.pattern === m.pattern && x.side === m.side)) l.push(m);
  }

  addLocation(file: string, line: number, endLine: number, symbol: string | undefined, written: string): void {
    const id = this.idOf(written);
    const k = `${file}\0${line}\0${endLine}`;
    let l = this.locations.get(k);
    if (!l) this.locations.set(k, (l = { file, line, endLine, symbol, ids: new Set() }));
    l.ids.add(id);
  }
}

/** Phase: annotations in the changed code, file-level ones for any change, symbol ones for the innermost symbols a hunk touches. */
export function governByAnnotations(gov: Governance, sides: ChangedSides, headIndex: CodeIndex, baseIndex: CodeIndex): void {
  const annotate = (index: CodeIndex, path: string, ranges: Range[], wholeFile: boolean, side: 'head' | 'base') => {
    const anns = index.annotationsIn(path);
    if (!anns.length) return;
    for (const a of anns) {
      if (a.symbol !== undefined) continue;
      for (const id of a.ids) gov.addMatch(id, { via: 'annotation', file: path, tag: a.tag, line: side === 'head' ? a.line : undefined, side });
    }
    if (wholeFile) return;
    for (const r of ranges) {
      for (const a of innermostAnnotations(anns, r)) {
        for (const id of a.ids) {
          gov.addMatch(id, { via: 'annotation', file: path, symbol: a.symbol, tag: a.tag, ...(side === 'head' ? { line: a.startLine, endLine: a.endLine } : {}), side });
          if (side === 'head') gov.addLocation(path, a.startLine, a.endLine, a.symbol, id);
        }
      }
    }
  };
  for (const v of sides.views) {
    if (v.headPath && sides.headPaths.has(v.headPath)) annotate(headIndex, v.headPath, v.head, v.wholeFile, 'head');
    if (v.basePath && sides.basePaths.has(v.basePath)) annotate(baseIndex, v.basePath, v.base, v.wholeFile, 'base');
  }
}

/** Phase: frontmatter anchors and `paths:` globs of every record at head that the changes touch. */
export async function governByFrontmatter(gov: Governance, sides: ChangedSides, headSet: ArtifactSet, headIndex: CodeIndex, baseIndex: CodeIndex): Promise<void> {
  const { byHead, byBase, headPaths, changed } = sides;
  for (const a of headSet.artifacts) {
    if (a.origin !== 'repo') continue;
    const pathSet = compilePaths(a.paths);
    for (const entry of pathSet.includes) {
      for (const p of changed.match(normalizeRepoPath(entry) ? entry : '')) if (pathSet.covers(p)) gov.addMatch(a.id, { via: 'paths', file: p, pattern: entry, side: headPaths.has(p) ? 'head' : 'base' });
    }
    for (const raw of a.anchors) {
      const spec = parseAnchor(raw);
      switch (spec.kind) {
        case 'symbol': {
          const hv = byHead.get(spec.path);
          if (hv) {
            const sym = findSymbol(await headIndex.symbolsOf(spec.path), spec.symbol);
            if (sym && !hv.wholeFile && hv.head.some((r) => touchesSpan(r, sym.docLine, sym.endLine))) {
              gov.addMatch(a.id, { via: 'anchor', file: spec.path, symbol: sym.name, pattern: raw, line: sym.line, endLine: sym.endLine, side: 'head' });
              gov.addLocation(spec.path, sym.line, sym.endLine, sym.name, a.id);
              break;
            }
          }
          const bv = byBase.get(spec.path);
          if (bv) {
            const sym = findSymbol(await baseIndex.symbolsOf(spec.path), spec.symbol);
            if (sym && (bv.file.status === 'deleted' || (!bv.wholeFile && bv.base.some((r) => touchesSpan(r, sym.docLine, sym.endLine))))) {
              gov.addMatch(a.id, { via: 'anchor', file: spec.path, symbol: sym.name, pattern: raw, side: 'base' });
            }
          }
          break;
        }
        case 'lines': {
          const hv = byHead.get(spec.path);
          if (hv && (hv.wholeFile || hv.head.some((r) => touchesSpan(r, spec.start, spec.end)))) {
            gov.addMatch(a.id, { via: 'anchor', file: spec.path, pattern: raw, line: spec.start, endLine: spec.end, side: 'head' });
            gov.addLocation(spec.path, spec.start, spec.end, undefined, a.id);
          } else if (byBase.has(spec.path) && !byHead.has(spec.path)) gov.addMatch(a.id, { via: 'anchor', file: spec.path, pattern: raw, side: 'base' });
          break;
        }
        case 'file': {
          for (const p of changed.match(spec.path)) gov.addMatch(a.id, { via: 'anchor', file: p, pattern: raw, side: headPaths.has(p) ? 'head' : 'base' });
          break;
        }
        case 'glob': {
          for (const p of changed.match(spec.pattern)) gov.addMatch(a.id, { via: 'anchor', file: p, pattern: raw, side: headPaths.has(p) ? 'head' : 'base' });
          break;
        }
        case 'endpoint': {
          // the narrowed index holds only changed files: a hit here is registering code the PR changed
          for (const r of await findEndpoint(headIndex, spec.method, spec.path)) {
            const hv = byHead.get(r.file);
            if (!hv) continue;
            const sym = r.symbol ? findSymbol(await headIndex.symbolsOf(r.file), r.symbol) : undefined;
            const [s, e] = sym ? [sym.line, sym.endLine] : [r.line, r.line];
            if (hv.wholeFile || hv.head.some((x) => touchesSpan(x, s, e))) {
              gov.addMatch(a.id, { via: 'anchor', file: r.file, symbol: r.symbol, pattern: raw, line: s, endLine: e, side: 'head' });
              gov.addLocation(r.file, s, e, r.symbol, a.id);
            }
          }
          break;
        }
      }
    }
  }
}
