// @spec SPEC-RULES-001

import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import { editFrontmatterText, type FrontmatterEdit } from '../artifacts/write.js';
import { CtxError } from '../errors.js';
import { nextId } from '../init/new-artifact.js';
import { FILE_FORMATS, RULE_FORMATS, SECTION_FILES, findManagedSection, isGeneratedFile, type RuleFormat } from './formats.js';
import { intendedPatterns, readFrontmatter } from './verify.js';

/** One norm `git ctx rules import` would create. */
export interface ImportedNorm {
  id: string;
  title: string;
  /** repository-relative path of the new norm file */
  file: string;
  content: string;
  /** where it came from: `AGENTS.md#Heading`, `.cursor/rules/style.mdc` */
  from: string;
  paths: string[];
}

export interface RulesImportPlan {
  norms: ImportedNorm[];
  /** sources already imported before (an artifact records them in `imported_from`) */
  skipped: string[];
  /** rule files read */
  read: string[];
}

interface Chunk {
  from: string;
  title: string;
  body: string;
  paths: string[];
  alwaysApply?: boolean;
}

const slugTitle = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Split hand-written markdown into norms at its second-level headings (or first-level, when
 * that is all there is); text before the first such heading becomes one norm titled after
 * the file. The managed section is git-ctx's own output and never imported.
 */
