import type { Depth } from '../artifacts/types.js';
import { successorText, type Successor } from '../staleness/lifecycle.js';
import { BUNDLE_SCHEMA_VERSION, type Bundle, type BundleEntry, type BundleFormat, type BundleOptions, type StaleMark } from './types.js';

/** What a `context` section is made of; a BundleEntry has all of it. */
export interface SectionInput {
  id: string;
  type: string;
  title: string;
  status?: string;
  summary?: string;
  why: string;
  depth: Depth;
  file: string;
  meta: Record<string, unknown>;
  body: string;
  stale?: StaleMark;
  successor?: Successor;
}

/** Keys shown in the fixed head of a section, so never repeated from the frontmatter. */
const HEAD_KEYS = new Set(['id', 'type', 'title', 'status', 'summary', 'stamp']);

/** One line, whitespace folded: the compact format has no multi-line values. */
function oneLine(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.replace(/\s+/g, ' ').trim();
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return v.map(oneLine).join(', ');
  return JSON.stringify(v);
}

/** Frontmatter beyond the head as `key: value` lines; one level of maps is flattened (links.specs: …). */
export function metaLines(meta: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(meta)) {
    if (HEAD_KEYS.has(k) || v === null || v === undefined) continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      for (const [sk, sv] of Object.entries(v as Record<string, unknown>)) {
        const s = oneLine(sv);
        if (s) out.push(`${k}.${sk}: ${s}`);
      }
      continue;
    }
    const s = oneLine(v);
    if (s) out.push(`${k}: ${s}`);
  }
  return out;
}

/** `=== SPEC: SPEC-BILLING-001 ===` */
function sectionTitle(type: string, id: string): string {
  return `=== ${type.toUpperCase()}: ${id} ===`;
}

/**
 * The compact section of one artifact: essential fields first (title, status, summary, why),
 * then the rest of the frontmatter, then the body at its depth. Entry token counts are the
 * tokens of exactly this text.
 */
export function contextSection(e: SectionInput): string {
  const lines = [sectionTitle(e.type, e.id), `title: ${oneLine(e.title)}`];
  if (e.status) lines.push(`status: ${oneLine(e.status)}`);
  if (e.summary) lines.push(`summary: ${oneLine(e.summary)}`);
  lines.push(`why: ${e.why}`);
  lines.push(`depth: ${e.depth}`);
  if (e.stale) lines.push(`stale: ${e.stale.state}${e.stale.summary ? ` (${oneLine(e.stale.summary)})` : ''}`);
  if (e.successor) lines.push(`lifecycle: ${successorText(e.successor)}; read ${e.successor.id} for what is in force`);
  lines.push(`file: ${e.file}`);
  lines.push(...metaLines(e.meta));
  if (e.body) lines.push('', e.body);
  return lines.join('\n') + '\n';
}

function optionsLine(o: BundleOptions): string {
  return `depth=${o.depth} budget=${o.budget ?? 'none'} encoding=${o.encoding} max-depth=${o.maxDepth ?? 'none'} global=${o.global ? 'yes' : 'no'}`;
}

function renderContext(b: Bundle): string {
  const h = b.header;
  const lines = [
    `=== BUNDLE: ${h.root} ===`,
    `commit: ${h.commit ?? 'none'}`,
    `dirty: ${h.dirty ? `yes (${h.dirtyFiles.join(', ')})` : 'no'}`,
    `tool: git-ctx ${h.tool.version}`,
    `options: ${optionsLine(h.options)}`,
    `digest: ${h.digest}`,
    `tokens: ${b.totals.tokens} in ${b.totals.entries} entries${b.totals.budget !== null ? ` (budget ${b.totals.budget})` : ''}`,
    `entries: ${b.entries.map((e) => `${e.id} (${e.type}, ${e.depth}, ${e.tokens})`).join(', ')}`,
  ];
  for (const a of b.adjustments) {
    lines.push(a.action === 'lowered' ? `lowered: ${a.id} ${a.from}→${a.to} (${a.reason})` : `dropped: ${a.id} (${a.type}, ${a.why}; ${a.reason})`);
  }
  for (const w of b.warnings) lines.push(`warning: ${w.message}`);
  for (const [f, hash] of Object.entries(h.global)) lines.push(`global: ${f} ${hash}`);
  if (b.paths.length) lines.push(`paths: ${b.paths.join(', ')}`);
  if (b.anchors.length) lines.push(`anchors: ${b.anchors.join(', ')}`);
  const parts = [lines.join('\n') + '\n'];
  for (const e of b.entries) parts.push(contextSection(e));
  parts.push('=== END ===\n');
  return parts.join('\n');
}

