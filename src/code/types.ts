/** Languages the index understands. `ts` covers TS, TSX, JS, JSX, MJS, CJS. */
export type CodeLanguage =
  | 'ts'
  | 'python'
  | 'shell'
  | 'ruby'
  | 'yaml'
  | 'toml'
  | 'hcl'
  | 'go'
  | 'rust'
  | 'java'
  | 'kotlin'
  | 'c'
  | 'cpp'
  | 'csharp'
  | 'swift'
  | 'scala'
  | 'php'
  | 'sql'
  | 'lua'
  | 'css'
  | 'html';

/** What kind of declaration a symbol is. */
export type SymbolKind =
  | 'function'
  | 'method'
  | 'constructor'
  | 'accessor'
  | 'property'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'variable'
  | 'namespace'
  | 'default';

/** A declaration found in a TypeScript/JavaScript file. Lines are 1-based and inclusive. */
export interface CodeSymbol {
  /** qualified name inside the file: `InvoiceGenerator.generate`, `api.get`, `default` */
  name: string;
  kind: SymbolKind;
  /** line of the first token (decorators and modifiers included) */
  line: number;
  endLine: number;
  /** first line of the comments/JSDoc attached to it (≤ line) */
  docLine: number;
  exported: boolean;
  /** the module's default export (`export default …`) */
  isDefault?: boolean;
  /**
   * sha256 of the declaration's tokens joined by one space: whitespace and comments are
   * folded away, and the declaration's own name is left out so that a rename keeps the
   * fingerprint and reads as a move, not as drift.
   */
  fingerprint: string;
  /** qualified name of the enclosing symbol, when nested */
  parent?: string;
}

/** One tag in one comment, resolved to what it annotates. */
export interface Annotation {
  /** tag name without `@` (spec, decision, …) */
  tag: string;
  /** ids named by the tag, in order */
  ids: string[];
  file: string;
  /** 1-based line of the tag */
  line: number;
  /** symbol name (see CodeSymbol.name) or undefined for a file-level annotation */
  symbol?: string;
  /** line range the annotation governs (the symbol's, or the whole file) */
  startLine: number;
  endLine: number;
}

/** An HTTP route registration found in code (`app.post('/x', …)`, `@Post('/x')`). */
export interface RouteRegistration {
  /** upper-case method, or ALL for `app.all`/`router.use`-like registrations */
  method: string;
  /** the path as written, with a class controller prefix applied */
  path: string;
  line: number;
  /** the enclosing symbol, when there is one */
  symbol?: string;
  /** fingerprint of the registration (the call, or the decorated method) */
  fingerprint: string;
}

/** Why a file was not (fully) indexed. Reported as data, never thrown. */
export interface IndexProblem {
  file: string;
  kind: 'syntax-error' | 'binary' | 'too-large' | 'unreadable';
  message: string;
  line?: number;
}

/** What the index knows about one blob. Cached by blob id. */
export interface FileRecord {
  annotations: Omit<Annotation, 'file'>[];
  symbols: CodeSymbol[];
  routes: RouteRegistration[];
  /** total number of lines */
  lines: number;
  /** hash of the whole file's normalized text (comments and formatting left out); TS/JS only */
  fingerprint?: string;
  problem?: Omit<IndexProblem, 'file'>;
  /** the tag pre-filter matched the content (false for files extracted only because an anchor names them) */
  tagged?: boolean;
  /** a Python, Go, Java or Ruby file whose declarations were read into `symbols` (declarations.ts) */
  declared?: boolean;
}

/** A file the index considered (after include/exclude). */
export interface IndexedFile {
  path: string;
  /** git blob id, when known without reading the file (work-tree files are hashed on demand) */
  blob?: string;
  language?: CodeLanguage;
  /** false when the pre-filter found no tag in it (so it was never parsed) */
  candidate: boolean;
}
