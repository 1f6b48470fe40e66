// @spec SPEC-CHECK-001

import { memo } from '../cache/memo.js';
import { sha256 } from '../util/hash.js';
import { VERSION } from '../version.js';
import type { CheckContext, Rule, RuleFinding } from './types.js';

/** Bump when what a memo holds changes shape: old memos are then misses. */
const MEMO_VERSION = 1;

type Out = RuleFinding;

/**
 * The artifact set as a key: each record's id, file, origin, blob id and status, the global
 * records' content hashes, and the configuration. Two runs with equal keys loaded the same records
 * from the same bytes under the same settings; the status as read is in it too, since which
 * decisions are active is what a rule compares and the reading of a status can change.
 */
export function artifactSetKey(ctx: CheckContext): string {
  const parts = ctx.set.artifacts.map((a) => `${a.id}\0${a.file}\0${a.origin}\0${a.blob}\0${a.status ?? ''}`);
  const globals = Object.entries(ctx.set.globalHashes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([parts, globals, ctx.config]);
}


/**
 * A rule's findings, remembered under everything they depend on (its memoKey, the tool's
 * version): a warm `check` of unchanged records skips the work. A rule without a memoKey,
 * or a key of undefined, always runs.
 */
export async function runMemoized(rule: Rule, ctx: CheckContext): Promise<Out[]> {
  const raw = await rule.memoKey?.(ctx);
  if (raw === undefined) return rule.run(ctx);
  const key = sha256(`git-ctx/check-rule ${MEMO_VERSION} ${VERSION} ${rule.id}\n${raw}`);
  const findings = memo<Out[]>(ctx.snapshot.root, 'check-rule', rule.id);
  const hit = findings.get(key);
  if (Array.isArray(hit)) return hit as Out[];
  const out = await rule.run(ctx);
  findings.set(key, out);
  return out;
}
