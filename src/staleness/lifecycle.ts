import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import type { updateFrontmatter as UpdateFrontmatter } from '../artifacts/write.js';
import type { writeRecordStatus as WriteRecordStatus, statusOnItsLine as StatusOnItsLine, addAfterStatusLine as AddAfterStatusLine } from '../artifacts/record-status.js';
import type { Config } from '../config.js';
import { CtxError } from '../errors.js';
import { isAdoc } from '../artifacts/sources/adoc-file.js';

export interface LifecycleResult {
  id: string;
  file: string;
  changed: boolean;
  status?: string;
}

function checkStatus(config: Config, a: Artifact, status: string): void {
  const t = config.types[a.type];
  if (t && t.statuses.length && !t.statuses.includes(status)) {
    throw new CtxError('CONFIG', `type ${a.type} has no status "${status}" (configured: ${t.statuses.join(', ')})`, { file: a.file, hint: `add it to types.${a.type}.statuses in ${config.dir}/config.yaml` });
  }
}

function repoOnly(a: Artifact): void {
  if (a.origin !== 'repo') throw new CtxError('USAGE', `${a.id} is a global artifact; lifecycle changes are written only to repository artifacts`);
}

/**
 * The write path (eemeli/yaml, ~50 ms to load) is imported when a record is written, not by
 * the readers of this module (`trace`, `context`, the PR bot: successorOf), DEC-031.
 */
const updateFrontmatter: typeof UpdateFrontmatter = async (...args) => (await import('../artifacts/write.js')).updateFrontmatter(...args);
const writeRecordStatus: typeof WriteRecordStatus = async (...args) => (await import('../artifacts/record-status.js')).writeRecordStatus(...args);
const statusOnItsLine: typeof StatusOnItsLine = async (...args) => (await import('../artifacts/record-status.js')).statusOnItsLine(...args);
const addAfterStatusLine: typeof AddAfterStatusLine = async (...args) => (await import('../artifacts/record-status.js')).addAfterStatusLine(...args);

/**
 * Mark an artifact deprecated (status from the type's vocabulary), with an optional reason
 * written as `deprecated_reason`. Surgical: only those lines change. With `set`, a status line
 * takes the mark its folder writes before "Deprecated" (`⌛️ Deprecated`).
 */
export async function deprecateArtifact(root: string, config: Config, a: Artifact, reason?: string, set?: ArtifactSet): Promise<LifecycleResult> {
  repoOnly(a);
  checkStatus(config, a, 'deprecated');
  if (a.format === 'adr') {
    // a decision record keeps its format: the status line changes, the reason follows it
    if (a.status === 'deprecated') return { id: a.id, file: a.file, changed: false, status: 'deprecated' };
    const changed = await writeRecordStatus(root, a, 'deprecated', { suffix: reason?.trim() ? ` (${reason.trim().replace(/\s+/g, ' ')})` : '', ...(set ? { set } : {}) });
    return { id: a.id, file: a.file, changed, status: 'deprecated' };
  }
  const edits: Record<string, unknown> = { status: 'deprecated' };
  if (reason !== undefined && reason.trim()) edits.deprecated_reason = reason.trim();
  const r = await updateFrontmatter(path.join(root, a.file), edits);
  return { id: a.id, file: a.file, changed: r.changed, status: 'deprecated' };
}

/** The in-force status `activate` writes for a type: accepted, active or current, in that order. */
export function activeStatusFor(config: Config, type: string): string {
  const t = config.types[type];
  const vocab = t?.statuses ?? [];
  if (!vocab.length) return 'accepted';
  const pick = ['accepted', 'active', 'current', 'stable'].find((s) => vocab.includes(s) && !t!.inactive.includes(s));
  if (pick) return pick;
  throw new CtxError('CONFIG', `type ${type} has no in-force status to activate to (configured: ${vocab.join(', ')})`, { hint: 'pass --status' });
}

