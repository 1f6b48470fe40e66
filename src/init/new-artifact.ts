import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import { editFrontmatterText, type FrontmatterEdit } from '../artifacts/write.js';
import { ID_PATTERN } from '../artifacts/types.js';
import { closeMatches } from '../util/close-match.js';
import { typeForId, type Config } from '../config.js';
import { CtxError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic.js';
import { containedPath, isReservedFileName, mkdirContained } from '../util/contained.js';

export interface NewArtifactOptions {
  type: string;
  /** explicit id; default: the next free id for the type's prefix (and domain) */
  id?: string;
  title?: string;
  status?: string;
  /** domain, also used in the id: --domain billing → DEC-BILLING-004 */
  domain?: string;
  /** ids to link, grouped under links.<kind> by their type */
  links?: string[];
  /** creation date (default: today, UTC) */
  now?: Date;
  /** filled content (git ctx add): summary, paths, keywords, scope and the body's sections */
  content?: NewArtifactContent;
  /** say what would be written (id, file, text) and write nothing */
  dryRun?: boolean;
}

/** Content for a new artifact instead of the empty placeholders. */
export interface NewArtifactContent {
  summary?: string;
  paths?: string[];
  keywords?: string[];
  scope?: string;
  /** written as `domain:` without changing the id (unlike NewArtifactOptions.domain) */
  domain?: string;
  /** body sections after the title, in order: heading → text */
  sections?: [string, string][];
  /** confirmations (`confirm:` entries, DEC-052) */
  confirm?: Record<string, string>[];
  /** provenance keys written after `created` (owner, source, session_id, commit, confidence) */
  provenance?: Record<string, string>;
}

export interface NewArtifactResult {
  id: string;
  type: string;
  /** repository-relative path of the created file */
  file: string;
  /** absolute path */
  abs: string;
  /** the file's text (as written, or as it would be on a dry run) */
  text: string;
}

/** The id prefix for a type and optional domain: DEC, or DEC-BILLING with --domain billing. */
export function idPrefix(config: Config, type: string, domain?: string): string {
  const t = config.types[type];
  if (!t) throw new CtxError('USAGE', `unknown type ${type}`);
  if (!domain) return t.prefix;
  const seg = domain.trim().toUpperCase().replace(/[^A-Z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (!seg) throw new CtxError('USAGE', `domain ${JSON.stringify(domain)} has no letters or digits to use in an id`);
  return `${t.prefix}-${seg}`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The next free id `<prefix>-<n>` after the highest number in use. `taken` holds every
 * id and file base name in the set; numbers are read from ids like DEC-003 and from the
 * last segment of path-like ids (`billing/DEC-003`). Zero padding follows the widest
 * existing number (3 when there is none). Ids and names compare case-insensitively,
 * because file systems often do.
 */
export function nextId(prefix: string, taken: Iterable<string>): string {
  const re = new RegExp(`^${escapeRe(prefix)}-(\\d+)$`, 'i');
  const all = new Set<string>();
  let max = 0;
  let width = 0;
  for (const raw of taken) {
    const t = raw.split('/').pop()!.replace(/\.md$/i, '');
    all.add(t.toLowerCase());
    const m = re.exec(t);
    if (!m) continue;
    width = Math.max(width, m[1]!.length);
    max = Math.max(max, Number(m[1]));
  }
  width ||= 3;
  for (let n = max + 1; ; n++) {
    const id = `${prefix}-${String(n).padStart(width, '0')}`;
    if (!all.has(id.toLowerCase())) return id;
  }
}

/** Preferred starting status per vocabulary: the first of these that the type allows. */
const INITIAL_STATUS = ['proposed', 'draft', 'todo'];

function initialStatus(statuses: string[]): string | undefined {
  return INITIAL_STATUS.find((s) => statuses.includes(s)) ?? statuses[0];
}

/** Section headings each kind of artifact usually needs, so new files start with the right shape. */
const BODY_SECTIONS: Record<string, string[]> = {
  decision: ['Context', 'Decision', 'Consequences'],
  spec: ['Behaviour', 'Rules'],
  norm: ['Rule', 'Why'],
  task: ['Goal', 'Acceptance'],
  principle: ['Principle', 'Why'],
  procedure: ['Steps'],
};

/** The markdown of a new artifact. Frontmatter goes through the same serialiser as every write. */
export function renderNewArtifact(o: { id: string; type: string; title: string; status?: string; domain?: string; links: Record<string, string[]>; created: string; content?: NewArtifactContent }): string {
  const c = o.content;
  const sections = c?.sections ?? (BODY_SECTIONS[o.type] ?? []).map((s): [string, string] => [s, '']);
  const body = `# ${o.title}\n\n${sections.map(([h, t]) => `## ${h}\n\n${t.trim() ? `${t.trim()}\n\n` : ''}`).join('')}`.replace(/\n\n$/, '\n');
  const edits: FrontmatterEdit[] = [
    { op: 'set', path: 'id', value: o.id },
    { op: 'set', path: 'type', value: o.type },
    { op: 'set', path: 'title', value: o.title },
  ];
  if (o.status) edits.push({ op: 'set', path: 'status', value: o.status });
  if (c?.scope) edits.push({ op: 'set', path: 'scope', value: c.scope });
  if (o.domain || c?.domain) edits.push({ op: 'set', path: 'domain', value: o.domain || c?.domain });
  if (Object.keys(o.links).length) edits.push({ op: 'set', path: ['links'], value: o.links });
  // placeholders people (and agents) fill in: what shows at meta depth, and the code it governs
  edits.push({ op: 'set', path: 'summary', value: c?.summary ?? '' });
  if (c?.keywords?.length) edits.push({ op: 'set', path: 'keywords', value: c.keywords });
  edits.push({ op: 'set', path: 'paths', value: c?.paths ?? [] }, { op: 'set', path: 'anchors', value: [] });
  edits.push({ op: 'set', path: 'created', value: o.created });
  if (c?.confirm?.length) edits.push({ op: 'set', path: 'confirm', value: c.confirm });
  for (const [k, v] of Object.entries(c?.provenance ?? {})) if (v) edits.push({ op: 'set', path: k, value: v });
  return editFrontmatterText(`---\n---\n${body}`, edits);
}

/** Group link ids under `links.<kind>` (specs, decisions, norms, tasks, …) by the linked artifact's type. */
function groupLinks(set: ArtifactSet, ids: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const raw of ids.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean)) {
    const a = set.byId.get(raw);
    if (!a) {
      const near = closeMatches(raw, [...set.byId.keys()]);
      throw new CtxError('UNKNOWN_ID', `cannot link ${raw}: no artifact has that id`, { hint: near.length ? `did you mean ${near.join(', ')}?` : 'run git ctx list to see the ids' });
    }
    const kind = a.type.endsWith('y') ? `${a.type.slice(0, -1)}ies` : `${a.type}s`;
    const list = (out[kind] ??= []);
    if (!list.includes(a.id)) list.push(a.id);
  }
  return out;
}

/** Every id and every file base name under the artifact folder: none of them may be reused. */
async function takenNames(set: ArtifactSet): Promise<string[]> {
  const names = set.artifacts.map((a) => a.id);
  for (const e of await set.snapshot.listUnder(set.config.dir)) names.push(path.posix.basename(e.path));
  for (const p of set.problems) names.push(path.posix.basename(p.file));
  return names;
}

/**
 * Create a new artifact file in its type's folder with the next free id. The file is
 * created with link(2) (createOnly), so a concurrent `new` can never overwrite it; on a
 * collision the next number is tried.
 */
export async function createArtifact(set: ArtifactSet, opts: NewArtifactOptions): Promise<NewArtifactResult> {
  const { config } = set;
  const t = config.types[opts.type];
  const creatable = Object.keys(config.types).filter((k) => k !== 'identity');
  if (!t || opts.type === 'identity') {
    throw new CtxError('USAGE', opts.type === 'identity' ? 'identity is created by git ctx init, not by new' : `unknown type ${JSON.stringify(opts.type)}`, {
      hint: `types: ${creatable.join(', ')}`,
    });
  }
  if (opts.status !== undefined && t.statuses.length && !t.statuses.includes(opts.status)) {
    throw new CtxError('USAGE', `unknown status ${JSON.stringify(opts.status)} for type ${opts.type}`, { hint: `expected one of ${t.statuses.join(', ')}` });
  }
  const links = groupLinks(set, opts.links ?? []);
  const taken = await takenNames(set);
  if (opts.id !== undefined) {
    if (!ID_PATTERN.test(opts.id)) throw new CtxError('USAGE', `invalid id ${JSON.stringify(opts.id)}: use letters, digits, "-", "_", "." (e.g. DEC-BILLING-001) or path-like segments`);
    if (isReservedFileName(opts.id)) throw new CtxError('USAGE', `invalid id ${JSON.stringify(opts.id)}: ${opts.id.split('/').pop()} is a reserved file name on Windows (CON, PRN, AUX, NUL, COM1–9, LPT1–9)`);
    const owner = set.byId.get(opts.id);
    if (owner) throw new CtxError('EXISTS', `id ${opts.id} already exists in ${owner.file}`);
    const other = typeForId(config, opts.id);
    if (other && other !== opts.type) throw new CtxError('USAGE', `id ${opts.id} has the prefix of type ${other}, not ${opts.type}`);
  }
  const created = (opts.now ?? new Date()).toISOString().slice(0, 10);
  const prefix = idPrefix(config, opts.type, opts.domain);
  const extra: string[] = [];
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = opts.id ?? nextId(prefix, [...taken, ...extra]);
    const file = path.posix.join(config.dir, t.dir, `${id}.md`);
    const abs = path.join(set.snapshot.root, ...file.split('/'));
    const status = opts.status ?? initialStatus(t.statuses);
    const text = renderNewArtifact({ id, type: opts.type, title: opts.title?.trim() || `Untitled ${opts.type}`, status, domain: opts.domain, links, created, content: opts.content });
    // contained (SPEC-HOSTILE-001): a config `dir: ../..` or a linked folder must not write outside
    await containedPath(set.snapshot.root, abs);
    if (opts.dryRun) {
      if (existsSync(abs)) {
        if (opts.id !== undefined) throw new CtxError('EXISTS', `${file} already exists`, { file, hint: 'choose another --id' });
        extra.push(id);
        continue;
      }
      return { id, type: opts.type, file, abs, text };
    }
    await mkdirContained(set.snapshot.root, path.dirname(abs));
    try {
      await writeFileAtomic(abs, text, { createOnly: true });
      return { id, type: opts.type, file, abs, text };
    } catch (e) {
      if (!(e instanceof CtxError && e.code === 'EXISTS') || opts.id !== undefined) {
        if (e instanceof CtxError && e.code === 'EXISTS') throw new CtxError('EXISTS', `${file} already exists`, { file, hint: 'choose another --id' });
        throw e;
      }
      extra.push(id);
    }
  }
  throw new CtxError('EXISTS', `could not find a free ${prefix} id after 20 attempts`);
}
