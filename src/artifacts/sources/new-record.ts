// @spec SPEC-SOURCES-001

import path from 'node:path';
import type { ArtifactSet } from '../load.js';
import { splitFrontmatter } from '../parse.js';
import { CtxError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { containedPath, mkdirContained } from '../../util/contained.js';
import { normalizeRepoPath } from '../../util/paths.js';
import { confirmationSection, type ConfirmEntry } from './confirm-block.js';
import { adrIdFor, fileNumber } from './files.js';

export interface NewRecordOptions {
  /** the records folder (an adr source's dir) */
  dir: string;
  title: string;
  /** status as written (default Proposed) */
  status?: string;
  /** YYYY-MM-DD (default today, UTC) */
  date: string;
  /** filled sections (git ctx add); MADR records also take paths and keywords in their frontmatter */
  content?: { context?: string; decision?: string; consequences?: string; paths?: string[]; keywords?: string[]; confirm?: ConfirmEntry[] };
}

export interface NewRecordResult {
  id: string;
  file: string;
  abs: string;
  style: 'nygard' | 'madr';
}

const slug = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'decision';

/**
 * Write a new decision record into an adr source folder in the folder's own style: the next
 * number after the highest one in it (padded like the others, 4 digits when there are
 * none), Nygard (`# N. Title`, `Date:`, `## Status`) unless its records carry MADR
 * frontmatter or `* Status:` bullets. Created with createOnly: never overwrites.
 */
export async function createRecord(set: ArtifactSet, o: NewRecordOptions): Promise<NewRecordResult> {
  const dir = normalizeRepoPath(o.dir);
  const src = set.config.sources.find((s) => s.dir === dir && s.format === 'adr');
  if (!src) {
    const dirs = set.config.sources.filter((s) => s.format === 'adr').map((s) => s.dir);
    throw new CtxError('USAGE', `${dir} is not a records folder (format adr) under sources: in ${set.config.dir}/config.yaml`, { hint: dirs.length ? `records folders: ${dirs.join(', ')}` : 'add it under sources: (git ctx init finds them)' });
  }
  const inDir = set.artifacts.filter((a) => a.file.startsWith(dir + '/'));
  let max = 0;
  let width = 0;
  for (const a of inDir) {
    const n = fileNumber(a.file);
    if (n === undefined) continue;
    max = Math.max(max, Number(n));
    width = Math.max(width, n.length);
  }
  const madr = inDir.some((a) => splitFrontmatter(a.body).hasFrontmatter || /^[*-][ \t]+Status:/im.test(a.body));
  const title = o.title.trim() || 'Untitled decision';
  const status = o.status?.trim() || 'Proposed';
  for (let n = max + 1; n < max + 20; n++) {
    const num = String(n).padStart(width || 4, '0');
    const file = `${dir}/${num}-${slug(title)}.md`;
    const c = o.content ?? {};
    const para = (t: string | undefined) => (t?.trim() ? `${t.trim()}\n\n` : '');
    const list = (k: string, v: string[] | undefined) => (v?.length ? `${k}: [${v.map((x) => JSON.stringify(x)).join(', ')}]\n` : '');
    const text = madr
      ? `---\nstatus: ${status.toLowerCase()}\ndate: ${o.date}\ndeciders: []\n${list('paths', c.paths)}${list('keywords', c.keywords)}---\n# ${title}\n\n## Context and Problem Statement\n\n${para(c.context)}## Considered Options\n\n## Decision Outcome\n\n${para(c.decision)}### Consequences\n${c.consequences?.trim() ? `\n${c.consequences.trim()}\n` : ''}`
      : `# ${n}. ${title}\n\nDate: ${o.date}\n\n## Status\n\n${status}\n\n## Context\n\n${para(c.context)}## Decision\n\n${para(c.decision)}## Consequences\n${c.consequences?.trim() ? `\n${c.consequences.trim()}\n` : ''}`;
    // the record's own style: MADR 4 keeps Confirmation under Decision Outcome (DEC-052)
    const confirmation = c.confirm?.length ? `\n${confirmationSection(c.confirm, madr ? 3 : 2)}` : '';
    const abs = path.join(set.snapshot.root, ...file.split('/'));
    // contained (SPEC-HOSTILE-001): a linked records folder must not write outside the work tree
    await containedPath(set.snapshot.root, abs);
    await mkdirContained(set.snapshot.root, path.dirname(abs));
    try {
      await writeFileAtomic(abs, text + confirmation, { createOnly: true });
      return { id: adrIdFor(file, src.prefix), file, abs, style: madr ? 'madr' : 'nygard' };
    } catch (e) {
      if (!(e instanceof CtxError && e.code === 'EXISTS')) throw e;
    }
  }
  throw new CtxError('EXISTS', `could not find a free number in ${dir}`);
}
