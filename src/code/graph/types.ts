// @spec SPEC-CODEGRAPH-001

/** Languages the code graph reads. */
export type GraphLanguage = 'typescript' | 'python' | 'go' | 'java' | 'ruby' | 'rust';

export const GRAPH_LANGUAGES: readonly GraphLanguage[] = ['typescript', 'python', 'go', 'java', 'ruby', 'rust'];

/** A declaration: `name` is qualified inside the file (`Class.method`, `outer.inner`, Go `Type.Method`, Ruby `Module.Class.method`). Lines 1-based, inclusive. */
export interface GraphDecl {
  name: string;
  kind: 'function' | 'method' | 'class';
  line: number;
  end: number;
}

/**
 * An import as written. `names` are the bindings it creates: `[local, imported]`, where
 * imported is `*` for the whole module (namespace import, Python `import a.b`, a Go
 * package, a Java wildcard), `default` for a default import, else the exported name.
 * Go imports without an alias have local `''` (the package's own name, known once resolved).
 */
export interface GraphImport {
  spec: string;
  line: number;
  names: [local: string, imported: string][];
  /** TS `export … from`: `[exported, imported]` pairs, or `*` for `export * from` */
  reexports?: [exported: string, imported: string][] | '*';
  /** Java `import static` */
  static?: boolean;
}

/**
 * A call as written: `callee` is the chain of names (`['fn']`, `['ns', 'fn']`,
 * `['this', 'method']`; `self`/`cls` in Python and a Go method's receiver become `this`).
 */
export interface GraphCall {
  /** qualified name of the enclosing declaration, `<module>` at top level */
  from: string;
  callee: string[];
  line: number;
}

/** What one file says, independent of every other file: cached by blob id. */
export interface FileFacts {
  lang: GraphLanguage;
  decls: GraphDecl[];
  imports: GraphImport[];
  calls: GraphCall[];
  /** Go package name, Java package */
  pkg?: string;
  /** TS: the local name exported as default */
  defaultExport?: string;
  /** the file parsed with errors (facts are partial): the first error's line and message */
  error?: string;
  /** the file was not read (too large, binary): why */
  skipped?: string;
}

export const MODULE_SYMBOL = '<module>';
