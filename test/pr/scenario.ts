import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { buildCodeIndex } from '../../src/code/code-index.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { currentFingerprints } from '../../src/staleness/judge.js';
import { ROOT } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

/** Every file below a fixture folder, as a path → content map. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = path.join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out[path.relative(dir, abs).split(path.sep).join('/')] = readFileSync(abs, 'utf8');
    }
  };
  walk(dir);
  return out;
}

export const FIXTURES = path.join(ROOT, 'test/fixtures');

/** Write `stamp:` (commit + fingerprints of every anchor, as `git ctx stamp` would) into an artifact, and commit. */
export async function stampArtifact(repo: TestRepo, id: string): Promise<string> {
  const snap = await openSnapshot({ cwd: repo.dir, kind: 'commit', rev: 'HEAD' });
  try {
    const config = await loadConfig(snap);
    const set = await loadArtifactSet(snap, config);
    const a = set.byId.get(id)!;
    const index = await buildCodeIndex(snap, config, { cache: false });
    const { fingerprints } = await currentFingerprints(a, snap, index);
    const text = readFileSync(path.join(repo.dir, a.file), 'utf8');
    const fp = Object.entries(fingerprints)
      .map(([k, v]) => `    ${JSON.stringify(k)}: ${v}`)
      .join('\n');
    const stamped = text.replace(/\n---\n/, `\nstamp:\n  commit: ${snap.commit}\n  fingerprints:\n${fp}\n---\n`);
    return repo.commit(`stamp ${id}`, { [a.file]: stamped });
  } finally {
    snap.close();
  }
}

export interface Scenario {
  repo: TestRepo;
  /** tip of main (the PR base) */
  base: string;
  /** tip of the feature branch (the PR head) */
  head: string;
}

/**
 * test/fixtures/pr-governance: `base/` committed on main, DEC-BILLING-001 stamped, then
 * `head/` laid over it on a feature branch (changes governed code, adds a broken link).
 */
export async function governanceScenario(): Promise<Scenario> {
  const dir = path.join(FIXTURES, 'pr-governance');
  const repo = makeRepo(readTree(path.join(dir, 'base')));
  repo.commit('base');
  const base = await stampArtifact(repo, 'DEC-BILLING-001');
  repo.git('checkout', '-q', '-b', 'feature');
  const head = repo.commit('change governed code', readTree(path.join(dir, 'head')));
  return { repo, base, head };
}
