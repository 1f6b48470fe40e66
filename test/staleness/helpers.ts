import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import type { SnapshotKind } from '../../src/snapshot/types.js';
import { judgeArtifacts, type JudgeOptions } from '../../src/staleness/judge.js';
import { stampArtifacts } from '../../src/staleness/stamp.js';
import type { ArtifactJudgement } from '../../src/staleness/types.js';

/** A decision artifact with frontmatter lines appended verbatim. */
export function decision(id: string, extra = '', body = 'Why we do it.\n'): string {
  return `---\nid: ${id}\ntype: decision\ntitle: ${id} title\nstatus: accepted\n${extra}---\n# ${id}\n\n${body}`;
}

export const INVOICE_TS = `// @decision DEC-ROUND-001
export function roundTotal(amount: number): number {
  const cents = Math.round(amount * 100);
  return cents / 100;
}

export function formatTotal(amount: number): string {
  return amount.toFixed(2);
}
`;

/** Open the work tree (or index) of a repo, load everything, run the judge. */
export async function judge(dir: string, opts: Partial<JudgeOptions> & { kind?: SnapshotKind } = {}) {
  const snapshot = await openSnapshot({ cwd: dir, kind: opts.kind ?? 'worktree' });
  try {
    const config = await loadConfig(snapshot);
    const set = await loadArtifactSet(snapshot, config);
    return await judgeArtifacts({ snapshot, config, set, ...opts });
  } finally {
    snapshot.close();
  }
}

export async function judgeOne(dir: string, id: string, opts: Partial<JudgeOptions> = {}): Promise<ArtifactJudgement> {
  const r = await judge(dir, { ...opts, ids: [id] });
  const j = r.artifacts.find((x) => x.id === id);
  if (!j) throw new Error(`no judgement for ${id}`);
  return j;
}

export async function stamp(dir: string, ids: string[] | 'all', opts: { fix?: boolean; kind?: SnapshotKind } = {}) {
  const snapshot = await openSnapshot({ cwd: dir, kind: opts.kind ?? 'worktree' });
  try {
    const config = await loadConfig(snapshot);
    const set = await loadArtifactSet(snapshot, config);
    return await stampArtifacts({ snapshot, config, set, ids, fix: opts.fix });
  } finally {
    snapshot.close();
  }
}
