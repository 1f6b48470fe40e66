import { RateUnavailableError } from '../errors.js';

export interface RateProvider {
  /** units of `to` per one unit of `from` on a calendar day, as a decimal string */
  rate(from: string, to: string, day: string): Promise<string>;
}

type Fetch = (url: string) => Promise<{ ok: boolean; text(): Promise<string> }>;

/**
 * ECB daily reference rates (EUR base), fetched once per calendar day and cached.
 * @decision DEC-CURRENCY-001
 */
export class EcbRateProvider implements RateProvider {
  private readonly cache = new Map<string, Map<string, string>>();

  constructor(
    private readonly fetchFn: Fetch,
    private readonly url = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
  ) {}

  async rate(from: string, to: string, day: string): Promise<string> {
    if (from === to) return '1';
    const table = await this.table(day, from, to);
    const perEur = (c: string) => (c === 'EUR' ? '1' : table.get(c));
    const f = perEur(from);
    const t = perEur(to);
    if (!f || !t) throw new RateUnavailableError(from, to, day);
    return (Number(t) / Number(f)).toFixed(6);
  }

  private async table(day: string, from: string, to: string): Promise<Map<string, string>> {
    const hit = this.cache.get(day);
    if (hit) return hit;
    let xml: string;
    try {
      const res = await this.fetchFn(this.url);
      if (!res.ok) throw new Error('ECB feed answered with an error status');
      xml = await res.text();
    } catch (e) {
      throw new RateUnavailableError(from, to, day, e);
    }
    const table = new Map<string, string>();
    for (const m of xml.matchAll(/currency='([A-Z]{3})' rate='([0-9.]+)'/g)) table.set(m[1]!, m[2]!);
    this.cache.set(day, table);
    return table;
  }
}
