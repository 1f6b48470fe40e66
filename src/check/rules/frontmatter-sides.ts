// @spec SPEC-CHECK-001
//
// Apart from core.ts's broken-link rule, which reports these with the links that name nothing.

import { extraOf } from '../../artifacts/sources/extra.js';
import { globIndexFor } from '../../util/glob.js';
import type { CheckContext, RuleFinding } from '../types.js';

/**
 * A record's frontmatter naming the other side of a supersession by a path where nothing is
 * (`supersededBy: docs/adr/0004-x.md` after a typo or a move): no supersession was drawn, and
 * loading said nothing. A path to a file that is there and is no record (a design page) stays
 * silent, as DEC-132 decided. Warnings of the broken-link rule, at the key's line. @decision DEC-137
 */
export async function unheldSupersessions(ctx: CheckContext): Promise<RuleFinding[]> {
  const named = ctx.set.artifacts.filter((a) => a.origin === 'repo' && extraOf(a)?.fp?.length);
  if (!named.length) return [];
  const records = new Set(ctx.set.artifacts.map((a) => a.file));
  const index = await globIndexFor(ctx.snapshot);
  const out: RuleFinding[] = [];
  for (const a of named) {
    for (const [key, value, line, paths] of extraOf(a)!.fp!) {
      if (paths.some((p) => records.has(p) || index.match(p).length > 0)) continue;
      out.push({ rule: 'broken-link', severity: 'warning', id: a.id, file: a.file, line, message: `${key} names ${value}, which holds no record (no file is there): no supersession is drawn; name the other record by its file's path or its id` });
    }
  }
  return out;
}