/**
 * Reverse `deprecate`: the status back to the type's in-force one (or `status`), and the
 * `deprecated_reason` removed (DEC-022: a reason on a record in force would read as
 * current; the history keeps it in git). A superseded record is refused: the record that
 * supersedes it says it is replaced. ADR-format records: only the status line changes (with
 * `set`, in the folder's mark for the status).
 */
export async function activateArtifact(root: string, config: Config, a: Artifact, status?: string, set?: ArtifactSet): Promise<LifecycleResult> {
  repoOnly(a);
  const target = status?.trim() || activeStatusFor(config, a.type);
  checkStatus(config, a, target);
  if ((config.types[a.type]?.inactive ?? []).includes(target)) throw new CtxError('USAGE', `${target} is not an in-force status of type ${a.type}`, { hint: `in force: ${(config.types[a.type]?.statuses ?? []).filter((s) => !config.types[a.type]!.inactive.includes(s)).join(', ')}` });
  if (a.status === 'superseded') throw new CtxError('USAGE', `${a.id} is superseded; activating it would leave two records in force`, { file: a.file, hint: 'deprecate or edit the record that supersedes it first, then set the status by hand' });
  if (a.format === 'adr') {
    if (a.status === target) return { id: a.id, file: a.file, changed: false, status: target };
    const changed = await writeRecordStatus(root, a, target, set ? { set } : {});
    return { id: a.id, file: a.file, changed, status: target };
  }
  const changed = await writeRecordStatus(root, a, target, { extra: [{ op: 'remove', path: 'deprecated_reason' }] });
  return { id: a.id, file: a.file, changed, status: target };
}

/**
 * `newer` supersedes `older`: the edge is written only on the newer record
 * (`relations.supersedes`, appended under the file lock so a concurrent edit is kept); the
 * older one gets `status: superseded`. The reverse edge (superseded_by) is computed.
 */
export async function supersedeArtifact(root: string, config: Config, set: ArtifactSet, older: Artifact, newer: Artifact): Promise<LifecycleResult[]> {
  repoOnly(older);
  repoOnly(newer);
  if (older.id === newer.id) throw new CtxError('USAGE', `${older.id} cannot supersede itself`);
  // a cycle would make both records claim to replace each other
  const seen = new Set<string>();
  const stack = [older.id];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === newer.id) throw new CtxError('USAGE', `${older.id} already (transitively) supersedes ${newer.id}; superseding it back would make a cycle`);
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(set.byId.get(id)?.relations.supersedes ?? []));
  }
  checkStatus(config, older, 'superseded');
  if (await statusOnItsLine(root, older)) {
    // an adr-tools record says it on its status line, as adr-tools writes it: "Superseded by
    // [3. Title](0003-title.md)" on the older one and, when the newer one has a status line too,
    // "Supersedes [2. Title](0002-title.md)" after it, so both records state it; neither gets
    // frontmatter its format does not have
    const linkTo = (from: Artifact, to: Artifact) => {
      const rel = path.posix.relative(path.posix.dirname(from.file), to.file);
      // an AsciiDoc record links as AsciiDoc does: xref: to a record of its kind, link: to another (DEC-128)
      if (isAdoc(from.file)) return `${isAdoc(to.file) ? 'xref' : 'link'}:${rel.replace(/ /g, '%20')}[${to.title.replace(/[[\]]/g, '')}]`;
      return `[${to.title.replace(/[[\]]/g, '')}](${rel.includes(' ') ? `<${rel}>` : rel})`;
    };
    const oldChanged = older.status === 'superseded' && (newer.relations.supersedes ?? []).includes(older.id) ? false : await writeRecordStatus(root, older, 'superseded', { suffix: ` by ${linkTo(older, newer)}`, set });
    const newChanged = (await statusOnItsLine(root, newer)) ? await addAfterStatusLine(root, newer, `Supersedes ${linkTo(newer, older)}`) : false;
    return [
      { id: newer.id, file: newer.file, changed: oldChanged || newChanged, status: newer.status },
      { id: older.id, file: older.file, changed: oldChanged, status: 'superseded' },
    ];
  }
  const rNew = await updateFrontmatter(path.join(root, newer.file), (cur) => {
    const rel = cur.relations && typeof cur.relations === 'object' && !Array.isArray(cur.relations) ? (cur.relations as Record<string, unknown>) : undefined;
    const topLevel = Array.isArray(cur.supersedes) || typeof cur.supersedes === 'string';
    const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
    // keep a record's own style: a top-level `supersedes:` stays top-level
    const keyPath = topLevel && !rel?.supersedes ? ['supersedes'] : ['relations', 'supersedes'];
    const existing = topLevel && !rel?.supersedes ? list(cur.supersedes) : list(rel?.supersedes);
    if (existing.includes(older.id)) return [];
    return [{ op: 'set', path: keyPath, value: [...existing, older.id] }];
  });
  const rOld = await updateFrontmatter(path.join(root, older.file), { status: 'superseded' });
  return [
    { id: newer.id, file: newer.file, changed: rNew.changed, status: newer.status },
    { id: older.id, file: older.file, changed: rOld.changed, status: 'superseded' },
  ];
}

