// @spec SPEC-CODEGRAPH-001

import type { FileFacts, GraphCall, GraphDecl } from './types.js';
import { MODULE_SYMBOL } from './types.js';
import { RustResolver } from './resolve-rust.js';
import { base, dirOf, goModules, join, normalize } from './paths.js';

/** Where a local name leads: a whole module (`*`) or a symbol path inside one of `files`. */
interface Target {
  files: string[];
  name: string;
}

/** A resolved call edge: `[fromPath, fromSymbol, line, toPath, toSymbol]`. */
export type CallEdge = [string, string, number, string, string];

/** Resolves import specifiers to repository files, per language. */
export interface SpecResolver {
  /** TypeScript/JavaScript: the compiler's module resolution */
  ts(spec: string, from: string): string | undefined;
}

/**
 * Links per-file facts into a graph: each import resolved to files (TS through the
 * compiler, Python by module path with packages and relative imports, Go through go.mod
 * module paths to package directories, Java by package to files, Ruby `require_relative` by
 * path and `require` by a file ending in the path), then each call resolved through the
 * file's bindings, the same file, and the same package (Ruby: by constant, innermost lexical
 * scope first, as Ruby looks constants up; a file whose constants a Ruby file calls is one it
 * imports, since autoloading Rails code requires nothing).
 */
export class Linker {
  private readonly declSets = new Map<string, Map<string, GraphDecl>>();
  // per file: a method's last name -> its declared names, in declaration order (unique())
  private readonly methodTails = new Map<string, Map<string, string[]>>();
  // Python: dotted module suffix -> files
  private pyModules?: Map<string, string[]>;
  // Go: module path -> directory (from go.mod); directory -> non-test files
  private goMods?: [string, string][];
  private goDirs?: Map<string, string[]>;
  // Java: fully qualified class -> file; package -> files
  private javaClasses?: Map<string, string>;
  private javaPkgs?: Map<string, string[]>;
  // Ruby: qualified module/class name -> files that open it; `lib/a/b.rb`-style paths -> file
  private rubyConsts?: Map<string, string[]>;
  private rubyFiles?: Set<string>;
  private readonly rs: RustResolver;

  constructor(
    private readonly facts: Map<string, FileFacts>,
    private readonly resolver: SpecResolver,
    /** go.mod and Cargo.toml paths and their text (Go modules; a Cargo workspace's crates by name) */
    manifests: Map<string, string>,
  ) {
    this.rs = new RustResolver(facts, manifests);
    this.goMods = goModules(manifests);
  }

  private decls(path: string): Map<string, GraphDecl> {
    let m = this.declSets.get(path);
    if (!m) {
      m = new Map((this.facts.get(path)?.decls ?? []).map((d) => [d.name, d]));
      this.declSets.set(path, m);
    }
    return m;
  }

  private python(): Map<string, string[]> {
    if (this.pyModules) return this.pyModules;
    const m = new Map<string, string[]>();
    for (const [p, f] of this.facts) {
      if (f.lang !== 'python') continue;
      const segs = p.replace(/\.pyi?$/, '').split('/');
      if (segs[segs.length - 1] === '__init__') segs.pop();
      for (let k = 0; k < segs.length; k++) {
        const key = segs.slice(k).join('.');
        const list = m.get(key);
        if (list) list.push(p);
        else m.set(key, [p]);
      }
    }
    this.pyModules = m;
    return m;
  }

