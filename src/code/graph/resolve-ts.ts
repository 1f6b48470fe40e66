// @spec SPEC-CODEGRAPH-001

import type { ts as TsNamespace } from 'ts-morph';
import { dirOf, join } from './paths.js';

type TS = typeof TsNamespace;

const CONFIG_RE = /(?:^|\/)(?:tsconfig(?:\.[^/]*)?|jsconfig)\.json$/;
const NEAREST_CONFIG = ['tsconfig.json', 'jsconfig.json'];
const SOURCE_EXT = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const OUTPUT_EXT = /(?:\.d)?\.(?:[cm]?[jt]sx?)$/;

export const isTsConfigPath = (p: string) => CONFIG_RE.test(p);
export const isPackageJsonPath = (p: string) => p === 'package.json' || p.endsWith('/package.json');

/**
 * TypeScript module resolution over a snapshot's file list: the compiler's own
 * `resolveModuleName` with each file's nearest tsconfig (`paths`, `baseUrl`, `extends`,
 * moduleResolution node16/bundler with package `exports`), a host that answers from the
 * snapshot (nothing read from the disk beyond it), workspace packages found by their
 * package.json `name` standing in for `node_modules/<name>`, and build outputs (a
 * referenced project's `outDir`, a workspace package's `dist/`) mapped back to their sources.
 */
export class TsResolver {
  private readonly dirs = new Set<string>();
  private readonly workspaces = new Map<string, string>();
  /** build output folder -> the source folders it is built from (looked up by a path's folders: a monorepo has hundreds) */
  private readonly outMaps = new Map<string, string[]>();
  private readonly configs = new Map<string, { options: TsNamespace.CompilerOptions; cache: TsNamespace.ModuleResolutionCache } | undefined>();
  private readonly nearest = new Map<string, string | undefined>();
  private readonly host: TsNamespace.ModuleResolutionHost;
  private readonly prefix: string;

  constructor(
    private readonly ts: TS,
    root: string,
    private readonly files: Set<string>,
    /** text of every tsconfig/jsconfig and package.json of the snapshot */
    private readonly texts: Map<string, string>,
  ) {
    this.prefix = root.replace(/\\/g, '/').replace(/\/$/, '') + '/';
    for (const f of files) {
      for (let d = dirOf(f); d && !this.dirs.has(d); d = dirOf(d)) this.dirs.add(d);
    }
    for (const [p, text] of texts) {
      if (!isPackageJsonPath(p)) continue;
      try {
        const name = (JSON.parse(text) as { name?: unknown }).name;
        if (typeof name === 'string' && name && !this.workspaces.has(name)) this.workspaces.set(name, dirOf(p));
      } catch {
        /* a broken package.json names no package */
      }
    }
    for (const dir of this.workspaces.values()) {
      if (!this.dirs.has(join(dir, 'src'))) continue;
      for (const out of ['dist', 'lib', 'build', 'out']) this.addOut(join(dir, out), join(dir, 'src'));
    }
    const rel = (abs: string) => (abs.startsWith(this.prefix) ? abs.slice(this.prefix.length) : undefined);
    this.host = {
      fileExists: (abs) => {
        const r = rel(abs);
        return r !== undefined && this.real(r) !== undefined;
      },
      readFile: (abs) => {
        const r = rel(abs);
        const real = r === undefined ? undefined : this.real(r);
        return real === undefined ? undefined : this.texts.get(real);
      },
      directoryExists: (abs) => {
        const r = rel(abs.replace(/\/$/, ''));
        if (r === undefined) return abs.replace(/\/$/, '') + '/' === this.prefix;
        return this.dirExists(r);
      },
      realpath: (abs) => {
        const r = rel(abs);
        const real = r === undefined ? undefined : this.real(r);
        return real === undefined ? abs : this.prefix + real;
      },
      getCurrentDirectory: () => this.prefix,
      useCaseSensitiveFileNames: true,
    };
    // output → source maps of every config with an outDir (project references build there)
    for (const p of texts.keys()) {
      if (!isTsConfigPath(p)) continue;
      const cfg = this.config(p);
      const out = cfg?.options.outDir;
      if (!out) continue;
      const o = rel(out.replace(/\\/g, '/'));
      const rootDir = cfg.options.rootDir ? rel(cfg.options.rootDir.replace(/\\/g, '/')) : this.dirs.has(join(dirOf(p), 'src')) ? join(dirOf(p), 'src') : dirOf(p);
      if (o !== undefined && rootDir !== undefined && o !== rootDir) this.addOut(o, rootDir);
    }
  }

  private addOut(out: string, src: string): void {
    const srcs = this.outMaps.get(out);
    if (!srcs) this.outMaps.set(out, [src]);
    else if (!srcs.includes(src)) srcs.push(src);
  }

  private dirExists(r: string): boolean {
    if (r === '' || this.dirs.has(r)) return true;
    const nm = r.lastIndexOf('node_modules');
    if (nm >= 0 && (nm === 0 || r[nm - 1] === '/')) {
      const rest = r.slice(nm + 'node_modules'.length + 1);
      if (!rest) return this.workspaces.size > 0;
      for (const name of this.workspaces.keys()) if (name === rest || name.startsWith(rest + '/')) return true;
      const mapped = this.viaWorkspace(rest);
      return mapped !== undefined && (mapped === '' || this.dirs.has(mapped));
    }
    for (let d = r; d; d = dirOf(d)) if (this.outMaps.has(d)) return true;
    return false;
  }

