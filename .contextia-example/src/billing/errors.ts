/** Every failure in billing is an AcmeError with a stable code (NORM-ERROR-001). */
export class AcmeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class RateUnavailableError extends AcmeError {
  constructor(from: string, to: string, day: string, cause?: unknown) {
    super('RATE_UNAVAILABLE', `no ECB rate for ${from}→${to} on ${day}`, { cause });
  }
}

export class InvoiceNotFoundError extends AcmeError {
  constructor(invoiceNumber: string) {
    super('INVOICE_NOT_FOUND', `invoice ${invoiceNumber} does not exist`);
  }
}

export class ValidationError extends AcmeError {
  constructor(message: string) {
    super('VALIDATION', message);
  }
}
