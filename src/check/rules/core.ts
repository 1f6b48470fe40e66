import { buildGraph, DOCUMENT_PATH, findCycles, type LinkGraph } from '../../artifacts/graph.js';
import { ID_PATTERN, type Artifact } from '../../artifacts/types.js';
import { isInactive } from '../../artifacts/in-force.js';
import type { CheckContext, Finding, Rule, RuleFinding } from '../types.js';
import { globIndexFor } from '../../util/glob.js';
import { compilePaths, entryCovers } from '../../util/path-set.js';
import { closeMatches } from '../../util/close-match.js';
import { federatedFile, sourceMark } from '../../artifacts/sources/federated-file.js';
import { posix } from 'node:path';
import { movedPaths, type MovedPath } from '../moved-paths.js';
import { extraOf } from '../../artifacts/sources/extra.js';
import { isAdrFile } from '../../artifacts/sources/files.js';
import { pathKeys } from '../../artifacts/sources/code-refs.js';
import { unheldSupersessions } from './frontmatter-sides.js';

/** Missing mentioned files looked up in history per check: a record set names few. */
const MAX_MOVED_LOOKUPS = 200;

type Out = Omit<Finding, 'severity'>;


function graphOf(ctx: CheckContext): LinkGraph {
  let g = ctx.cache.get('graph') as LinkGraph | undefined;
  if (!g) {
    g = buildGraph(ctx.set);
    ctx.cache.set('graph', g);
  }
  return g;
}

type Edge = LinkGraph['edges'][number];

/** Unresolved links (broken-link's), and the paths each linked document may be (beside the record, from the root). Once per run. */
async function brokenLinks(ctx: CheckContext): Promise<{ broken: Edge[]; readings: Map<string, string[]> }> {
  const kept = ctx.cache.get('broken-links') as { broken: Edge[]; readings: Map<string, string[]> } | undefined;
  if (kept) return kept;
  const broken: Edge[] = [];
  for (const e of graphOf(ctx).edges) {
    if (e.resolved) continue;
    // a record read in place that links to a document of the tree which is no record (the
    // design note beside an ADR folder) links to something that exists: not broken
    if (DOCUMENT_PATH.test(e.to) && (await ctx.snapshot.blobOf(e.to)) !== undefined) continue;
    broken.push(e);
  }
  const readings = new Map(broken.filter((e) => DOCUMENT_PATH.test(e.to)).map((e) => [e.to, pathReadings(e.to, ctx.set.byId.get(e.from)!.file)]));
  ctx.cache.set('broken-links', { broken, readings });
  return { broken, readings };
}

