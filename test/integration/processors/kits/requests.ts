import { randomUUID } from 'node:crypto';
import type { AuthorizeRequest } from '../../../../src/processors/types';

/** A customer's 19.99 EUR purchase under a fresh payment id, as the engine's first attempt sends it. */
export function authorizeRequest(
  credentials: Record<string, string>,
  number: string,
  overrides: Partial<AuthorizeRequest> = {},
): AuthorizeRequest {
  const paymentId = `pay_${randomUUID().replace(/-/g, '')}`;
  return {
    idempotencyKey: `${paymentId}:1`,
    paymentId,
    amount: 1999,
    currency: 'EUR',
    card: { number, expMonth: 12, expYear: 2099 },
    capture: true,
    initiatedBy: 'customer',
    credentials,
    ...overrides,
  };
}
