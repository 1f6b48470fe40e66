// @spec SPEC-CURRENCY-001

import { roundHalfEven, type Money } from '../invoice/totals.js';
import type { RateProvider } from './rates.js';

const SCALE = 1_000_000;

/**
 * Convert an amount with the reference rate of a day. The rate is a decimal string and is
 * applied in integers (scaled by 10^6), so no float ever holds money.
 * @decision DEC-BILLING-004
 */
export async function convert(amount: Money, to: string, day: string, rates: RateProvider): Promise<Money> {
  if (amount.currency === to) return amount;
  const rate = await rates.rate(amount.currency, to, day);
  const scaled = Math.round(Number(rate) * SCALE);
  return { minor: roundHalfEven((amount.minor * scaled) / SCALE), currency: to };
}

/** Convert every line to one currency, keeping the originals for the PDF. */
export async function convertLines(lines: Money[], to: string, day: string, rates: RateProvider): Promise<{ original: Money; converted: Money }[]> {
  const out = [];
  for (const original of lines) out.push({ original, converted: await convert(original, to, day, rates) });
  return out;
}