/** Files a record mentions that are gone at HEAD (mention-moved's), with the paths each may be. Once per run. */
async function missingMentions(ctx: CheckContext): Promise<{ a: Artifact; readings: string[]; line: number }[]> {
  const kept = ctx.cache.get('missing-mentions') as { a: Artifact; readings: string[]; line: number }[] | undefined;
  if (kept) return kept;
  // a stamped record's mentions are judged by staleness (moved, fixable by stamp --fix)
  // a mention of a file that is gone resolves to nothing and is dropped from `mentions`:
  // its readings (beside the record, from the root) are in the record's candidates
  const named: { a: Artifact; readings: string[]; line: number }[] = [];
  for (const a of ctx.set.artifacts) {
    if (a.origin !== 'repo' || a.stamp) continue;
    for (const [alts, at] of extraOf(a)?.mc ?? []) {
      const files = alts.filter((p) => p.includes('/') && /\.[A-Za-z0-9]+$/.test(p) && !/[*?[{#]/.test(p));
      if (!files.length || named.length >= MAX_MOVED_LOOKUPS) continue;
      let present = false;
      for (const p of files) if ((present = (await ctx.snapshot.blobOf(p)) !== undefined)) break;
      if (!present) named.push({ a, readings: files, line: at });
    }
  }
  ctx.cache.set('missing-mentions', named);
  return named;
}

/**
 * Where the missing paths of broken-link and mention-moved went: both rules' paths in one
 * history walk per run (and, through the moved-paths cache kind, per HEAD), not one walk each.
 */
function movedOf(ctx: CheckContext): Promise<Map<string, MovedPath>> {
  let p = ctx.cache.get('moved-paths') as Promise<Map<string, MovedPath>> | undefined;
  if (!p) {
    p = (async () => {
      const linked = [...(await brokenLinks(ctx)).readings.values()].flat();
      const mentioned = (await missingMentions(ctx)).flatMap((n) => n.readings);
      return movedPaths(ctx.snapshot, [linked, mentioned]).catch(() => new Map<string, MovedPath>());
    })();
    ctx.cache.set('moved-paths', p);
  }
  return p;
}

/**
 * The line that names a broken target: the first at or after the key's line (`relations:`,
 * `links:`, an ADR's status line) that contains it, as written (`DEC-404`) or as a file name
 * (`0009-nothing.md`), so a record with several relations points at the broken one. The
 * key's line when the text cannot be read (a pinned record) or does not name it literally.
 */
async function lineNaming(ctx: CheckContext, a: Artifact, target: string, from: number | undefined): Promise<number | undefined> {
  const blob = await ctx.snapshot.read(a.file).catch(() => undefined);
  if (!blob) return from;
  const names = [target, target.split('/').pop()!].filter((n) => n.length > 0);
  const lines = blob.toString('utf8').split('\n');
  for (let i = Math.max(0, (from ?? 1) - 1); i < lines.length; i++) if (names.some((n) => lines[i]!.includes(n))) return i + 1;
  return from;
}

const line = (a: Artifact, key: string) => a.keyLines[key] ?? a.keyLines.id;

/**
 * Two git sources giving one id (DEC-066): neither upstream can see the clash (each checks
 * its own records, and findings on their files are theirs: DEC-061), so it is this
 * repository's finding, on its config, naming both sources and the record that is read —
 * the one whose file sorts first (`~<source name>@…`: the sources in the order of their
 * names), as for any duplicate id.
 */
function acrossSources(ctx: CheckContext, id: string, files: string[]): RuleFinding | undefined {
  const sources = [...new Set(files.map((f) => federatedFile(f)?.name).filter((n): n is string => n !== undefined))];
  if (sources.length < 2) return undefined;
  const read = ctx.set.byId.get(id);
  const winner = read && federatedFile(read.file);
  const named = files.filter((f) => federatedFile(f)).map((f) => `${sourceMark(f)} (${federatedFile(f)!.path})`);
  return {
    rule: 'duplicate-id',
    id,
    severity: 'warning',
    file: `${ctx.config.dir}/config.yaml`,
    message: `git sources ${sources.join(' and ')} both give id ${id}: ${named.join(', ')}; the record of ${winner ? winner.name : read?.file} is read (the sources in the order of their names); give the sources different \`prefix:\` settings, or write a local record of that id to choose`,
  };
}

/** Keys that hold a date: `date`, `created`, `updated`, `decided`, `last_reviewed`, `review-date` … */
const DATE_KEY = /^(?:date|created|updated|decided|accepted|reviewed|last[-_ ]?(?:reviewed|updated)|review[-_ ]?date|decision[-_ ]?date)$/i;

/**
 * Why a value that starts like an ISO date (YYYY-MM-DD) is no day of the calendar, or
 * undefined when it is one or is not written as such a date (free text is left alone).
 */
export function impossibleDate(v: string): string | undefined {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?![\d])/.exec(v);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12) return `month ${mo} does not exist`;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > days) return `${m[1]}-${String(mo).padStart(2, '0')} has ${days} days`;
  return undefined;
}


/** Load problems (malformed files) surface as findings under their own rule ids. */
const loadProblems: Rule[] = [
  ['frontmatter-malformed', 'YAML frontmatter that does not parse, or is not a mapping'],
  ['frontmatter-unquoted-value', "a decision record read in place whose frontmatter value starts with a character YAML reserves (`author: @ana`): read as the text it is"],
  ['frontmatter-missing', 'a markdown file under the artifact directory without frontmatter, or empty'],
  ['missing-field', 'a required field (id, type) is missing'],
  ['invalid-field', 'a field has the wrong shape (relations, links, scope)'],
  ['binary-file', 'a binary file under the artifact directory'],
  ['invalid-encoding', 'a file that is not valid UTF-8'],
  ['file-too-large', 'an artifact file over the size limit'],
  ['symlink-skipped', 'a symbolic link under the artifact directory (never followed)'],
  ['status-unmapped', "a decision record's status that maps onto nothing in its type's vocabulary (add a status_map entry)"],
  ['duplicate-number', 'two decision records with the same number in their file names (the later one gets a longer id), unless the later one says it extends or amends the first, or is retired and kept in a folder of its own'],
  ['record-extension-missing', 'a file in a decision-record folder named as a record (`0006-use-a-bus`) with no extension: not read'],
  ['title-number-disagrees', "a numbered decision record whose title is headed with another number (`# 41.` in 0042-…): a heading copied from another record"],
  ['supersession-disagrees', 'two decision records that each say they supersede the other (no supersession is drawn)'],
  ['reference-disagrees', "a link in a decision record whose text names one record (\"ADR-15\") while it leads to another's file or page (the target is read)"],
  ['stamps-malformed', 'a line of the stamps sidecar (stamps of records read in place) that does not parse, or stamps a record twice'],
  ['stamps-orphaned', 'a line of the stamps sidecar stamping an id no record read in place has (renumbered, renamed or removed)'],
  ['provenance-malformed', 'a line of the provenance sidecar (owner, session, commit, source of records read in place) that does not parse'],
  ['source-unpinned', 'a git source (`sources:` with `git:`) that .contextia/sources.lock does not pin, so its records are not read (run `git ctx sources update`)'],
  ['source-empty', 'a git source whose folder holds no files at the pinned commit'],
].map(([id, description]) => ({
  id: id!,
  severity: id === 'symlink-skipped' || id === 'frontmatter-unquoted-value' || id === 'status-unmapped' || id === 'duplicate-number' || id === 'title-number-disagrees' || id === 'record-extension-missing' || id === 'supersession-disagrees' || id === 'reference-disagrees' || id === 'stamps-malformed' || id === 'stamps-orphaned' || id === 'provenance-malformed' ? 'warning' : 'error',
  description: description!,
  run: (ctx: CheckContext) => ctx.set.problems.filter((p) => p.rule === id).map((p) => ({ rule: p.rule, message: p.message, file: p.file, line: p.line })),
}));

/** The rules that report what reading the records found: free once the records are read (the pre-commit hook runs them all, DEC-133). */
export const LOAD_PROBLEM_RULES: readonly string[] = loadProblems.map((r) => r.id);

export const CORE_RULES: Rule[] = [
  ...loadProblems,
  {
    id: 'invalid-id',
    severity: 'error',
    description: 'an id with characters outside letters, digits, - _ . and / segments',
    run: (ctx) =>
      [
        // an id that is a list or a mapping never loads: the file is reported, not dropped silently
        ...ctx.set.problems.filter((p) => p.rule === 'invalid-id').map((p) => ({ rule: 'invalid-id', file: p.file, line: p.line, message: p.message })),
        ...ctx.set.artifacts.filter((a) => !ID_PATTERN.test(a.id)).map((a) => ({ rule: 'invalid-id', id: a.id, file: a.file, line: line(a, 'id'), message: `invalid id ${JSON.stringify(a.id)}: use letters, digits, "-", "_", "." (e.g. DEC-BILLING-001) or path-like segments (project/design/x)` })),
      ],
  },
  {
    id: 'duplicate-id',
    severity: 'error',
    description: 'the same id declared in more than one file',
    run: (ctx) => {
      const res: RuleFinding[] = [];
      for (const [id, files] of ctx.set.duplicates) {
        const across = acrossSources(ctx, id, files);
        if (across) res.push(across);
        for (const f of files.slice(1)) {
          const a = ctx.set.artifacts.find((x) => x.file === f);
          res.push({ rule: 'duplicate-id', id, file: f, line: a ? line(a, 'id') : undefined, message: `duplicate id ${id}: also declared in ${files.filter((x) => x !== f).join(', ')}` });
        }
      }
      return res;
    },
  },
  {
    id: 'unknown-type',
    severity: 'error',
    description: 'a type that is not configured',
    run: (ctx) =>
      ctx.set.artifacts
        .filter((a) => !ctx.config.types[a.type])
        .map((a) => ({ rule: 'unknown-type', id: a.id, file: a.file, line: line(a, 'type'), message: `unknown type "${a.type}" (configured: ${Object.keys(ctx.config.types).join(', ')})` })),
  },
  {
    id: 'impossible-date',
    severity: 'warning',
    description: 'a date written in a record (created, date, updated, …) that is no day of the calendar, such as 2026-13-45',
    run: (ctx) => {
      const out: Out[] = [];
      for (const a of ctx.set.artifacts) {
        if (a.origin !== 'repo') continue;
        // the frontmatter's date fields, and the date an ADR wrote in its text (read as `created`)
        const seen = new Set<string>();
        const fields = Object.entries(a.data).filter(([k, v]) => DATE_KEY.test(k) && typeof v === 'string');
        if (a.created !== undefined && !fields.some(([, v]) => v === a.created)) fields.push([a.format === 'adr' ? 'date' : 'created', a.created]);
        for (const [k, v] of fields) {
          const bad = impossibleDate(String(v));
          if (!bad || seen.has(k)) continue;
          seen.add(k);
          out.push({ rule: 'impossible-date', id: a.id, file: a.file, line: a.keyLines[k] ?? line(a, 'created'), message: `${k} ${JSON.stringify(v)} is no calendar day: ${bad}` });
        }
      }
      return out;
    },
  },
  {
    id: 'unknown-status',
    severity: 'error',
    description: "a status outside its type's vocabulary",
    run: (ctx) =>
      ctx.set.artifacts
        .filter((a) => {
          const t = ctx.config.types[a.type];
          // a record read in place (adr) reports an unmappable status once, as status-unmapped
          return a.status !== undefined && a.format !== 'adr' && t && t.statuses.length > 0 && !t.statuses.includes(a.status);
        })
        .map((a) => ({ rule: 'unknown-status', id: a.id, file: a.file, line: line(a, 'status'), message: `unknown status "${a.status}" for type ${a.type} (expected one of ${ctx.config.types[a.type]!.statuses.join(', ')})` })),
  },
  {
    id: 'broken-link',
    severity: 'error',
    description: 'a link, requires or relation naming an id that does not exist',
    run: async (ctx) => {
      // a pinned record's link out of its folder to nothing in its upstream, found while loading (DEC-066)
      const res: RuleFinding[] = ctx.set.problems.filter((p) => p.rule === 'broken-link').map((p) => ({ rule: 'broken-link', severity: 'warning', file: p.file, message: p.message }));
      res.push(...(await unheldSupersessions(ctx)));
      const { broken, readings } = await brokenLinks(ctx);
      // a linked file that git history shows renamed: where it went
      const moved = readings.size ? await movedOf(ctx) : new Map<string, MovedPath>();
      for (const e of broken) {
        const a = ctx.set.byId.get(e.from)!;
        const key = e.kind === 'link' ? 'links' : e.kind === 'requires' ? 'requires' : a.keyLines.relations ? 'relations' : e.kind;
        const where = e.kind === 'link' ? `links.${e.label}` : e.kind === 'requires' ? 'requires' : `relations.${e.kind}`;
        const at = await lineNaming(ctx, a, e.to, line(a, key));
        const went = (readings.get(e.to) ?? []).map((p) => [p, moved.get(p)] as const).find(([, m]) => m);
        const near = went ? '' : suggest(e.to, ctx);
        const hint = went ? movedHint(went[0], went[1]!, a.file, ctx) : near || (DOCUMENT_PATH.test(e.to) ? ((await sameNameHint(e.to, a.file, ctx)) ?? '') : '');
        // a page that is no record file of a records folder, linked in a record's prose
        // (a sample's README, a design note since moved) is no record it relates to: a dead link
        // of its text, a warning; check failed a fresh clone for it (eclipse-edc/Connector,
        // SAP/cloud-sdk-js trials) @decision DEC-104
        const prose = a.format === 'adr' && e.kind === 'relates_to' && DOCUMENT_PATH.test(e.to) && !(isAdrFile(e.to) && ctx.config.sources.some((s) => e.to.startsWith(`${s.dir}/`)));
        res.push({ rule: 'broken-link', ...(prose ? { severity: 'warning' as const } : {}), id: a.id, file: a.file, line: at, message: `${where} names ${e.to}, which does not exist${hint}` });
      }
      return res;
    },
  },
  {
    id: 'mention-moved',
    // a record may name an old path on purpose (a refactor it describes): said, not a fault
    severity: 'info',
    description: 'a record mentions a file that is gone at HEAD and that git history shows renamed',
    run: async (ctx) => {
      const named = await missingMentions(ctx);
      if (!named.length) return [];
      const moved = await movedOf(ctx);
      const said = new Set<string>();
      const records = new Set(ctx.set.artifacts.map((a) => a.file));
      return named.flatMap(({ a, readings, line: at }) => {
        const hit = readings.map((p) => [p, moved.get(p)] as const).find(([, m]) => m);
        // a record's file that moved is a link between records: broken-link says where it went
        if (!hit || records.has(hit[1]!.to) || said.has(`${a.id}\0${hit[0]}`)) return [];
        // a record that names where the file went as well ("`old.ts` (now `new.ts`)") keeps the
        // old path as history, on purpose
        if ((extraOf(a)?.mc ?? []).some(([alts]) => alts.includes(hit[1]!.to))) return [];
        said.add(`${a.id}\0${hit[0]}`);
        return [{ rule: 'mention-moved', id: a.id, file: a.file, line: at, message: `mentions ${hit[0]}, which moved to ${hit[1]!.to} in ${hit[1]!.commit.slice(0, 7)}: write the new path` }];
      });
    },
  },
  {
    id: 'supersedes-cycle',
    severity: 'error',
    description: 'decisions that supersede each other in a cycle',
    run: (ctx) =>
      findCycles(graphOf(ctx), ['supersedes']).map((c) => {
        const a = ctx.set.byId.get(c[0]!)!;
        return { rule: 'supersedes-cycle', id: a.id, file: a.file, line: line(a, 'relations'), message: `supersedes cycle: ${c.join(' → ')}` };
      }),
  },
  {
    id: 'requires-cycle',
    severity: 'warning',
    description: 'artifacts that require each other in a cycle',
    run: (ctx) =>
      findCycles(graphOf(ctx), ['requires']).map((c) => {
        const a = ctx.set.byId.get(c[0]!)!;
        return { rule: 'requires-cycle', id: a.id, file: a.file, line: line(a, 'requires'), message: `requires cycle: ${c.join(' → ')}` };
      }),
  },
  {
    id: 'path-glob-matches-nothing',
    severity: 'warning',
    description: 'a paths: entry that cannot match: an inclusion matching no file, an exclusion (!) excluding nothing, a list of exclusions only, an empty entry',
    run: async (ctx) => {
      // the index loading the records built for mentions (its matches are remembered)
      const index = await globIndexFor(ctx.snapshot);
      const res: Out[] = [];
      for (const a of ctx.set.artifacts) {
        if (a.origin !== 'repo' || !a.paths.length) continue;
        const out = (message: string) => res.push({ rule: 'path-glob-matches-nothing', id: a.id, file: a.file, line: line(a, 'paths'), message });
        // a decision record's own frontmatter may name its code `codeRefs:` (DEC-137): said by the key the team wrote
        const key = a.format === 'adr' ? (pathKeys(a.data)[0] ?? 'paths') : 'paths';
        const set = compilePaths(a.paths);
        const covered = new Set<string>();
        for (const raw of a.paths) {
          const t = raw.trim();
          if (!t || t === '!') out(`${key} entry "${raw}" is empty: it names nothing`);
        }
        for (const p of set.includes) {
          const hits = index.match(p);
          if (hits.length === 0) out(`${key} entry "${p}" matches no file in the repository`);
          for (const h of hits) covered.add(h);
        }
        if (!set.includes.length && set.excludes.length) out(`paths has only exclusions (${set.excludes.map((x) => `!${x}`).join(', ')}): it covers no file (an exclusion never means "everything but")`);
        else if (covered.size) {
          for (const x of set.excludes) {
            if (![...covered].some((f) => entryCovers(x, f))) out(`paths exclusion "!${x}" excludes nothing: no file the inclusions cover matches it`);
          }
        }
      }
      return res;
    },
  },
  {
    id: 'superseded-still-active',
    severity: 'warning',
    description: 'a record another record supersedes whose own status is still in force (accepted, active, …)',
    run: (ctx) => {
      const res: Out[] = [];
      for (const a of ctx.set.artifacts) {
        if (a.origin !== 'repo' || isInactive(a, ctx.config)) continue;
        const by = [...new Set(graphOf(ctx).in.get(a.id)?.filter((e) => e.kind === 'supersedes').map((e) => e.from) ?? [])].sort();
        if (!by.length) continue;
        res.push({
          rule: 'superseded-still-active',
          id: a.id,
          file: a.file,
          line: line(a, 'status'),
          message: `${a.id} is superseded by ${by.join(', ')} but its status is still ${a.status ?? '(none)'}; set its status to superseded (git ctx supersede ${a.id} --by ${by[0]} writes both sides)`,
        });
      }
      return res;
    },
  },
  {
    id: 'task-links-inactive',
    severity: 'warning',
    description: 'an open task linking a superseded or deprecated decision (or other inactive artifact)',
    run: (ctx) => {
      const res: Out[] = [];
      for (const a of ctx.set.artifacts) {
        if (a.type !== 'task' || isInactive(a, ctx.config)) continue;
        for (const l of [...a.links.map((x) => x.id), ...a.requires]) {
          const t = ctx.set.byId.get(l);
          if (t && isInactive(t, ctx.config)) {
            const by = graphOf(ctx).in.get(t.id)?.filter((e) => e.kind === 'supersedes').map((e) => e.from) ?? [];
            res.push({ rule: 'task-links-inactive', id: a.id, file: a.file, line: line(a, 'links'), message: `task links ${t.id}, which is ${t.status}${by.length ? ` (superseded by ${by.join(', ')})` : ''}` });
          }
        }
      }
      return res;
    },
  },
  {
    id: 'active-conflict',
    severity: 'warning',
    description: 'two active decisions that declare conflicts_with each other',
    run: (ctx) => {
      const res: Out[] = [];
      const seen = new Set<string>();
      for (const a of ctx.set.artifacts) {
        if (isInactive(a, ctx.config)) continue;
        for (const other of a.relations.conflicts_with ?? []) {
          const b = ctx.set.byId.get(other);
          if (!b || isInactive(b, ctx.config)) continue;
          const key = [a.id, b.id].sort().join('|');
          if (seen.has(key)) continue;
          seen.add(key);
          res.push({ rule: 'active-conflict', id: a.id, file: a.file, line: line(a, 'relations'), message: `${a.id} conflicts with ${b.id} and both are in force (${a.status ?? 'no status'}, ${b.status ?? 'no status'}); supersede or deprecate one` });
        }
      }
      return res;
    },
  },
  {
    id: 'orphan-spec',
    severity: 'warning',
    description: 'a spec that nothing links to and that governs no paths or anchors',
    run: (ctx) => {
      const g = graphOf(ctx);
      return ctx.set.artifacts
        .filter((a) => a.type === 'spec' && a.origin === 'repo' && !isInactive(a, ctx.config) && !(g.in.get(a.id)?.length) && a.paths.length === 0 && a.anchors.length === 0)
        .map((a) => ({ rule: 'orphan-spec', id: a.id, file: a.file, line: line(a, 'id'), message: `spec ${a.id} is not linked from any artifact and declares no paths or anchors` }));
    },
  },
  {
    id: 'task-stale',
    severity: 'info',
    description: 'a task active for long with no change to its file',
    run: (ctx) => {
      const days = ctx.config.check.task_stale_days;
      const res: Out[] = [];
      for (const a of ctx.set.artifacts) {
        if (a.type !== 'task' || !['active', 'in_progress'].includes(a.status ?? '')) continue;
        const updated = typeof a.data.updated === 'string' ? a.data.updated : a.created;
        if (!updated) continue;
        const t = Date.parse(updated);
        if (Number.isNaN(t)) continue;
        const age = Math.floor((ctx.now.getTime() - t) / 86_400_000);
        if (age > days) res.push({ rule: 'task-stale', id: a.id, file: a.file, line: line(a, a.data.updated ? 'updated' : 'created'), message: `task ${a.id} has been ${a.status} for ${age} days (since ${updated}) with no update` });
      }
      return res;
    },
  },
];

/**
 * The paths a broken link to a file may have meant: as resolved (beside the record), and, when
 * that repeats the record's folder, as written from the repository's root
 * (`docs/architecture/docs/architecture/016-x.md` → `docs/architecture/016-x.md`).
 */
function pathReadings(target: string, recordFile: string): string[] {
  const dir = posix.dirname(recordFile);
  const rest = dir !== '.' && target.startsWith(dir + '/') ? target.slice(dir.length + 1) : '';
  return rest.includes('/') && rest !== target ? [target, rest] : [target];
}

/** " (moved: X was renamed to Y in abc1234, record Z; link it as ../Y)" */
function movedHint(was: string, m: MovedPath, recordFile: string, ctx: CheckContext): string {
  const rec = ctx.set.artifacts.find((a) => a.file === m.to);
  const rel = posix.relative(posix.dirname(recordFile), m.to);
  return ` (moved: ${was} was renamed to ${m.to} in ${m.commit.slice(0, 7)}${rec ? `, record ${rec.id}` : ''}; link it as ${rel})`;
}

/**
 * " (the one X.md in the tree is Y: link it as ../Y)": a linked document git saw no rename of,
 * whose name one file of the tree has. A record folder moved as a whole (docs/architecture/adr
 * to docs/engineering/adr) leaves its relative links pointing beside the new folder; the
 * document is where it was. Only a name no other file has is suggested.
 */
async function sameNameHint(target: string, recordFile: string, ctx: CheckContext): Promise<string | undefined> {
  const name = posix.basename(target);
  const hits: string[] = [];
  for (const e of await ctx.snapshot.list()) if (e.path === name || e.path.endsWith('/' + name)) hits.push(e.path);
  if (hits.length !== 1) return undefined;
  return ` (the one ${name} in the tree is ${hits[0]}: link it as ${posix.relative(posix.dirname(recordFile), hits[0]!)})`;
}

/** " (did you mean X?)" for a near-miss id. */
function suggest(id: string, ctx: CheckContext): string {
  // a path of the author's machine (/Users/…/docs/adr/0004-x.md) that ends with a record's file
  if (DOCUMENT_PATH.test(id)) {
    const same = ctx.set.artifacts.find((a) => id.endsWith('/' + a.file));
    if (same) return ` (a path outside the repository ending with ${same.file}: link it relatively to reach ${same.id})`;
  }
  const best = closeMatches(id, [...ctx.set.byId.keys()], 1);
  // an id of a git source's numbering: say which pinned commit lacks it (the pin may be old)
  const pin = ctx.set.sources?.pinned.find((p) => p.prefix && id.startsWith(p.prefix));
  const where = pin ? ` in git source ${pin.name} at ${pin.commit.slice(0, 12)}` : '';
  return `${where}${best.length ? ` (did you mean ${best[0]}?)` : ''}`;
}
