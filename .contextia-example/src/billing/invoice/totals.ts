/** An amount in integer minor units (cents) with its ISO 4217 currency. */
export interface Money {
  minor: number;
  currency: string;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** unit price in minor units, possibly fractional after a discount */
  unitPrice: number;
  currency: string;
}

/**
 * Round half to even: 0.5 goes to the nearest even integer, so ties do not bias totals upward.
 * @decision DEC-BILLING-001
 */
export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (Math.abs(diff - 0.5) < 1e-9) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(value);
}

/** @decision DEC-BILLING-001 */
export function lineTotal(line: InvoiceLine): Money {
  return { minor: roundHalfEven(line.quantity * line.unitPrice), currency: line.currency };
}

/** The invoice total is the sum of the rounded line totals, never a rounded sum of raw amounts. */
export function invoiceTotal(lines: Money[], currency: string): Money {
  let minor = 0;
  for (const l of lines) {
    if (l.currency !== currency) throw new Error(`line in ${l.currency} cannot be added to a ${currency} total; convert it first`);
    minor += l.minor;
  }
  return { minor, currency };
}
