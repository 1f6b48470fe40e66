// @spec SPEC-STORE-001

import { CtxError } from '../errors.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `--since`: a duration back from now (`30m`, `12h`, `1d`, `2w`) or an ISO date/time; ms since the epoch. */
export function parseSince(text: string, now: number): number {
  const m = /^(\d+(?:\.\d+)?)\s*([mhdw])$/i.exec(text.trim());
  if (m) return now - Number(m[1]) * UNITS[m[2]!.toLowerCase()]!;
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) {
    const t = Date.parse(text.trim());
    if (Number.isFinite(t)) return t;
  }
  throw new CtxError('USAGE', `--since ${JSON.stringify(text)}: expected a duration (30m, 12h, 1d, 2w) or an ISO date (2026-11-01, 2026-11-01T09:00Z)`);
}
