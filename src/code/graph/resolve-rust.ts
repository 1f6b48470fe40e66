// @spec SPEC-CODEGRAPH-001

import type { FileFacts } from './types.js';
import { dirOf, join } from './paths.js';

/** A Rust path's end in the repository: a module file (`name` `*`) or an item declared in one. */
export interface RustTarget {
  file: string;
  name: string;
}

interface Crate {
  /** the crate's name as code spells it (`tendermint_rpc` for package `tendermint-rpc`) */
  name: string;
  /** folder of its Cargo.toml */
  dir: string;
}

/** `[package] name` and `[lib] name` of a Cargo.toml; undefined for a virtual workspace manifest. */
function crateName(toml: string): string | undefined {
  let section = '';
  let pkg: string | undefined;
  let lib: string | undefined;
  for (const raw of toml.split('\n')) {
    const l = raw.replace(/#.*$/, '').trim();
    const head = /^\[([^\]]+)\]$/.exec(l);
    if (head) {
      section = head[1]!.trim();
      continue;
    }
    const m = /^name\s*=\s*["']([^"']+)["']/.exec(l);
    if (m && section === 'package') pkg = m[1];
    if (m && section === 'lib') lib = m[1];
  }
  const name = lib ?? pkg;
  return name?.replace(/-/g, '_');
}

/**
 * Resolves Rust `use` paths and `mod x;` items to repository files. Each Cargo.toml with a
 * `[package]` is a crate (the members of a Cargo workspace included: a crate names another by
 * its package name, dashes as underscores); a file's module path is its place under the crate's
 * `src/` (`src/client/transport.rs` and `src/client/transport/mod.rs` are `client::transport`,
 * `lib.rs`/`main.rs` the root; a file outside `src/`, a test or an example, is a root of its
 * own). `crate::`, `self::`, `super::` and another crate's name lead the path; a plain first
 * segment is a child module of the importing one (Rust 2018 paths). The longest prefix that is
 * a module file wins, and the segment after it is an item of that file; a module the crate
 * re-exports (`pub use client::Client` in lib.rs) is followed by the linker, as Python's are.
 */
export class RustResolver {
  private readonly crates: Crate[] = [];
  private readonly files = new Set<string>();

  constructor(facts: Map<string, FileFacts>, manifests: Map<string, string>) {
    for (const [p, f] of facts) if (f.lang === 'rust') this.files.add(p);
    for (const [p, text] of manifests) {
      if (p !== 'Cargo.toml' && !p.endsWith('/Cargo.toml')) continue;
      const name = crateName(text);
      if (name) this.crates.push({ name, dir: dirOf(p) });
    }
    // the innermost crate owns a file: longest folder first
    this.crates.sort((a, b) => b.dir.length - a.dir.length);
  }

  /**
   * The source root and module segments of a file; `rootFile` when the file is a crate root
   * (lib.rs, main.rs, a binary under src/bin/, a test or example outside src/).
   */
  private moduleOf(path: string): { root: string; segs: string[]; rootFile?: string } {
    const crate = this.crates.find((c) => c.dir === '' || path.startsWith(c.dir + '/'));
    const src = join(crate?.dir ?? '', 'src');
    if (!crate || !path.startsWith(src + '/')) return { root: dirOf(path), segs: [], rootFile: path };
    const segs = path.slice(src.length + 1).replace(/\.rs$/, '').split('/');
    if (segs[0] === 'bin' || (segs.length === 1 && (segs[0] === 'lib' || segs[0] === 'main'))) return { root: dirOf(path), segs: [], rootFile: path };
    if (segs[segs.length - 1] === 'mod') segs.pop();
    return { root: src, segs };
  }

  /** The file of module `segs` under a source root, if the repository has it. */
  private moduleFile(root: string, segs: string[], rootFile?: string): string | undefined {
    if (!segs.length) {
      if (rootFile) return rootFile;
      for (const c of ['lib.rs', 'main.rs']) if (this.files.has(join(root, c))) return join(root, c);
      return undefined;
    }
    const stem = join(root, segs.join('/'));
    for (const c of [`${stem}.rs`, `${stem}/mod.rs`]) if (this.files.has(c)) return c;
    return undefined;
  }

  /** A Rust file's imports resolved: the file each leads to, the local name it binds (none for a glob) and the item. */
  bindingsOf(f: FileFacts, from: string): { file: string; local?: string; name: string }[] {
    const out: { file: string; local?: string; name: string }[] = [];
    for (const imp of f.imports) {
      const t = this.resolve(imp.spec, from);
      if (!t) continue;
      const named = imp.names.filter(([local]) => local !== '*');
      if (!named.length) out.push({ file: t.file, name: t.name });
      for (const [local] of named) out.push({ file: t.file, local, name: t.name });
    }
    return out;
  }

  /** Where `spec` (a `::`-joined path as written in `from`) leads, or undefined (std, an outside crate). */
  resolve(spec: string, from: string): RustTarget | undefined {
    const path = spec.split('::').filter(Boolean);
    if (!path.length) return undefined;
    const here = this.moduleOf(from);
    let { root, rootFile } = here;
    let segs = [...here.segs];
    let rest: string[];
    const head = path[0]!;
    if (head === 'crate') {
      segs = [];
      rest = path.slice(1);
    } else if (head === 'self' || head === 'super') {
      let i = 0;
      for (; path[i] === 'self' || path[i] === 'super'; i++) {
        if (path[i] !== 'super') continue;
        if (!segs.length) return undefined;
        segs.pop();
      }
      rest = path.slice(i);
    } else if (this.moduleFile(root, [...segs, head])) rest = path;
    else {
      // another crate of the workspace, by the name its code spells
      const other = this.crates.find((c) => c.name === head);
      if (!other) return undefined;
      root = join(other.dir, 'src');
      rootFile = undefined;
      segs = [];
      rest = path.slice(1);
    }
    // the longest run of segments naming a module file; what follows is an item in it
    let file = this.moduleFile(root, segs, rootFile);
    let used = 0;
    for (let k = 1; k <= rest.length; k++) {
      const f = this.moduleFile(root, [...segs, ...rest.slice(0, k)]);
      if (f) {
        file = f;
        used = k;
      }
    }
    if (!file) return undefined;
    const item = rest.slice(used);
    return { file, name: item.length ? item.join('.') : '*' };
  }
}
