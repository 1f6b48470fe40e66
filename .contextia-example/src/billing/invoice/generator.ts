import { convert } from '../currency/convert.js';
import type { RateProvider } from '../currency/rates.js';
import { logger } from '../logger.js';
import { invoiceTotal, lineTotal, type InvoiceLine, type Money } from './totals.js';

export interface Order {
  id: string;
  customerId: string;
  billingCurrency: string;
  lines: InvoiceLine[];
}

export interface Invoice {
  number: string;
  orderId: string;
  issuedOn: string;
  lines: { line: InvoiceLine; original: Money; converted: Money }[];
  total: Money;
}

export interface InvoiceStore {
  findByOrder(orderId: string): Promise<Invoice | undefined>;
  /** allocates the next gapless number and inserts, in one transaction */
  insertWithNextNumber(draft: Omit<Invoice, 'number'>, entity: string): Promise<Invoice>;
}

export class InvoiceGenerator {
  constructor(
    private readonly store: InvoiceStore,
    private readonly rates: RateProvider,
    private readonly entity = 'ACME',
  ) {}

  // @spec SPEC-BILLING-001
  async generate(order: Order, issuedOn: string, correlationId: string): Promise<Invoice> {
    const existing = await this.store.findByOrder(order.id);
    if (existing) {
      logger.info('invoice.generate.duplicate', { correlationId, orderId: order.id, invoice: existing.number });
      return existing;
    }
    const lines = [];
    for (const line of order.lines) {
      const original = lineTotal(line);
      const converted = await convert(original, order.billingCurrency, issuedOn, this.rates);
      lines.push({ line, original, converted });
    }
    const total = invoiceTotal(
      lines.map((l) => l.converted),
      order.billingCurrency,
    );
    const invoice = await this.store.insertWithNextNumber({ orderId: order.id, issuedOn, lines, total }, this.entity);
    logger.info('invoice.generated', { correlationId, orderId: order.id, invoice: invoice.number, total: total.minor });
    return invoice;
  }
}
