// @spec SPEC-CODEGRAPH-001

import type { Snapshot } from '../snapshot/types.js';
import { GitAttributes, linguistFlag } from './gitattributes.js';
import { vendorFolderOf } from './ungovernable.js';

/*
 * Other people's code: vendored libraries and generated files are not the team's code, no
 * decision of theirs governs them, and reading them on a cold run costs the first answer
 * seconds (a Go repository with its dependencies under vendor/ holds 7 of 8 Go files
 * there). The analyses that read every code file (the code graph, the code words and the
 * place background) leave them out by this one rule, the PR report's (ungovernable.ts):
 * a vendor folder (`vendor/`, `third_party/`, `node_modules/` when tracked, `Godeps/_workspace/`…),
 * or `.gitattributes` marking the path `linguist-vendored` or `linguist-generated`;
 * `linguist-vendored=false` brings a path in a vendor folder back, as it does for Linguist.
 * A question about such a file by name still answers: records are matched to it as to any path.
 */

/** Whether a path is other people's code, decided for one tree. */
export type OthersCode = (path: string) => boolean;

/** The tracked attributes files of a listing (git reads the same, from the tree). */
const isAttributesFile = (p: string): boolean => p === '.gitattributes' || p.endsWith('/.gitattributes');

const decided = new WeakMap<Snapshot, Promise<OthersCode>>();

/**
 * The rule for a snapshot's tree: its .gitattributes files read once (one batch read), then
 * a per-path test without I/O. Decided once per snapshot (one tree state).
 */
export function othersCodeOf(snapshot: Snapshot): Promise<OthersCode> {
  let p = decided.get(snapshot);
  if (!p) {
    p = decide(snapshot);
    decided.set(snapshot, p);
  }
  return p;
}

async function decide(snapshot: Snapshot): Promise<OthersCode> {
  const names = (await snapshot.list()).filter((e) => e.mode !== '120000' && e.mode !== '160000' && isAttributesFile(e.path)).map((e) => e.path);
  const files = new Map<string, string>();
  if (names.length) {
    const bufs = await snapshot.readMany(names);
    names.forEach((n, i) => {
      const b = bufs[i];
      // an attributes file is a few lines; a huge one is not read (as the PR report does)
      if (b && b.length <= 1024 * 1024) files.set(n, b.toString('utf8'));
    });
  }
  const attrs = files.size ? new GitAttributes(files) : undefined;
  return (path) => othersCode(path, attrs);
}

/** The rule itself, for a path and the tree's attributes (undefined: none). */
export function othersCode(path: string, attrs: GitAttributes | undefined): boolean {
  const a = attrs?.attributesOf(path);
  const vendored = linguistFlag(a?.get('linguist-vendored'));
  if (vendored || linguistFlag(a?.get('linguist-generated'))) return true;
  return vendored === undefined && vendorFolderOf(path) !== undefined;
}
