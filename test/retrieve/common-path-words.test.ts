import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { codeWordsOf, distinctWords } from '../../src/retrieve/code-words.js';
import { extractPlaceTerms, placeQuery } from '../../src/retrieve/extract.js';
import { terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * A TypeScript monorepo shaped like git-en-boite (DEC-098): every code file sits under
 * `packages/<package>/src/`. One broad record lays out the packages (`packages/core` holds the
 * domain's value objects, `packages/app` wires it, `packages/web` serves it) and speaks every
 * path's folder words; another decides how the repository's git operations run, which the core's
 * `git_repo.ts` does.
 */
function fixture() {
  const files: Record<string, string> = {
    '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'doc/adr/0001-value-objects-in-the-core-package.md':
      '# 1. Value objects in the core package\n\n## Status\n\nAccepted\n\n## Context\n\nThe packages pass plain strings between them: packages/core, packages/app and packages/web each check them again.\n\n## Decision\n\nThe core package (packages/core) defines a value object for every name and id it exposes (the RepoId of a repo, the name of a branch); packages/app and packages/web take them from packages/core.\n\n## Consequences\n\nA new package depends on the core package for its types.\n',
    'doc/adr/0002-background-git-operations.md':
      '# 2. Git operations run in the background\n\n## Status\n\nAccepted\n\n## Context\n\nFetching a remote and pushing a commit block the request for seconds.\n\n## Decision\n\nEvery git operation on a repo (fetch, push, commit) runs as a background job; the request only queues it and returns.\n\n## Consequences\n\nA client polls for the outcome of a push.\n',
    'packages/core/src/git_repo.ts':
      "import { RepoId } from './repo_id'\n\nexport interface GitRepo {\n  id: RepoId\n  fetch(remote: string): Promise<void>\n}\n",
  };
  const pkgs = ['core', 'app', 'web', 'inventory', 'worker'];
  const things = ['clock', 'logger', 'queue', 'router', 'session', 'timer', 'mailer', 'cache'];
  for (const p of pkgs) for (const t of things) files[`packages/${p}/src/${t}_${p}.ts`] = `export function ${t}${p[0]!.toUpperCase()}${p.slice(1)}(input: number): number {\n  return input + ${t.length}\n}\n`;
  const repo = makeRepo(files);
  repo.commit('fixture');
  return repo;
}

async function open(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { snapshot, set };
}

describe('a folder word most files carry in their path says little of one file (issue 30 item 2, DEC-098)', () => {
  it("a path word in half or more of the code files keeps 0.3 of its share; the file's own words keep theirs", async () => {
    const repo = fixture();
    const { snapshot } = await open(repo.dir);
    try {
      const cw = (await codeWordsOf(snapshot))!;
      expect(cw.files).toBe(41);
      const [pkg, core, git] = [terms('packages')[0]!, terms('core')[0]!, terms('git')[0]!];
      expect(cw.df[pkg]).toBe(41);
      const d = distinctWords(cw);
      expect(d.pathAfter(pkg)).toBe(0.3);
      expect(d.pathAfter(core)).toBe(1);
      expect(d.pathAfter(git)).toBe(1);
      // shared out alone, a folder every file has kept a full share of the path's weight
      const t = extractPlaceTerms("export interface GitRepo {}\n", 'packages/core/src/git_repo.ts');
      const before = placeQuery(t, { code: d.code, path: d.path });
      const after = placeQuery(t, d);
      expect(after.get(pkg)!).toBeLessThan(before.get(pkg)!);
      expect(after.get(pkg)!).toBeLessThan(after.get(core)!);
      expect(after.get(git)).toBeCloseTo(before.get(git)!, 6);
      expect(after.get(core)).toBeCloseTo(before.get(core)!, 6);
    } finally {
      snapshot.close();
    }
  });

  it('end to end, the git repo file still finds the record on git operations first, not the record laying out the packages (the weights above are what the rule changes)', async () => {
    const repo = fixture();
    const { snapshot, set } = await open(repo.dir);
    try {
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'packages/core/src/git_repo.ts' }, neighbours: false, staleness: false });
      expect(r.results[0]?.id).toBe('ADR-0002');
    } finally {
      snapshot.close();
    }
  });
});