  /** A Python module path (absolute or with leading dots) imported from `from`. */
  private pyResolve(spec: string, from: string): string | undefined {
    const dots = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(dots);
    if (dots) {
      let dir = dirOf(from);
      for (let i = 1; i < dots; i++) dir = dirOf(dir);
      const stem = join(dir, rest.replace(/\./g, '/'));
      for (const c of [`${stem}.py`, `${stem}/__init__.py`, `${stem}.pyi`, `${stem}/__init__.pyi`]) if (this.facts.get(c)?.lang === 'python') return c;
      return undefined;
    }
    const list = this.python().get(rest);
    if (!list) return undefined;
    // a module path names a file from some source root: the one sharing most of the importer's directory wins
    const exact = list.filter((p) => p.replace(/(?:\/__init__)?\.pyi?$/, '').replace(/\//g, '.') === rest);
    if (exact.length) return exact[0];
    let best: string | undefined;
    let bestScore = -1;
    for (const p of list) {
      let i = 0;
      while (i < p.length && i < from.length && p[i] === from[i]) i++;
      if (i > bestScore || (i === bestScore && best !== undefined && p.length < best.length)) {
        best = p;
        bestScore = i;
      }
    }
    return best;
  }

  private go(): Map<string, string[]> {
    if (this.goDirs) return this.goDirs;
    const m = new Map<string, string[]>();
    for (const [p, f] of this.facts) {
      if (f.lang !== 'go' || p.endsWith('_test.go')) continue;
      const d = dirOf(p);
      const list = m.get(d);
      if (list) list.push(p);
      else m.set(d, [p]);
    }
    this.goDirs = m;
    return m;
  }

  private goResolve(spec: string): string[] | undefined {
    for (const [mod, dir] of this.goMods ?? []) {
      if (spec !== mod && !spec.startsWith(mod + '/')) continue;
      return this.go().get(join(dir, spec.slice(mod.length + 1)));
    }
    return undefined;
  }

  private java(): void {
    if (this.javaClasses) return;
    this.javaClasses = new Map();
    this.javaPkgs = new Map();
    for (const [p, f] of this.facts) {
      if (f.lang !== 'java') continue;
      const pkg = f.pkg ?? '';
      const list = this.javaPkgs.get(pkg);
      if (list) list.push(p);
      else this.javaPkgs.set(pkg, [p]);
      for (const d of f.decls) if (d.kind === 'class') this.javaClasses.set(pkg ? `${pkg}.${d.name}` : d.name, p);
      const own = base(p).replace(/\.java$/, '');
      if (!this.javaClasses.has(pkg ? `${pkg}.${own}` : own)) this.javaClasses.set(pkg ? `${pkg}.${own}` : own, p);
    }
  }

  /** The files a file imports and the names its imports bind. */
  private bindings(path: string, f: FileFacts): { imports: Set<string>; names: (local: string) => Target | undefined } {
    const imports = new Set<string>();
    const own = new Map<string, Target>();
    const names = own;
    const fallbacks: Map<string, Target>[] = [];
    const bind = (local: string, t: Target) => {
      if (local && !names.has(local)) names.set(local, t);
    };
    if (f.lang === 'typescript') {
      for (const imp of f.imports) {
        const to = this.resolver.ts(imp.spec, path);
        if (!to) continue;
        imports.add(to);
        for (const [local, imported] of imp.names) bind(local, { files: [to], name: imported });
      }
    } else if (f.lang === 'python') {
      for (const imp of f.imports) {
        const mod = this.pyResolve(imp.spec, path);
        if (mod) imports.add(mod);
        for (const [local, imported] of imp.names) {
          if (imported === '*' && local !== '*') {
            if (mod) bind(local, { files: [mod], name: '*' });
            continue;
          }
          if (local === '*') continue;
          // `from pkg import mod` binds a submodule when there is one
          const sub = this.pyResolve(imp.spec.endsWith('.') ? imp.spec + imported : `${imp.spec}.${imported}`, path);
          if (sub) {
            imports.add(sub);
            bind(local, { files: [sub], name: '*' });
          } else if (mod) bind(local, { files: [mod], name: imported });
        }
      }
    } else if (f.lang === 'go') {
      for (const imp of f.imports) {
        const files = this.goResolve(imp.spec);
        if (!files?.length) continue;
        for (const p of files) imports.add(p);
        const [alias] = imp.names[0] ?? [''];
        if (alias === '_' || alias === '.') continue;
        const local = alias || this.facts.get(files[0]!)?.pkg || base(imp.spec);
        bind(local, { files, name: '*' });
      }
      // the package's other files: same-package names need no import
    } else if (f.lang === 'java') {
      this.java();
      // single-type imports first, then the file's own package, then on-demand (`.*`) imports
      const onDemand: Map<string, Target>[] = [];
      for (const imp of f.imports) {
        if (imp.spec.endsWith('.*')) {
          const pkg = imp.spec.slice(0, -2);
          if (this.javaPkgs!.has(pkg)) {
            for (const p of this.javaPkgs!.get(pkg)!) imports.add(p);
            onDemand.push(this.packageNames(pkg));
          } else if (this.javaClasses!.has(pkg)) imports.add(this.javaClasses!.get(pkg)!);
          continue;
        }
        let cls = imp.spec;
        let member: string | undefined;
        if (imp.static) {
          member = cls.slice(cls.lastIndexOf('.') + 1);
          cls = cls.slice(0, cls.lastIndexOf('.'));
        }
        const p = this.javaClasses!.get(cls);
        if (!p) continue;
        imports.add(p);
        const simple = cls.slice(cls.lastIndexOf('.') + 1);
        const pkg = this.facts.get(p)!.pkg;
        const inFile = pkg && cls.startsWith(pkg + '.') ? cls.slice(pkg.length + 1) : simple;
        if (member) bind(member, { files: [p], name: `${inFile}.${member}` });
        else bind(simple, { files: [p], name: inFile });
      }
      fallbacks.push(this.packageNames(f.pkg ?? ''), ...onDemand);
    } else if (f.lang === 'ruby') {
      for (const imp of f.imports) {
        const to = this.rubyRequire(imp.spec, path);
        if (to) imports.add(to);
      }
    } else if (f.lang === 'rust') {
      for (const { file, local, name } of this.rs.bindingsOf(f, path)) {
        imports.add(file);
        if (local) bind(local, { files: [file], name });
      }
    }
    imports.delete(path);
    const lookup = (local: string) => {
      const t = own.get(local);
      if (t) return t;
      for (const m of fallbacks) {
        const u = m.get(local);
        // the file's own classes are found in the file itself
        if (u && !u.files.includes(path)) return u;
      }
      return undefined;
    };
    return { imports, names: lookup };
  }

  private pkgNames = new Map<string, Map<string, Target>>();

  /** Java: the top-level classes of a package by simple name. */
  private packageNames(pkg: string): Map<string, Target> {
    let m = this.pkgNames.get(pkg);
    if (!m) {
      m = new Map();
      for (const p of this.javaPkgs!.get(pkg) ?? []) {
        for (const d of this.facts.get(p)!.decls) if (d.kind === 'class' && !d.name.includes('.') && !m.has(d.name)) m.set(d.name, { files: [p], name: d.name });
      }
      this.pkgNames.set(pkg, m);
    }
    return m;
  }

  /** The file among `files` declaring `name` (following TS `export ... from` and default exports). */
  private find(files: string[], name: string, depth = 0): [string, string] | undefined {
    for (const p of files) {
      const f = this.facts.get(p);
      if (!f) continue;
      let n = name;
      if (f.lang === 'typescript' && (n === 'default' || n.startsWith('default.')) && f.defaultExport) n = f.defaultExport + n.slice('default'.length);
      if (this.decls(p).has(n)) return [p, n];
      if ((f.lang !== 'typescript' && f.lang !== 'python' && f.lang !== 'rust') || depth > 4) continue;
      const head = n.split('.')[0]!;
      for (const imp of f.imports) {
        if (!imp.reexports) continue;
        let inner: string | undefined;
        if (imp.reexports === '*') inner = head === 'default' ? undefined : n;
        else {
          const pair = imp.reexports.find(([exported]) => exported === head);
          if (pair && pair[1] !== '*') inner = pair[1] + n.slice(head.length);
          else if (pair && n !== head) inner = n.slice(head.length + 1);
        }
        if (inner === undefined) continue;
        const to = this.resolver.ts(imp.spec, p);
        const hit = to ? this.find([to], inner, depth + 1) : undefined;
        if (hit) return hit;
      }
      // a name imported and exported again (TS `import { x } from './a'; export { x }`, a
      // Python package's `from .config import load_settings` in its __init__)
      for (const imp of f.imports) {
        const pair = imp.names.find(([local]) => local === head);
        if (!pair) continue;
        const rs = f.lang === 'rust' ? this.rs.resolve(imp.spec, p) : undefined; // a `pub use` binds the item its path ends in
        const to = rs ? rs.file : f.lang === 'python' ? this.pyResolve(imp.spec, p) : this.resolver.ts(imp.spec, p);
        const inner = (rs?.name ?? pair[1]) === '*' ? n.slice(head.length + 1) : (rs?.name ?? pair[1]) + n.slice(head.length);
        const hit = to && inner ? this.find([to], inner, depth + 1) : undefined;
        if (hit) return hit;
      }
    }
    return undefined;
  }

  /** Files whose top-level names a file sees without importing them (Go: its package). */
  private siblings(path: string, f: FileFacts): string[] {
    if (f.lang === 'go') return (this.go().get(dirOf(path)) ?? []).filter((p) => this.facts.get(p)?.pkg === f.pkg);
    return [path];
  }

  /** The class enclosing a symbol (`A.m` -> `A`; Go `T.M` -> `T`). */
  private classOf(path: string, f: FileFacts, from: string): string | undefined {
    if (f.lang === 'go') return from.includes('.') ? from.slice(0, from.indexOf('.')) : undefined;
    const decls = this.decls(path);
    const parts = from.split('.');
    for (let k = parts.length; k > 0; k--) {
      const name = parts.slice(0, k).join('.');
      if (decls.get(name)?.kind === 'class') return name;
    }
    return undefined;
  }

  private resolveCall(path: string, f: FileFacts, call: GraphCall, names: (local: string) => Target | undefined, imports: Set<string>): [string, string] | undefined {
    if (f.lang === 'ruby') return this.rubyCall(path, f, call);
    const c = call.callee;
    const own = this.siblings(path, f);
    if (c[0] === 'this') {
      if (c.length < 2) return undefined;
      const cls = this.classOf(path, f, call.from);
      if (cls && c.length === 2) {
        const hit = this.find(own, `${cls}.${c[1]}`);
        if (hit) return hit;
      }
      return this.unique(c[c.length - 1]!, [...own, ...imports]);
    }
    for (let k = c.length; k > 0; k--) {
      const t = names(c.slice(0, k).join('.'));
      if (!t) continue;
      const rest = c.slice(k);
      const sym = t.name === '*' ? rest.join('.') : [t.name, ...rest].join('.');
      if (!sym) return undefined;
      const hit = this.find(t.files, sym);
      if (hit) return hit;
      return rest.length ? this.unique(c[c.length - 1]!, t.files) : undefined;
    }
    const hit = this.find(own, c.join('.'));
    if (hit) return hit;
    if (c.length === 1 && f.lang === 'java') {
      // an unqualified call inside a class: its own method or an outer class's
      const cls = this.classOf(path, f, call.from);
      for (let k = cls ? cls.split('.').length : 0; k > 0; k--) {
        const h = this.find(own, `${cls!.split('.').slice(0, k).join('.')}.${c[0]}`);
        if (h) return h;
      }
    }
    if (c.length === 1 && f.lang === 'python') {
      // a nested function called from its enclosing function
      const h = this.find(own, `${call.from}.${c[0]}`);
      if (h) return h;
    }
    return c.length >= 2 ? this.unique(c[c.length - 1]!, [...own, ...imports]) : undefined;
  }

  private rubyIndex(): Map<string, string[]> {
    if (this.rubyConsts) return this.rubyConsts;
    const m = new Map<string, string[]>();
    this.rubyFiles = new Set();
    for (const [p, f] of this.facts) {
      if (f.lang !== 'ruby') continue;
      this.rubyFiles.add(p);
      for (const d of f.decls) {
        if (d.kind !== 'class') continue;
        const list = m.get(d.name);
        if (!list) m.set(d.name, [p]);
        else if (!list.includes(p)) list.push(p);
      }
    }
    this.rubyConsts = m;
    return m;
  }

  /** A `require_relative` (spec `./...`) or `require` path to a repository file. */
  private rubyRequire(spec: string, from: string): string | undefined {
    this.rubyIndex();
    const files = this.rubyFiles!;
    const withExt = (p: string) => (p.endsWith('.rb') ? p : `${p}.rb`);
    if (spec.startsWith('./')) {
      const target = normalize(join(dirOf(from), spec.slice(2)));
      return target !== undefined && files.has(withExt(target)) ? withExt(target) : undefined;
    }
    const tail = withExt(spec);
    // a load path: `lib/` first, then any folder holding the path
    if (files.has(`lib/${tail}`)) return `lib/${tail}`;
    let best: string | undefined;
    for (const p of files) if ((p === tail || p.endsWith(`/${tail}`)) && (!best || p.length < best.length)) best = p;
    return best;
  }

  /** A Ruby call: `this.x` in the enclosing class; `A::B.x` by constant, innermost scope first; a bare top-level `x` in the file. */
  private rubyCall(path: string, f: FileFacts, call: GraphCall): [string, string] | undefined {
    const c = call.callee;
    if (c[0] === 'this') {
      if (c.length !== 2) return undefined;
      const cls = this.classOf(path, f, call.from);
      return (cls ? this.find([path], `${cls}.${c[1]}`) : undefined) ?? this.find([path], c[1]!);
    }
    let k = 0;
    while (k < c.length && /^[A-Z]/.test(c[k]!)) k++;
    if (!k) return c.length === 1 ? this.find([path], c[0]!) : undefined;
    const consts = this.rubyIndex();
    const scope = call.from === MODULE_SYMBOL ? [] : call.from.split('.');
    const rest = c.slice(k);
    for (let s = scope.length; s >= 0; s--) {
      const name = [...scope.slice(0, s), ...c.slice(0, k)].join('.');
      const files = consts.get(name);
      if (!files) continue;
      if (!rest.length) return [files[0]!, name];
      // `Foo.new` runs `Foo#initialize` when it has one, else it is the class itself
      if (rest.length === 1 && rest[0] === 'new') return this.find(files, `${name}.initialize`) ?? [files[0]!, name];
      return this.find(files, `${name}.${rest.join('.')}`);
    }
    return undefined;
  }

  /** The one method named `name` among some files, when exactly one declares it. */
  private unique(name: string, files: Iterable<string>): [string, string] | undefined {
    let hit: [string, string] | undefined;
    for (const p of new Set(files)) {
      for (const d of this.methodsNamed(p, name)) {
        if (hit) return undefined;
        hit = [p, d];
      }
    }
    return hit;
  }

  /**
   * A file's methods whose last name is `name` (`A.b.name`), in declaration order. Indexed once
   * per file: a Java file's every unresolved call asks this of each file it imports, and a
   * scan of their declarations per call was a tenth of a cold graph's time.
   */
  private methodsNamed(path: string, name: string): readonly string[] {
    let tails = this.methodTails.get(path);
    if (!tails) {
      tails = new Map();
      for (const d of this.facts.get(path)?.decls ?? []) {
        const dot = d.name.lastIndexOf('.');
        if (d.kind !== 'method' || dot < 0) continue;
        const tail = d.name.slice(dot + 1);
        const list = tails.get(tail);
        if (list) list.push(d.name);
        else tails.set(tail, [d.name]);
      }
      this.methodTails.set(path, tails);
    }
    return tails.get(name) ?? [];
  }

  /**
   * The files one file imports, as `link` gives them, without resolving its calls: only a Ruby
   * file's calls add imports (its constants), so a Ruby file is linked whole.
   */
  importsOf(path: string): string[] {
    const f = this.facts.get(path);
    if (!f) return [];
    if (f.lang === 'ruby') return this.link(path).imports;
    return [...this.bindings(path, f).imports].sort();
  }

  /** Imports and resolved calls of one file. */
  link(path: string): { imports: string[]; calls: CallEdge[] } {
    const f = this.facts.get(path);
    if (!f) return { imports: [], calls: [] };
    const { imports, names } = this.bindings(path, f);
    const calls: CallEdge[] = [];
    const seen = new Set<string>();
    for (const call of f.calls) {
      const hit = this.resolveCall(path, f, call, names, imports);
      if (!hit) continue;
      const key = `${call.from}\0${call.line}\0${hit[0]}\0${hit[1]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      calls.push([path, call.from, call.line, hit[0], hit[1]]);
      if (f.lang === 'ruby' && hit[0] !== path) imports.add(hit[0]);
    }
    return { imports: [...imports].sort(), calls };
  }
}
