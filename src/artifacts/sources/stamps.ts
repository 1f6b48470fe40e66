// @spec SPEC-SOURCES-001

import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Artifact, LoadProblem, Stamp } from '../types.js';
import { CtxError } from '../../errors.js';
import type { Snapshot } from '../../snapshot/types.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { containedPath, mkdirContained } from '../../util/contained.js';

/**
 * Stamps of records read in place (ADR folders), which git-ctx never rewrites: kept in
 * `<dir>/stamps.jsonl`, committed beside the configuration. One JSON line per record,
 * sorted by id, with a blank line between records: git merges edits of two different
 * records cleanly only when their lines are not adjacent (see DEC-029).
 */
export const STAMPS_FILE = 'stamps.jsonl';

/** A stamp as read from the sidecar, with the line it is written on. */
export interface SidecarStamp extends Stamp {
  line: number;
}

/** The sidecar's repository-relative path for a config directory. */
export function stampsPath(dir: string): string {
  return `${dir}/${STAMPS_FILE}`;
}

/**
 * Parse the sidecar. A malformed line is one problem naming the file and line; the other
 * lines still count (a merge conflict marker spoils only the records it touches).
 */
export function parseStamps(text: string, file: string): { stamps: Map<string, SidecarStamp>; problems: LoadProblem[] } {
  const stamps = new Map<string, SidecarStamp>();
  const problems: LoadProblem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (!l) continue;
    const line = i + 1;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      problems.push({ file, line, rule: 'stamps-malformed', message: `not a JSON object (one {"id", "commit", "fingerprints"} per line, written by git ctx stamp; resolve a merge conflict by keeping the newer stamp, or re-stamp)` });
      continue;
    }
    const o = v as { id?: unknown; commit?: unknown; fingerprints?: unknown };
    if (!o || typeof o !== 'object' || Array.isArray(o) || typeof o.id !== 'string' || !o.id) {
      problems.push({ file, line, rule: 'stamps-malformed', message: 'a stamp without an "id"' });
      continue;
    }
    const fps = o.fingerprints && typeof o.fingerprints === 'object' && !Array.isArray(o.fingerprints) ? Object.fromEntries(Object.entries(o.fingerprints as Record<string, unknown>).map(([k, x]) => [k, String(x)])) : undefined;
    if (stamps.has(o.id)) problems.push({ file, line, rule: 'stamps-malformed', message: `${o.id} is stamped twice (line ${stamps.get(o.id)!.line} and here); the later line counts` });
    stamps.set(o.id, { commit: typeof o.commit === 'string' ? o.commit : undefined, fingerprints: fps, line });
  }
  return { stamps, problems };
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One record's line: keys in a fixed order, fingerprints sorted (deterministic bytes). */
export function stampLine(id: string, s: Stamp): string {
  const fps = Object.fromEntries(Object.entries(s.fingerprints ?? {}).sort(([a], [b]) => byKey(a, b)));
  return JSON.stringify({ id, commit: s.commit, fingerprints: fps });
}

/** The whole sidecar: records sorted by id, a blank line between them. */
export function renderStamps(stamps: Map<string, Stamp>): string {
  const ids = [...stamps.keys()].sort(byKey);
  return ids.length ? ids.map((id) => stampLine(id, stamps.get(id)!)).join('\n\n') + '\n' : '';
}

/** The sidecar in a snapshot (absent: empty). */
export async function readSidecarStamps(snapshot: Snapshot, dir: string): Promise<{ stamps: Map<string, SidecarStamp>; problems: LoadProblem[] }> {
  const file = stampsPath(dir);
  const buf = await snapshot.read(file);
  return buf ? parseStamps(buf.toString('utf8'), file) : { stamps: new Map(), problems: [] };
}

/**
 * Give records read in place their stamp from the sidecar. Only `adr` records of the
 * repository: a frontmatter artifact keeps its stamp in its own frontmatter.
 */
export function attachSidecarStamps(artifacts: Artifact[], stamps: Map<string, SidecarStamp>, file: string): LoadProblem[] {
  if (!stamps.size) return [];
  const used = new Set<string>();
  for (const a of artifacts) {
    if (a.format !== 'adr' || a.origin !== 'repo') continue;
    const s = stamps.get(a.id);
    if (!s) continue;
    a.stamp = { commit: s.commit, fingerprints: s.fingerprints };
    used.add(a.id);
  }
  // a stamp no record takes (the record was renumbered, renamed or removed) would otherwise
  // be carried along unseen, and judge a later record that takes the id again
  const orphans: LoadProblem[] = [];
  for (const [id, s] of stamps) {
    if (used.has(id)) continue;
    orphans.push({ file, line: s.line, rule: 'stamps-orphaned', message: `${id} is stamped here, but no record read in place has that id (renumbered, renamed or removed?); delete the line, or stamp the record under its current id` });
  }
  return orphans.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/** Whether an artifact's stamp lives in the sidecar rather than in its own file. */
export function stampsInSidecar(a: Artifact): boolean {
  return a.format === 'adr';
}

/**
 * Write stamps of some records into the working tree's sidecar (and drop those of `remove`,
 * records that left it), keeping every other line (read from the working tree, so two stamps
 * in a row both land). Atomic; refuses to write outside the repository. Returns the text
 * before and after.
 */
export async function updateSidecarStamps(root: string, dir: string, updates: Map<string, Stamp>, opts: { dryRun?: boolean; remove?: ReadonlySet<string> } = {}): Promise<{ file: string; before: string; after: string; changed: boolean }> {
  const file = stampsPath(dir);
  const abs = await containedPath(root, file);
  const before = await readFile(abs, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw new CtxError('IO', `cannot read ${file}: ${e.message}`, { cause: e, file });
  });
  const { stamps, problems } = parseStamps(before, file);
  // rewriting would drop what could not be read (a half-resolved merge conflict): say where instead
  if (problems.length) throw new CtxError('USAGE', `${file}:${problems[0]!.line}: ${problems[0]!.message}`, { file, hint: 'fix or remove that line, then stamp again' });
  const merged = new Map<string, Stamp>([...stamps].map(([id, s]) => [id, { commit: s.commit, fingerprints: s.fingerprints }]));
  for (const [id, s] of updates) merged.set(id, s);
  for (const id of opts.remove ?? []) merged.delete(id);
  const after = renderStamps(merged);
  const changed = after !== before;
  if (changed && !opts.dryRun) {
    await mkdirContained(root, path.posix.dirname(file));
    await writeFileAtomic(abs, after);
  }
  return { file, before, after, changed };
}