/** The record that replaces a superseded one: the end of its `superseded by` chain. */
export interface Successor {
  /** the record in force now (the last of the chain) */
  id: string;
  title?: string;
  status?: string;
  file?: string;
  /** the records that supersede the one asked about directly */
  direct: string[];
  /** the chain from the record asked about to `id` (both excluded when direct) */
  via: string[];
}

const supersedersIndex = new WeakMap<ArtifactSet, Map<string, string[]>>();

/** Records that supersede `id` directly (the computed reverse of relations.supersedes), sorted. */
export function supersedersOf(set: ArtifactSet, id: string): string[] {
  let idx = supersedersIndex.get(set);
  if (!idx) {
    idx = new Map();
    for (const a of set.artifacts) {
      for (const old of a.relations.supersedes ?? []) {
        const l = idx.get(old) ?? [];
        if (!l.includes(a.id)) l.push(a.id);
        idx.set(old, l);
      }
    }
    for (const l of idx.values()) l.sort();
    supersedersIndex.set(set, idx);
  }
  return idx.get(id) ?? [];
}

/**
 * The successor of a superseded record: the record its `superseded by` chain ends at
 * (A superseded by B superseded by C → C, via B), so that every front end (trace, `for`,
 * bundles, the PR comment) can show what is in force next to, or instead of, what was
 * replaced. Undefined when nothing supersedes it. When several records supersede one,
 * the first (by id) is followed and all are listed in `direct`; cycles stop the walk.
 */
export function successorOf(set: ArtifactSet, id: string): Successor | undefined {
  const direct = supersedersOf(set, id);
  if (!direct.length) return undefined;
  const seen = new Set([id]);
  const via: string[] = [];
  let cur = direct[0]!;
  for (;;) {
    seen.add(cur);
    const next = supersedersOf(set, cur).find((x) => !seen.has(x));
    if (!next) break;
    via.push(cur);
    cur = next;
  }
  const a = set.byId.get(cur);
  return { id: cur, ...(a ? { title: a.title, ...(a.status !== undefined ? { status: a.status } : {}), file: a.file } : {}), direct, via };
}

/** One line for a successor: `superseded by DEC-9` or `superseded by DEC-8 → DEC-9 (in force)`. */
export function successorText(s: Successor): string {
  const chain = s.via.length ? `${s.direct[0]} → ${[...s.via.slice(1), s.id].join(' → ')}` : s.id;
  const others = s.direct.length > 1 ? ` (also ${s.direct.slice(1).join(', ')})` : '';
  return `superseded by ${chain}${others}`;
}
