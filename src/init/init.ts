import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { editFrontmatterText } from '../artifacts/write.js';
import { CONFIG_FILE, defaultConfig } from '../config.js';
import { writeFileAtomic } from '../util/atomic.js';
import { containedPath, mkdirContained } from '../util/contained.js';
import { renderConfigYaml } from './config-template.js';
import { detectIdentity, repoFiles, type DetectedIdentity } from './detect.js';
import { detectAgentRuleFiles, detectRecordFolders, type DetectedSource } from '../artifacts/sources/detect.js';
import { readPointedFolders } from '../artifacts/sources/pointers.js';
import { loadArtifactSet } from '../artifacts/load.js';
import { loadConfig } from '../config.js';
import { openSnapshot } from '../snapshot/open.js';

export interface InitOptions {
  /** repository top level */
  root: string;
}

export interface InitResult {
  /** repository-relative paths of files written */
  created: string[];
  /** folders that were missing and were added */
  folders: string[];
  /** files that already existed and were left untouched; non-empty means nothing was written */
  existing: string[];
  identity: DetectedIdentity;
  /** decision-record folders found and configured as sources */
  sources: DetectedSource[];
  /** statuses of those records that map onto nothing (add them to status_map) */
  unmapped: { file: string; line?: number; message: string }[];
  /** agents' rule files already in the repository (AGENTS.md, CLAUDE.md, .cursor/rules/…) */
  agentRules: string[];
}

const exists = (p: string) => lstat(p).then(() => true, () => false);

/** identity.md for a detected project: frontmatter through the same serialiser as every write. */
export function renderIdentity(id: DetectedIdentity): string {
  const langs = id.languages.slice(0, 3);
  // a description that already names the languages ("a reference implementation written in
  // Python") would be followed by the same fact again
  const told = !id.frameworks.length && !!id.description && langs.every((l) => new RegExp(`(?<![\\w+#])${l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w+#])`).test(id.description!));
  const paragraph = [
    id.description ? (/[.!?\u2026]$/.test(id.description) ? id.description : `${id.description}.`) : `${id.name} has no description in its package metadata yet.`,
    langs.length && !told ? `It is written in ${langs.join(', ')}${id.frameworks.length ? ` with ${id.frameworks.slice(0, 4).join(', ')}` : ''}.` : '',
    id.workspaces?.length ? `It is a monorepo with workspaces ${id.workspaces.slice(0, 6).join(', ')}.` : '',
    'Replace this paragraph with what the project is for, who uses it and what must never break:',
    'it is the first thing every context bundle shows.',
  ].filter(Boolean);
  const body = `# ${id.name}\n\n${paragraph.join(' ')}\n`;
  return editFrontmatterText(`---\n---\n${body}`, [
    { op: 'set', path: 'id', value: 'IDENTITY' },
    { op: 'set', path: 'type', value: 'identity' },
    { op: 'set', path: 'title', value: id.name },
    ...(id.description ? [{ op: 'set' as const, path: 'summary', value: id.description }] : []),
    { op: 'set', path: 'languages', value: id.languages },
    { op: 'set', path: 'frameworks', value: id.frameworks },
    ...(id.workspaces ? [{ op: 'set' as const, path: 'workspaces', value: id.workspaces }] : []),
  ]);
}

/**
 * Create `.contextia/` with a commented config.yaml (the documented defaults) and an
 * identity.md detected from the repository. Never overwrites: when either file exists,
 * only missing type folders are added and `existing` names what was found.
 */
export async function initRepo(opts: InitOptions): Promise<InitResult> {
  const cfg = defaultConfig();
  const base = path.join(opts.root, cfg.dir);
  const configRel = `${cfg.dir}/${CONFIG_FILE}`;
  const identityRel = `${cfg.dir}/identity.md`;
  const existing: string[] = [];
  for (const rel of [configRel, identityRel]) if (await exists(path.join(opts.root, rel))) existing.push(rel);

  const folders: string[] = [];
  const dirs = [...new Set(Object.values(cfg.types).map((t) => t.dir).filter((d) => d && !d.startsWith('docs/')))];
  for (const d of [...dirs, 'docs']) {
    const abs = path.join(base, d);
    if (!(await exists(abs))) {
      await mkdirContained(opts.root, abs);
      folders.push(`${cfg.dir}/${d}`);
    }
  }
  const identity = await detectIdentity(opts.root);
  const files = await repoFiles(opts.root);
  const pointed = await readPointedFolders((f) => readFile(path.join(opts.root, f)));
  const sources = detectRecordFolders(files, pointed);
  const agentRules = detectAgentRuleFiles(files);
  if (existing.length) return { created: [], folders, existing, identity, sources, unmapped: [], agentRules };

  cfg.sources = sources.map(({ records: _n, from: _f, dated: _d, ...src }) => src);
  const created: string[] = [];
  // createOnly: a concurrent init (or a file that appeared meanwhile) is never clobbered
  await writeFileAtomic(await containedPath(opts.root, configRel), renderConfigYaml(cfg), { createOnly: true });
  created.push(configRel);
  await writeFileAtomic(await containedPath(opts.root, identityRel), renderIdentity(identity), { createOnly: true });
  created.push(identityRel);
  let unmapped: InitResult['unmapped'] = [];
  if (sources.length) {
    // read the records as check will: statuses no table entry maps are reported now
    const snapshot = await openSnapshot({ cwd: opts.root });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      unmapped = set.problems.filter((p) => p.rule === 'status-unmapped').map(({ file, line, message }) => ({ file, line, message }));
      // records that carry their own id (`id: 0003-use-x` in frontmatter) are not named prefix + number: say which ids they have
      const innermost = [...sources].sort((a, b) => b.dir.length - a.dir.length);
      const counts = new Map<DetectedSource, { all: number; own: string[] }>();
      for (const a of set.byId.values()) {
        const src = a.format === 'adr' ? innermost.find((o) => a.file.startsWith(o.dir + '/')) : undefined;
        if (!src) continue;
        const c = counts.get(src) ?? counts.set(src, { all: 0, own: [] }).get(src)!;
        c.all++;
        if (!a.id.startsWith(src.prefix)) c.own.push(a.id);
      }
      for (const [src, c] of counts) {
        if (c.own.length * 2 > c.all) src.frontmatterId = c.own.sort()[0];
        // the records read, as list shows them: a page beside them (install.md) named no number is none
        src.records = c.all;
      }
    } finally {
      snapshot.close();
    }
  }
  return { created, folders, existing, identity, sources, unmapped, agentRules };
}
