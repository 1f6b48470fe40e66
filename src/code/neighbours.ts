// @spec SPEC-ANCHORS-001

/**
 * The code graph as retrieval walks it outward from a place: imports and importers of a
 * file, callers and callees of a symbol, for every language the repository has a reader
 * for (TypeScript/JavaScript through the compiler's module resolution; Python, Go, Java
 * and others through tree-sitter grammars). Answers come from an index under `.git/ctx`
 * keyed by blob ids, so a warm question reads a handful of files, not the tree.
 */
export interface CallSite {
  /** repository path of the file holding the other end of the call */
  path: string;
  /** qualified symbol name (`Class.method`, `function`; `<module>` for top-level code) */
  symbol: string;
  /** 1-based line of the call */
  line: number;
}

export interface CodeNeighbours {
  /** files that `path` imports, resolved to repository paths; external and unresolvable imports omitted */
  imports(path: string): Promise<string[]>;
  /** files that import `path` */
  importers(path: string): Promise<string[]>;
  /** call sites that call `path#symbol` */
  callers(path: string, symbol: string): Promise<CallSite[]>;
  /** what `path#symbol` calls, resolved where the reader can */
  callees(path: string, symbol: string): Promise<CallSite[]>;
  /** the innermost symbol enclosing a line, if the reader knows the language */
  symbolAt(path: string, line: number): Promise<string | undefined>;
  /** the file's declarations as [qualified name, first line, last line], where the reader knows the language */
  declarations?(path: string): Promise<[string, number, number][]>;
  /** languages this provider can read (e.g. 'typescript', 'python', 'go', 'java') */
  readonly languages: readonly string[];
}