  private viaWorkspace(rest: string): string | undefined {
    const segs = rest.split('/');
    const name = segs[0]!.startsWith('@') ? segs.slice(0, 2).join('/') : segs[0]!;
    const dir = this.workspaces.get(name);
    if (dir === undefined) return undefined;
    return join(dir, rest.slice(name.length + 1));
  }

  /** The snapshot path a (possibly virtual) path stands for, or undefined. */
  real(r: string): string | undefined {
    if (this.files.has(r) || this.texts.has(r)) return r;
    const nm = r.lastIndexOf('node_modules/');
    if (nm >= 0 && (nm === 0 || r[nm - 1] === '/')) {
      const mapped = this.viaWorkspace(r.slice(nm + 'node_modules/'.length));
      return mapped === undefined ? undefined : this.real(mapped);
    }
    // the output folders holding r, nearest first
    for (let d = dirOf(r); d; d = dirOf(d)) {
      for (const src of this.outMaps.get(d) ?? []) {
        const stem = join(src, r.slice(d.length + 1)).replace(OUTPUT_EXT, '');
        for (const ext of SOURCE_EXT) if (this.files.has(stem + ext)) return stem + ext;
      }
    }
    return undefined;
  }

  private config(p: string): { options: TsNamespace.CompilerOptions; cache: TsNamespace.ModuleResolutionCache } | undefined {
    if (this.configs.has(p)) return this.configs.get(p);
    const { ts } = this;
    let options: TsNamespace.CompilerOptions = {};
    const text = this.texts.get(p);
    if (text !== undefined) {
      const json = ts.parseConfigFileTextToJson(this.prefix + p, text);
      if (json.config) {
        const parsed = ts.parseJsonConfigFileContent(
          json.config,
          { useCaseSensitiveFileNames: true, readDirectory: () => [], fileExists: this.host.fileExists, readFile: this.host.readFile },
          this.prefix + dirOf(p),
          undefined,
          this.prefix + p,
        );
        options = parsed.options;
      }
    }
    const res = ts.ModuleResolutionKind;
    if (!options.moduleResolution) {
      const mod = options.module;
      options.moduleResolution = mod === ts.ModuleKind.Node16 ? res.Node16 : mod === ts.ModuleKind.NodeNext ? res.NodeNext : res.Bundler;
      if (options.moduleResolution === res.Bundler && mod !== undefined && mod !== ts.ModuleKind.ESNext && mod !== ts.ModuleKind.ES2022 && mod !== ts.ModuleKind.ES2020 && mod !== ts.ModuleKind.ES2015 && mod !== ts.ModuleKind.Preserve) options.module = ts.ModuleKind.ESNext;
    } else if (options.moduleResolution === res.Classic) options.moduleResolution = res.Bundler;
    if (options.moduleResolution === res.Bundler && options.module === undefined) options.module = ts.ModuleKind.ESNext;
    options.allowJs = true;
    options.noDtsResolution = false;
    const entry = { options, cache: ts.createModuleResolutionCache(this.prefix, (x) => x, options) };
    this.configs.set(p, entry);
    return entry;
  }

  private configFor(dir: string): string | undefined {
    if (this.nearest.has(dir)) return this.nearest.get(dir);
    let found: string | undefined;
    for (const name of NEAREST_CONFIG) {
      const p = join(dir, name);
      if (this.texts.has(p)) {
        found = p;
        break;
      }
    }
    if (!found && dir) found = this.configFor(dirOf(dir));
    this.nearest.set(dir, found);
    return found;
  }

  private packageType(dir: string): string | undefined {
    for (let d = dir; ; d = dirOf(d)) {
      const t = this.texts.get(join(d, 'package.json'));
      if (t !== undefined) {
        try {
          const type = (JSON.parse(t) as { type?: unknown }).type;
          return typeof type === 'string' ? type : undefined;
        } catch {
          return undefined;
        }
      }
      if (!d) return undefined;
    }
  }

  /** The snapshot file an import of `spec` from `from` resolves to, or undefined (external, missing). */
  resolve(spec: string, from: string): string | undefined {
    const { ts } = this;
    const cfgPath = this.configFor(dirOf(from));
    const cfg = cfgPath ? this.config(cfgPath) : this.defaultConfig();
    if (!cfg) return undefined;
    const res = cfg.options.moduleResolution;
    let mode: TsNamespace.ResolutionMode;
    if (res === ts.ModuleResolutionKind.Node16 || res === ts.ModuleResolutionKind.NodeNext) {
      mode = /\.m[jt]s$/.test(from) ? ts.ModuleKind.ESNext : /\.c[jt]s$/.test(from) ? ts.ModuleKind.CommonJS : this.packageType(dirOf(from)) === 'module' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS;
    }
    const r = ts.resolveModuleName(spec, this.prefix + from, cfg.options, this.host, cfg.cache, undefined, mode);
    const file = r.resolvedModule?.resolvedFileName;
    if (!file || !file.startsWith(this.prefix)) return undefined;
    const real = this.real(file.slice(this.prefix.length));
    return real !== undefined && this.files.has(real) ? real : undefined;
  }

  private defaultEntry: { options: TsNamespace.CompilerOptions; cache: TsNamespace.ModuleResolutionCache } | undefined;
  private defaultConfig() {
    if (!this.defaultEntry) {
      const options: TsNamespace.CompilerOptions = { moduleResolution: this.ts.ModuleResolutionKind.Bundler, module: this.ts.ModuleKind.ESNext, allowJs: true };
      this.defaultEntry = { options, cache: this.ts.createModuleResolutionCache(this.prefix, (x) => x, options) };
    }
    return this.defaultEntry;
  }
}
