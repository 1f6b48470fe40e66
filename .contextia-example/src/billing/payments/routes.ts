import { ValidationError } from '../errors.js';
import type { App } from '../invoice/routes.js';
import type { Payment, PaymentMatcher } from './matcher.js';

function parsePayment(body: unknown): Payment {
  const p = body as Partial<Payment> | undefined;
  if (!p || typeof p.id !== 'string' || !Number.isInteger(p.amountMinor) || typeof p.currency !== 'string') {
    throw new ValidationError('body must be a payment with id, integer amountMinor and currency');
  }
  return { id: p.id, amountMinor: p.amountMinor!, currency: p.currency, remittance: p.remittance ?? '' };
}

// @spec SPEC-PAYMENTS-001
export function registerPaymentRoutes(app: App, matcher: PaymentMatcher): void {
  app.post('/api/v1/payments', async (req) => {
    const payment = parsePayment(req.body);
    const result = await matcher.match(payment, req.headers['x-correlation-id'] ?? payment.id);
    return { status: result.kind === 'matched' ? 200 : 202, body: result };
  });
}