/** Escape what would break a markdown table cell or inline code. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Body headings demoted by two levels, so they nest under the entry's `##` heading. */
function demote(body: string): string {
  let fence = false;
  return body
    .split('\n')
    .map((l) => {
      if (/^(```|~~~)/.test(l)) fence = !fence;
      if (fence) return l;
      const m = /^(#{1,6})(\s.*)$/.exec(l);
      return m ? `${'#'.repeat(Math.min(6, m[1]!.length + 2))}${m[2]}` : l;
    })
    .join('\n');
}

function markdownEntry(e: BundleEntry): string {
  const lines = [`## ${e.id} — ${e.title}`, '', `*${e.type} · ${e.depth}${e.depth !== e.requestedDepth ? ` (lowered from ${e.requestedDepth})` : ''} · ${e.tokens} tokens · \`${e.file}\`*`, ''];
  lines.push(`- **why:** ${e.why}`);
  if (e.status) lines.push(`- **status:** ${e.status}`);
  if (e.summary) lines.push(`- **summary:** ${oneLine(e.summary)}`);
  if (e.stale) lines.push(`- **stale:** ${e.stale.state}${e.stale.summary ? ` — ${oneLine(e.stale.summary)}` : ''}`);
  if (e.successor) lines.push(`- **lifecycle:** ${successorText(e.successor)} — read ${e.successor.id} for what is in force`);
  for (const l of metaLines(e.meta)) {
    const i = l.indexOf(': ');
    lines.push(`- ${l.slice(0, i)}: ${l.slice(i + 2)}`);
  }
  if (e.body) lines.push('', demote(e.body));
  return lines.join('\n') + '\n';
}

function renderMarkdown(b: Bundle): string {
  const h = b.header;
  const root = b.entries.find((e) => e.role === 'root');
  const out: string[] = [];
  out.push(`# Context bundle: ${h.root}${root ? ` — ${root.title}` : ''}`, '');
  out.push(`- commit: \`${h.commit ?? 'none'}\``);
  out.push(`- dirty: ${h.dirty ? `yes — ${h.dirtyFiles.map((f) => `\`${f}\``).join(', ')}` : 'no'}`);
  out.push(`- tool: git-ctx ${h.tool.version}`);
  out.push(`- options: ${optionsLine(h.options)}`);
  out.push(`- digest: \`${h.digest}\``);
  out.push(`- tokens: ${b.totals.tokens} in ${b.totals.entries} entries${b.totals.budget !== null ? ` (budget ${b.totals.budget})` : ''}`);
  for (const [f, hash] of Object.entries(h.global)) out.push(`- global: \`${f}\` ${hash}`);
  out.push('', '| id | type | depth | tokens | why |', '|---|---|---|---|---|');
  for (const e of b.entries) out.push(`| ${cell(e.id)} | ${cell(e.type)} | ${e.depth} | ${e.tokens} | ${cell(e.why)} |`);
  if (b.adjustments.length) {
    out.push('', '## Lowered and dropped', '');
    for (const a of b.adjustments) out.push(a.action === 'lowered' ? `- ${a.id}: lowered ${a.from} → ${a.to} — ${a.reason}` : `- ${a.id}: dropped (${a.why}) — ${a.reason}`);
  }
  if (b.warnings.length) {
    out.push('', '## Warnings', '');
    for (const w of b.warnings) out.push(`- ${w.message}`);
  }
  if (b.paths.length || b.anchors.length) {
    out.push('', '## Code', '');
    for (const p of b.paths) out.push(`- path \`${p}\``);
    for (const a of b.anchors) out.push(`- anchor \`${a}\``);
  }
  out.push('');
  return [out.join('\n'), ...b.entries.map(markdownEntry)].join('\n');
}

function renderJson(b: Bundle): string {
  return JSON.stringify({ schemaVersion: BUNDLE_SCHEMA_VERSION, kind: 'git-ctx.bundle', ...b }, null, 2) + '\n';
}

/** Renderers by format name. Each is a pure function of the bundle: no clock, no locale, no paths. */
export const RENDERERS: Record<BundleFormat, (b: Bundle) => string> = {
  context: renderContext,
  markdown: renderMarkdown,
  json: renderJson,
};

/** Render a bundle in one of the formats (`context` for models, `markdown` for people, `json` for tools). */
export function renderBundle(bundle: Bundle, format: BundleFormat = 'context'): string {
  const r = RENDERERS[format];
  if (!r) throw new Error(`unknown bundle format ${String(format)}`);
  return r(bundle);
}
