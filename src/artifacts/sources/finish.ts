// @spec SPEC-SOURCES-001

import type { Config } from '../../config.js';
import type { Artifact, LoadProblem, RelationKind } from '../types.js';
import type { PathLookup } from '../../util/glob.js';
import { extraOf, setExtra } from './extra.js';
import { mentionPattern, resolveMentions } from './mentions.js';
import { fileNumber, recordDir } from './files.js';
import { mapStatus } from './status.js';

/**
 * Give duplicate record numbers distinct ids: the first file (by path) keeps `ADR-0005`,
 * later ones become `ADR-0005-<slug>`, each with a warning. Two records numbered alike are
 * common after parallel branches merge; refusing them would block every commit.
 */
export function disambiguateNumbers(artifacts: Artifact[], problems: LoadProblem[]): void {
  const byId = new Map<string, Artifact[]>();
  // numbers are told apart within one repository: a pinned source's record of the same id as a
  // local one is not a clash (the local one wins), and each upstream numbers its own records
  const home = (a: Artifact): string => (a.file.startsWith('~') ? a.file.slice(0, a.file.indexOf('/') + 1) : '');
  for (const a of artifacts) if (a.format === 'adr' && extraOf(a)?.n !== undefined) (byId.get(`${home(a)}\0${a.id}`) ?? byId.set(`${home(a)}\0${a.id}`, []).get(`${home(a)}\0${a.id}`)!).push(a);
  for (const [key, list] of byId) {
    if (list.length < 2) continue;
    const id = key.slice(key.indexOf('\0') + 1);
    list.sort((x, y) => (x.file < y.file ? -1 : 1));
    for (const a of list.slice(1)) {
      const stem = a.file.slice(a.file.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
      const slug = stem.toLowerCase().replace(/^[a-z]{0,8}[-_ ]?\d+[-_ .]*/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'b';
      a.id = `${id}-${slug}`;
      // numbered under the record it extends on purpose ("005-x01-package-structure.md": "This is an
      // extension to [the package structure record](./005-package-structure.md)", guardian/cdk):
      // no clash to renumber @decision DEC-129
      if (extendsRecord(a, list[0]!) || setAside(a, list[0]!)) continue;
      problems.push({ file: a.file, line: 1, rule: 'duplicate-number', message: `number of ${id} is also used by ${list[0]!.file}; this record reads as ${a.id} (renumber the file to give it its own number)` });
    }
  }
}

/**
 * A retired record kept in a folder of its own (`adrs/deprecated/0003-database-schema.md`
 * beside `adrs/0003-frontend.md`, HubEvolution/EvolutionHub): the number was given again on
 * purpose after the old record was moved aside, so there is nothing to renumber. @decision DEC-132
 */
function setAside(a: Artifact, base: Artifact): boolean {
  if (recordDir(a.file) === recordDir(base.file)) return false;
  return RETIRED.test(a.status ?? '') || /(?:^|\/)(?:deprecated|superseded|archived?|obsolete|retired|legacy|historical)\//i.test(a.file.slice(recordDir(base.file).length));
}
const RETIRED = /^\s*(?:deprecated|superseded|obsolete|retired|archived|rejected|withdrawn|abandoned)\b/i;

/** Does `a`'s own text say it amends or clarifies `base` (a link to its file)? */
function extendsRecord(a: Artifact, base: Artifact): boolean {
  const target = '@' + base.file;
  return (extraOf(a)?.rel ?? []).some(([kind, ref, , dir]) => dir === 0 && (kind === 'amends' || kind === 'clarifies') && (ref === target || ref.startsWith(target + '\u0001')));
}

/**
 * Finish what readers left to the set: relations written in text (links to record files,
 * "ADR 7", "Superseded by X" as X supersedes this), statuses mapped onto the type's
 * vocabulary (original text kept in `statusText`), and mentions of code that exists.
 * Never mutates an object the parse cache holds: relations and links are replaced.
 */
export function finishSources(artifacts: Artifact[], config: Config, problems: LoadProblem[], index: PathLookup | undefined): void {
  const byFile = new Map<string, Artifact>();
  const byId = new Map<string, Artifact>();
  const byNumber = new Map<string, Artifact>();
  // what each reader found, looked up once (a WeakMap read per artifact and pass adds up)
  const extras = artifacts.map((a) => extraOf(a));
  for (const a of artifacts) {
    byFile.set(a.file, a);
    if (!byId.has(a.id)) byId.set(a.id, a);
  }
  for (const [i, a] of artifacts.entries()) {
    const n = extras[i]?.n;
    if (n === undefined) continue;
    const prefix = a.id.slice(0, a.id.length - n.length);
    const k = `${prefix.toLowerCase()}${Number(n)}`;
    if (a.id.endsWith(n) && !byNumber.has(k)) byNumber.set(k, a);
  }
  // a record whose id is written in its frontmatter (`id: 0003-use-x`) answers to its file's
  // number too, after the records named by number; of several with one number, the first by path
  const byNb = artifacts.flatMap((a, i) => (extras[i]?.nb ? [[extras[i]!.nb!, a] as const] : [])).sort((x, y) => (x[1].file < y[1].file ? -1 : 1));
  for (const [nb, a] of byNb) {
    const m = /^(.*?)(\d+)$/.exec(nb)!;
    const k = `${m[1]!.toLowerCase()}${Number(m[2])}`;
    if (!byNumber.has(k)) byNumber.set(k, a);
  }
  // a record's published page by `folder/slug`: its folder's name and its file name, with and without the number
  let bySlug: Map<string, string | null> | undefined;
  const slugOf = (key: string): string | undefined => {
    if (!bySlug) {
      bySlug = new Map();
      for (const a of artifacts) {
        if (a.format !== 'adr') continue;
        const parts = a.file.split('/');
        const folder = (parts[parts.length - 2] ?? '').toLowerCase();
        const stem = parts[parts.length - 1]!.replace(/\.[^.]+$/, '').toLowerCase();
        for (const k of new Set([`${folder}/${stem}`, `${folder}/${stem.replace(/^\d+[-_ .]+/, '')}`])) bySlug.set(k, bySlug.has(k) && bySlug.get(k) !== a.id ? null : a.id);
      }
    }
    return bySlug.get(key) ?? undefined;
  };
  const resolveOne = (ref: string): string | undefined => {
    if (ref.startsWith('%')) return slugOf(ref.slice(1));
    // a loose reference ("#7", "0007-…" beside a wording) counts only when a record has the number
    if (ref.startsWith('~')) {
      const m = /^~(.*?)(\d+)$/.exec(ref);
      return m ? byNumber.get(`${m[1]!.toLowerCase()}${Number(m[2])}`)?.id : undefined;
    }
    // a record's forge address: only a record of this set at that path (another repository's file is no reference)
    if (ref.startsWith('^')) return byFile.get(ref.slice(1))?.id;
    if (ref.startsWith('@')) {
      const hit = byFile.get(ref.slice(1));
      if (hit) return hit.id;
      return ref.slice(1);
    }
    if (byId.has(ref)) return ref;
    const m = /^(.*?)(\d+)$/.exec(ref);
    const hit = m ? byNumber.get(`${m[1]!.toLowerCase()}${Number(m[2])}`) : undefined;
    return hit?.id ?? ref;
  };
  // a link whose text names a record (`target\u0001ADR-15`): the target decides when it is a
  // record; a text naming another record is a finding, once per link; a page that is no record
  // leaves the text to decide
  const mismatched = new Set<string>();
  const resolveAt = (a: Artifact, ref: string, line: number): string | undefined => {
    const cut = ref.indexOf('\u0001');
    if (cut < 0) return resolveOne(ref);
    const target = resolveOne(ref.slice(0, cut));
    const named = resolveOne(ref.slice(cut + 1));
    const namedRecord = named !== undefined && byId.has(named) ? named : undefined;
    if (target !== undefined && byId.has(target)) {
      const key = `${a.id}\0${line}\0${ref}`;
      // "[ADR-0037](0037-b.md)" where two files are numbered 0037: the text names the number, and the link one of its records
      const sameNumber = (): boolean => {
        const n = /(\d+)$/.exec(ref.slice(cut + 1))?.[1];
        const f = fileNumber(byId.get(target)!.file);
        return n !== undefined && f !== undefined && Number(n) === Number(f);
      };
      if (namedRecord && namedRecord !== target && !mismatched.has(key) && !sameNumber()) {
        mismatched.add(key);
        problems.push({ file: a.file, line, rule: 'reference-disagrees', message: `a link's text names ${namedRecord} but it leads to ${byId.get(target)!.file} (${target}); read as a reference to ${target}: correct the text or the link` });
      }
      return target;
    }
    return ref.startsWith('%') ? named : target;
  };
  // a supersession is drawn when the records agree, or one states it and the other does not
  // contradict it; two records that each claim to supersede the other get a relates_to and a finding
  const claims = new Map<string, { file: string; line: number }>();
  for (const [i, a] of artifacts.entries()) {
    for (const t of a.relations.supersedes ?? []) claims.set(`${a.id}\0${t}`, { file: a.file, line: a.keyLines.relations ?? 1 });
    for (const [kind, ref, line, dir] of extras[i]?.rel ?? []) {
      if (kind !== 'supersedes') continue;
      const to = resolveAt(a, ref, line);
      if (to === undefined || to === a.id) continue;
      const key = dir === 0 ? `${a.id}\0${to}` : `${to}\0${a.id}`;
      if (!claims.has(key)) claims.set(key, { file: a.file, line });
    }
  }
  const disputed = (newer: string, older: string): boolean => claims.has(`${older}\0${newer}`) && claims.has(`${newer}\0${older}`);
  const reported = new Set<string>();
  const incoming = new Map<string, { kind: RelationKind; from: string }[]>();
  for (const [i, a] of artifacts.entries()) {
    const x = extras[i];
    if (!x?.rel?.length) continue;
    const rel: Partial<Record<RelationKind, string[]>> = {};
    for (const [k, v] of Object.entries(a.relations)) rel[k as RelationKind] = [...v];
    const links = [...a.links];
    let linkLine: number | undefined;
    for (const [written, ref, line, dir] of x.rel) {
      const to = resolveAt(a, ref, line);
      if (to === undefined || to === a.id) continue;
      let kind = written;
      if (kind === 'supersedes' && (dir === 0 ? disputed(a.id, to) : disputed(to, a.id))) {
        kind = 'relates_to';
        const pair = [a.id, to].sort().join('\0');
        if (!reported.has(pair)) {
          reported.add(pair);
          const other = claims.get(dir === 0 ? `${to}\0${a.id}` : `${a.id}\0${to}`);
          problems.push({ file: a.file, line, rule: 'supersession-disagrees', message: `${a.id} and ${to} each say they supersede the other${other && other.file !== a.file ? ` (${other.file}:${other.line})` : ''}; no supersession is drawn until one of them is corrected` });
        }
        if (dir === 1) {
          const list = (rel.relates_to ??= []);
          if (!list.includes(to)) list.push(to);
          continue;
        }
      }
      if (dir === 0) {
        const list = (rel[kind] ??= []);
        if (!list.includes(to)) list.push(to);
      } else if (byId.has(to)) {
        const list = incoming.get(to) ?? incoming.set(to, []).get(to)!;
        if (!list.some((e) => e.kind === kind && e.from === a.id)) list.push({ kind, from: a.id });
      } else if (!links.some((l) => l.id === to)) {
        // the other record does not exist: kept as a link so check reports it where it is written
        links.push({ kind: kind === 'supersedes' ? 'superseded_by' : `${kind}_by`, id: to });
        linkLine ??= line;
      }
    }
    a.relations = rel;
    a.links = links;
    if (linkLine !== undefined) defaultKeyLine(a, 'links', linkLine);
  }
  for (const [to, list] of incoming) {
    const a = byId.get(to)!;
    const rel: Partial<Record<RelationKind, string[]>> = {};
    for (const [k, v] of Object.entries(a.relations)) rel[k as RelationKind] = [...v];
    const by: [RelationKind, string, string][] = [];
    for (const { kind, from } of list) {
      const l = (rel[kind] ??= []);
      if (!l.includes(from)) {
        l.push(from);
        // this record's text does not say it: the other one does ("Superseded by" this)
        by.push([kind, from, from]);
      }
    }
    a.relations = rel;
    if (by.length) setExtra(a, { ...extraOf(a), by });
  }
  const touched = new Set([...artifacts.filter((_, i) => extras[i]?.rel?.length), ...[...incoming.keys()].map((id) => byId.get(id)!)]);
  for (const a of touched) dropRedundantRelatesTo(a, byId);

  // statuses repeat across records: map each (type, text) once
  const mapped = new Map<string, ReturnType<typeof mapStatus>>();
  for (const a of artifacts) {
    if (a.status !== undefined && a.status !== '') {
      const mk = `${a.type}\0${a.status}`;
      let m = mapped.get(mk);
      if (!m) mapped.set(mk, (m = mapStatus(config, a.type, a.status)));
      if (m.unmapped) {
        if (a.format === 'adr') {
          const vocab = config.types[a.type]?.statuses ?? [];
          problems.push({ file: a.file, line: a.keyLines.status, rule: 'status-unmapped', message: `status "${a.status}" maps onto no ${a.type} status; add it to ${config.dir}/config.yaml${config.noFile ? ' (git ctx init writes that file)' : ''} as status_map: { ${JSON.stringify(m.key)}: <${vocab.join('|')}> }` });
        }
      } else if (m.status !== a.status) {
        a.status = m.status;
        a.statusText = m.statusText;
      }
    } else if (a.status === '') a.status = undefined;
  }

  if (index) resolveSetMentions(artifacts, index);
}

/**
 * A record read in place often links the record it is superseded by (or amends) again under
 * "## Links": that link reads as `relates_to`, beside the typed relation the status line or
 * the other record states for the same pair. The typed relation says more; the plain one is
 * dropped, in either direction, so show, list and map say the pair once. Replaces the
 * relations object (the parse cache holds the old one).
 */
function dropRedundantRelatesTo(a: Artifact, byId: ReadonlyMap<string, Artifact>): void {
  const plain = a.relations.relates_to;
  if (!plain?.length) return;
  const typed = (from: Artifact | undefined, to: string) => !!from && Object.entries(from.relations).some(([k, v]) => k !== 'relates_to' && v.includes(to));
  const kept = plain.filter((t) => !typed(a, t) && !typed(byId.get(t), a.id));
  if (kept.length === plain.length) return;
  const rel: Partial<Record<RelationKind, string[]>> = { ...a.relations };
  if (kept.length) rel.relates_to = kept;
  else delete rel.relates_to;
  a.relations = rel;
}

/**
 * Mentions of code that exists (in `index`), for the records with mention candidates. The
 * only part of finishing that depends on the repository beyond the records: the finished
 * set cache (src/artifacts/cache/parse-cache.ts) stores the set before this step, never after.
 */
export function resolveSetMentions(artifacts: Artifact[], index: PathLookup): void {
  let byFile: Set<string> | undefined;
  let folders: Set<string> | undefined;
  for (const a of artifacts) {
    const mc = extraOf(a)?.mc;
    if (!mc?.length || a.origin !== 'repo') continue;
    byFile ??= new Set(artifacts.map((x) => x.file));
    folders ??= new Set(artifacts.filter((x) => x.origin === 'repo').map((x) => recordDir(x.file)));
    // a link to another record is a relation (or prose), not code; nor is the records folder
    // ("the records under `docs/adr`"): as a mention it made every record and image in it code
    const ms = resolveMentions(mc, index, a.file).filter((m) => !byFile!.has(m.target) && !folders!.has(m.target));
    if (ms.length) a.mentions = ms;
  }
}

const addedKeyLines = new WeakMap<Artifact, Record<string, number>>();

/** The key lines finishing set where absent (`keyLines[key] ??= line`), for the finished set cache. */
export function keyLinesAdded(a: Artifact): Record<string, number> | undefined {
  return addedKeyLines.get(a);
}

/** `a.keyLines[key] ??= line`, lazily for an artifact from the parse cache (it would decode the record). */
function defaultKeyLine(a: Artifact, key: string, line: number): void {
  const added = addedKeyLines.get(a) ?? addedKeyLines.set(a, {}).get(a)!;
  added[key] ??= line;
  const lazy = (a as { defaultKeyLine?: (k: string, l: number) => void }).defaultKeyLine;
  if (lazy) lazy.call(a, key, line);
  else if (a.keyLines[key] === undefined) a.keyLines = { ...a.keyLines, [key]: line };
}

/** Every path or glob the artifacts' mention candidates are looked up by. */
export function mentionPatterns(artifacts: Artifact[]): string[] {
  const out = new Set<string>();
  for (const a of artifacts) {
    if (a.origin !== 'repo') continue;
    for (const [alts] of extraOf(a)?.mc ?? []) for (const alt of alts) out.add(mentionPattern(alt));
  }
  return [...out];
}

/** Whether any artifact has mention candidates (the repository listing is needed only then). */
export function needsListing(artifacts: Artifact[]): boolean {
  return artifacts.some((a) => a.origin === 'repo' && (extraOf(a)?.mc?.length ?? 0) > 0);
}
