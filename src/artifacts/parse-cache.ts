import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ctxDir } from '../git/git-dir.js';
import type { Artifact, LoadProblem } from './types.js';

/** Bump when parseArtifact's output changes shape or meaning. */
export const PARSE_CACHE_VERSION = 3;

type Cached = { a?: Omit<Artifact, 'file' | 'origin'>; p: Omit<LoadProblem, 'file'>[] };

/**
 * Parsed artifacts keyed by git blob id, under `<git-dir>/ctx/cache/artifacts.json`.
 * A warm run reads one JSON file instead of reading and parsing every artifact; the blob
 * id of an unchanged file is known from the index, so nothing is hashed either.
 * Corrupt, old-version or unwritable caches are ignored: the cache only ever saves time.
 */
export class ParseCache {
  private entries = new Map<string, Cached>();
  private used = new Set<string>();
  private dirty = false;
  private constructor(private readonly file: string | undefined) {}

  static async open(root: string): Promise<ParseCache> {
    const file = process.env.GIT_CTX_NO_CACHE === '1' ? undefined : ctxDir(root, 'cache', 'artifacts.json');
    const c = new ParseCache(file);
    if (!file) return c;
    try {
      const data = JSON.parse(await readFile(file, 'utf8')) as { tool?: string; version?: number; entries?: Record<string, Cached> };
      if (data.tool === 'git-ctx/artifacts' && data.version === PARSE_CACHE_VERSION && data.entries) {
        for (const [k, v] of Object.entries(data.entries)) c.entries.set(k, v);
      }
    } catch {
      /* absent or unreadable: start empty */
    }
    return c;
  }

  get(blob: string, file: string, origin: 'repo' | 'global'): { artifact?: Artifact; problems: LoadProblem[] } | undefined {
    const v = this.entries.get(blob);
    if (!v) return undefined;
    this.used.add(blob);
    return { artifact: v.a ? ({ ...v.a, file, origin } as Artifact) : undefined, problems: v.p.map((p) => ({ ...p, file })) };
  }

  set(blob: string, artifact: Artifact | undefined, problems: LoadProblem[]): void {
    let a: Cached['a'];
    if (artifact) {
      const { file: _f, origin: _o, ...rest } = artifact;
      a = rest;
    }
    this.entries.set(blob, { a, p: problems.map(({ file: _f, ...rest }) => rest) });
    this.used.add(blob);
    this.dirty = true;
  }

  /** Write when something changed; keeps this run's entries plus a bounded number of others. */
  async save(): Promise<void> {
    if (!this.file || !this.dirty) return;
    const out: Record<string, Cached> = {};
    for (const k of this.used) out[k] = this.entries.get(k)!;
    let extra = Math.max(5000, this.used.size);
    for (const [k, v] of this.entries) {
      if (extra <= 0) break;
      if (!(k in out)) {
        out[k] = v;
        extra--;
      }
    }
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify({ tool: 'git-ctx/artifacts', version: PARSE_CACHE_VERSION, entries: out }));
      await rename(tmp, this.file);
    } catch {
      /* read-only checkout (CI, Action): the cache is an optimisation only */
    }
  }
}
