import { InvoiceNotFoundError } from '../errors.js';
import { logger } from '../logger.js';

export interface Payment {
  id: string;
  amountMinor: number;
  currency: string;
  remittance: string;
}

export interface OpenInvoice {
  number: string;
  balanceMinor: number;
  currency: string;
}

export interface LedgerPort {
  openInvoice(number: string): Promise<OpenInvoice | undefined>;
  applyPayment(invoiceNumber: string, payment: Payment, remainingMinor: number): Promise<void>;
  storeUnmatched(payment: Payment): Promise<void>;
}

export type MatchResult = { kind: 'matched'; invoice: string; remainingMinor: number } | { kind: 'unmatched'; reason: string };

const INVOICE_NUMBER = /\bACME-\d{4}-\d{6}\b/;

/**
 * Matches payments to invoices by the invoice number in the remittance text, never by amount.
 * @decision DEC-PAYMENTS-001
 */
export class PaymentMatcher {
  constructor(private readonly ledger: LedgerPort) {}

  // @spec SPEC-PAYMENTS-001
  async match(payment: Payment, correlationId: string): Promise<MatchResult> {
    const number = INVOICE_NUMBER.exec(payment.remittance)?.[0];
    if (!number) return this.unmatched(payment, 'no invoice number in remittance', correlationId);
    const invoice = await this.ledger.openInvoice(number);
    if (!invoice) {
      const err = new InvoiceNotFoundError(number);
      logger.error('payment.match.failed', err, { correlationId, payment: payment.id });
      return this.unmatched(payment, err.message, correlationId);
    }
    if (invoice.currency !== payment.currency) return this.unmatched(payment, `currency ${payment.currency} differs from invoice ${invoice.currency}`, correlationId);
    const remainingMinor = Math.max(0, invoice.balanceMinor - payment.amountMinor);
    await this.ledger.applyPayment(invoice.number, payment, remainingMinor);
    logger.info('payment.matched', { correlationId, payment: payment.id, invoice: invoice.number, remaining: remainingMinor });
    return { kind: 'matched', invoice: invoice.number, remainingMinor };
  }

  private async unmatched(payment: Payment, reason: string, correlationId: string): Promise<MatchResult> {
    await this.ledger.storeUnmatched(payment);
    logger.info('payment.unmatched', { correlationId, payment: payment.id, reason });
    return { kind: 'unmatched', reason };
  }
}
