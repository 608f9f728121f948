import { ProcessorTechnicalError } from '../types';
import type { LookupResult } from '../types';
import { readPaymentAnswer, type AdyenAnswer, type AdyenPaymentResponse } from './responses';

/**
 * What Adyen stored under an authorization's idempotency key, read from the answer to the lookup
 * probe (requests.ts `lookupProbeRequest`, docs/processors-adyen.md "Lookup"). Pure.
 *
 * - A payment answer is the stored answer of the first request under the key: it stands.
 * - A 422 refusal of the probe itself (not 704) means Adyen took the probe as a new request:
 *   nothing is stored under the key, so nothing was charged under it. This rests on two
 *   assumptions that docs/processors-adyen.md ("Lookup") states, with how to check them.
 * - 704 means a request under the key is still being processed: unknown, ask again later.
 */
export type StoredUnderKey = { found: false } | { found: true; payment: AdyenPaymentResponse };

export function readProbeAnswer(answer: AdyenAnswer): StoredUnderKey {
  if (answer.status === 422 || answer.status === 409) {
    const read = readServiceErrorCode(answer.body);
    if (read === '704')
      throw new ProcessorTechnicalError('adyen is still processing a request under this key', 'idempotency_conflict');
    if (answer.status === 422) return { found: false };
  }
  const read = readPaymentAnswer(answer);
  if (read.kind === 'refused')
    throw new ProcessorTechnicalError(`adyen refused the lookup with HTTP ${answer.status}`, 'invalid_response');
  return { found: true, payment: read.payment };
}

type FoundStatus = Extract<LookupResult, { outcome: 'found' }>['status'];

/**
 * Adyen's result → the lookup status. Authorised is `authorized` even for an automatic capture:
 * Adyen captures later, as a modification of its own confirmed by a CAPTURE webhook. A payment
 * waiting for the shopper (3DS action) charged nothing and only /payments/details, which the engine
 * never calls, could complete it.
 */
export function storedStatus(payment: AdyenPaymentResponse): FoundStatus {
  switch (payment.resultCode) {
    case 'Authorised':
    case 'PartiallyAuthorised':
      return 'authorized';
    case 'Refused':
    case 'Error':
    case 'Cancelled':
      return 'declined';
    case 'Pending':
    case 'Received':
    case 'RedirectShopper':
    case 'ChallengeShopper':
    case 'IdentifyShopper':
      return 'pending';
    case 'AuthenticationFinished':
    case 'AuthenticationNotRequired':
    case 'PresentToShopper':
    case 'Success':
      throw new ProcessorTechnicalError(`adyen stored ${payment.resultCode} for a card payment`, 'invalid_response');
  }
}

/** May money be held or moved under this payment (so a reversal must undo it)? */
export function mayHoldMoney(payment: AdyenPaymentResponse): boolean {
  switch (payment.resultCode) {
    case 'Authorised':
    case 'PartiallyAuthorised':
    case 'Pending':
    case 'Received':
      return true;
    case 'Refused':
    case 'Error':
    case 'Cancelled':
    case 'RedirectShopper':
    case 'ChallengeShopper':
    case 'IdentifyShopper':
    case 'AuthenticationFinished':
    case 'AuthenticationNotRequired':
    case 'PresentToShopper':
    case 'Success':
      return false;
  }
}

export function toLookupResult(stored: StoredUnderKey, expectedReference?: string): LookupResult {
  if (!stored.found) return { outcome: 'not_found' };
  const { payment } = stored;
  if (!payment.pspReference)
    throw new ProcessorTechnicalError('adyen stored a payment without a pspReference', 'invalid_response');
  if (expectedReference && expectedReference !== payment.pspReference)
    throw new ProcessorTechnicalError(
      `adyen stored ${payment.pspReference} under the key, not ${expectedReference}`,
      'invalid_response',
    );
  if (!payment.amount)
    throw new ProcessorTechnicalError('adyen stored a payment without its amount', 'invalid_response');
  return {
    outcome: 'found',
    processorReference: payment.pspReference,
    status: storedStatus(payment),
    amount: payment.amount.value,
  };
}

function readServiceErrorCode(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const errorCode = (body as { errorCode?: unknown }).errorCode;
  return typeof errorCode === 'string' ? errorCode : undefined;
}
