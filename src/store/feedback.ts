// @spec SPEC-STORE-001

import { CtxError } from '../errors.js';
import type { Verdict } from './types.js';

/** The judged references of a feedback call, validated: at least one, none judged two ways. */
export function feedbackItems(o: { useful?: string[]; notUseful?: string[]; missing?: string[] }): { verdict: Verdict; ref: string }[] {
  const items: { verdict: Verdict; ref: string }[] = [];
  const seen = new Map<string, Verdict>();
  const add = (verdict: Verdict, refs: string[] | undefined) => {
    for (const raw of refs ?? []) {
      for (const ref of raw.split(',').map((r) => r.trim()).filter(Boolean)) {
        const was = seen.get(ref);
        if (was && was !== verdict) throw new CtxError('USAGE', `${ref} is marked both ${was} and ${verdict}`);
        if (was) continue;
        seen.set(ref, verdict);
        items.push({ verdict, ref });
      }
    }
  };
  add('useful', o.useful);
  add('not-useful', o.notUseful);
  add('missing', o.missing);
  if (!items.length) throw new CtxError('USAGE', 'feedback needs at least one reference: --useful, --not-useful or --missing (MCP: useful, not_useful, missing)');
  return items;
}