export function splitSections(file: string, text: string): Chunk[] {
  const m = findManagedSection(text);
  const own = m ? text.slice(0, m.start) + text.slice(m.end) : text;
  const lines = own.replace(/\r\n/g, '\n').split('\n');
  const level = lines.some((l) => /^##\s/.test(l)) ? 2 : 1;
  const re = new RegExp(`^#{${level}}\\s+(.*?)\\s*#*\\s*$`);
  const chunks: Chunk[] = [];
  let title = '';
  let buf: string[] = [];
  const flush = () => {
    const body = buf.join('\n').trim();
    // a level-1 heading alone above the sections is the file's title, not a rule
    const meaningful = body.replace(/^#\s+.*$/gm, '').trim();
    const h1 = !title && level === 2 ? /^#\s+(.*?)\s*#*\s*$/m.exec(body)?.[1] : undefined;
    if (meaningful) chunks.push({ from: title ? `${file}#${title}` : file, title: title || (h1 ? slugTitle(h1) : `Rules from ${file}`), body, paths: [] });
  };
  let inFence = false;
  for (const l of lines) {
    if (/^(```|~~~)/.test(l)) inFence = !inFence;
    const h = !inFence && re.exec(l);
    if (h) {
      flush();
      title = slugTitle(h[1]!);
      buf = [];
    } else buf.push(l);
  }
  flush();
  return chunks;
}

/** The frontmatter fields of a .mdc / .instructions.md file that matter here, and its body. */
export function readRuleFrontmatter(text: string): { fields: Record<string, string>; body: string } {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!fm) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of fm[1]!.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2]!.trim();
    if (/^".*"$/.test(v)) {
      try {
        v = JSON.parse(v) as string;
      } catch {
        v = v.slice(1, -1);
      }
    } else if (/^'.*'$/.test(v)) v = v.slice(1, -1).replace(/''/g, "'");
    fields[m[1]!] = v;
  }
  return { fields, body: text.slice(fm[0].length) };
}

const splitGlobs = (s: string | undefined) =>
  (s ?? '')
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((g) => g.trim().replace(/^["']|["']$/g, ''))
    .filter((g) => g && g !== '**' && g !== '**/*');

/** The paths of a Claude Code rule, Kiro steering file or Windsurf rule, as its author meant them (none when not scoped by paths). */
function scopedPaths(f: RuleFormat, text: string): string[] {
  const { fields } = readFrontmatter(text);
  const scalar = (k: string) => {
    const v = fields.get(k);
    return v && 'scalar' in v ? v.scalar.trim().replace(/^["']|["']$/g, '') : undefined;
  };
  const field = f === 'claude-rules' ? 'paths' : f === 'kiro' ? (scalar('inclusion') === 'fileMatch' ? 'fileMatchPattern' : undefined) : scalar('trigger') === 'glob' ? 'globs' : undefined;
  const raw = field ? fields.get(field) : undefined;
  return raw ? intendedPatterns(raw).filter((g) => g !== '**' && g !== '**/*') : [];
}

function firstHeading(body: string): string | undefined {
  const m = /^#{1,6}\s+(.*?)\s*#*\s*$/m.exec(body);
  return m ? slugTitle(m[1]!) : undefined;
}

/**
 * Norms from rule files written by hand: sections of AGENTS.md / CLAUDE.md / GEMINI.md /
 * copilot-instructions.md outside the managed section, and each .mdc or .instructions.md
 * file that git-ctx did not generate (its globs or applyTo become `paths`). A source already
 * recorded in some artifact's `imported_from` is skipped, so importing twice adds nothing.
 */
export async function planRulesImport(set: ArtifactSet, opts: { formats?: RuleFormat[] } = {}): Promise<RulesImportPlan> {
  const { snapshot, config } = set;
  const norm = config.types.norm;
  if (!norm) throw new CtxError('CONFIG', 'rules import writes norms, and this configuration has no norm type', { file: `${config.dir}/config.yaml` });
  const formats = opts.formats?.length ? opts.formats : [...RULE_FORMATS];
  const chunks: Chunk[] = [];
  const read: string[] = [];
  for (const f of formats) {
    const sectionFile = SECTION_FILES[f];
    if (sectionFile) {
      const t = (await snapshot.read(sectionFile))?.toString('utf8');
      if (t !== undefined) {
        read.push(sectionFile);
        chunks.push(...splitSections(sectionFile, t));
      }
    }
    const spec = FILE_FORMATS[f];
    if (!spec) continue;
    const { dir, ext } = spec;
    const entries = (await snapshot.listUnder(dir)).filter((e) => e.path.endsWith(ext) && !e.path.slice(dir.length + 1).includes('/'));
    const texts = await snapshot.readMany(entries.map((e) => e.path));
    entries.forEach((e, i) => {
      const t = texts[i]?.toString('utf8');
      if (t === undefined || isGeneratedFile(t)) return;
      read.push(e.path);
      const { fields, body } = readRuleFrontmatter(t);
      const name = path.posix.basename(e.path, ext);
      const title = firstHeading(body) ?? (fields.description ? slugTitle(fields.description) : name);
      if (!body.trim()) return;
      chunks.push({ from: e.path, title, body: body.trim(), paths: f === 'cursor' || f === 'copilot' ? splitGlobs(f === 'cursor' ? fields.globs : fields.applyTo) : scopedPaths(f, t) });
    });
    const legacyFile = f === 'cursor' ? '.cursorrules' : f === 'windsurf' ? '.windsurfrules' : undefined;
    if (legacyFile) {
      const legacy = (await snapshot.read(legacyFile))?.toString('utf8');
      if (legacy !== undefined) {
        read.push(legacyFile);
        chunks.push(...splitSections(legacyFile, legacy));
      }
    }
  }
  const done = new Set<string>();
  for (const a of set.artifacts) {
    const v = a.data.imported_from;
    for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) done.add(String(x));
  }
  const taken = [...set.artifacts.map((a) => a.id), ...(await snapshot.listUnder(config.dir)).map((e) => path.posix.basename(e.path))];
  const status = norm.statuses.includes('active') ? 'active' : norm.statuses.find((s) => !norm.inactive.includes(s));
  const plan: RulesImportPlan = { norms: [], skipped: [], read };
  const seen = new Set<string>();
  for (const c of chunks) {
    if (done.has(c.from) || seen.has(c.from)) {
      plan.skipped.push(c.from);
      continue;
    }
    seen.add(c.from);
    const id = nextId(norm.prefix, taken);
    taken.push(id);
    const edits: FrontmatterEdit[] = [
      { op: 'set', path: 'id', value: id },
      { op: 'set', path: 'type', value: 'norm' },
      { op: 'set', path: 'title', value: c.title },
    ];
    if (status) edits.push({ op: 'set', path: 'status', value: status });
    if (c.paths.length) edits.push({ op: 'set', path: 'paths', value: c.paths });
    edits.push({ op: 'set', path: 'imported_from', value: c.from });
    const body = /^#{1,6}\s/.test(c.body) ? c.body : `# ${c.title}\n\n${c.body}`;
    const content = editFrontmatterText(`---\n---\n${body}\n`, edits);
    const file = path.posix.join(config.dir, norm.dir, `${id}.md`);
    plan.norms.push({ id, title: c.title, file, content, from: c.from, paths: c.paths });
  }
  return plan;
}
