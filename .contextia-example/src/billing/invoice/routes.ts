import { ValidationError } from '../errors.js';
import type { InvoiceGenerator, Order } from './generator.js';

/** The slice of a Fastify/Express-style app these routes need. */
export interface App {
  post(path: string, handler: (req: { body: unknown; headers: Record<string, string | undefined> }) => Promise<{ status: number; body: unknown }>): void;
}

function parseOrder(body: unknown): Order {
  const o = body as Partial<Order> | undefined;
  if (!o || typeof o.id !== 'string' || typeof o.customerId !== 'string' || !Array.isArray(o.lines)) {
    throw new ValidationError('body must be an order with id, customerId and lines');
  }
  return { id: o.id, customerId: o.customerId, billingCurrency: o.billingCurrency ?? 'EUR', lines: o.lines };
}

// @spec SPEC-BILLING-001
export function registerInvoiceRoutes(app: App, generator: InvoiceGenerator, today: () => string): void {
  app.post('/api/v1/invoices', async (req) => {
    const order = parseOrder(req.body);
    const correlationId = req.headers['x-correlation-id'] ?? order.id;
    const invoice = await generator.generate(order, today(), correlationId);
    return { status: 201, body: invoice };
  });
}
