import { ProcessorTechnicalError } from '../types';
import type { LookupResult } from '../types';
import { readPaymentAnswer, type AdyenAnswer, type AdyenPaymentResponse } from './responses';

/**
 * What Adyen holds under an authorization's idempotency key, read from the answers to the lookup
 * probe and the key fence (requests.ts; docs/processors-adyen.md "Lookup"). Pure.
 *
 * - A payment answer is the stored answer of the first request under the key: it stands.
 * - The fence's answer (a payment-methods list) means an earlier lookup closed the key: nothing
 *   was charged under it and nothing will be.
 * - 704 means a request under the key is still being processed: unknown, ask again later.
 * - Any other 422 is a refusal of the request itself (the probe's card fails the Luhn check).
 */
export type KeyAnswer =
  | { kind: 'payment'; payment: AdyenPaymentResponse }
  | { kind: 'fenced' }
  | { kind: 'refused'; errorCode: string | undefined };

export type StoredUnderKey = { found: false } | { found: true; payment: AdyenPaymentResponse };

export function readKeyAnswer(answer: AdyenAnswer): KeyAnswer {
  if (answer.status >= 200 && answer.status < 300 && isKeyFence(answer.body)) return { kind: 'fenced' };
  const errorCode = readServiceErrorCode(answer.body);
  if ((answer.status === 422 || answer.status === 409) && errorCode === '704')
    throw new ProcessorTechnicalError('adyen is still processing a request under this key', 'idempotency_conflict');
  if (answer.status === 422) return { kind: 'refused', errorCode };
  const read = readPaymentAnswer(answer);
  if (read.kind === 'refused')
    throw new ProcessorTechnicalError(`adyen refused the lookup with HTTP ${answer.status}`, 'invalid_response');
  return { kind: 'payment', payment: read.payment };
}

/** The answer of `POST /paymentMethods`, which only the key fence sends. */
export function isKeyFence(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { paymentMethods?: unknown }).paymentMethods) &&
    !('resultCode' in body)
  );
}

/**
 * The probe found the key unused (or replayed its own refusal); the fence's answer decides. Only a
 * closed key is `not_found`: a fence Adyen refused leaves the key open, so the lookup cannot tell.
 */
export function afterFence(fence: KeyAnswer, probeRefusal: string | undefined): StoredUnderKey {
  switch (fence.kind) {
    case 'payment':
      return { found: true, payment: fence.payment };
    case 'fenced':
      return { found: false };
    case 'refused':
      // The probe's own refusal, replayed: Adyen stored it under the key, which closes the key too.
      if (probeRefusal !== undefined && fence.errorCode === probeRefusal) return { found: false };
      throw new ProcessorTechnicalError(
        `adyen refused the key fence (${fence.errorCode ?? '?'}); the key stays open, the outcome unknown`,
        'invalid_response',
      );
  }
}

type FoundStatus = Extract<LookupResult, { outcome: 'found' }>['status'];

/**
 * Adyen's result → the lookup status. Authorised is `authorized` even for an automatic capture:
 * Adyen captures later, as a modification of its own confirmed by a CAPTURE webhook. A payment
 * waiting for the shopper (3DS action) is `pending`: the key's stored answer stays the action even
 * after /payments/details decided it.
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

/**
 * May money be held or moved under this payment (so a reversal must undo it)? A payment that
 * waited for the shopper may have been authorised by /payments/details since: the key's stored
 * answer stays the redirect.
 */
export function mayHoldMoney(payment: AdyenPaymentResponse): boolean {
  switch (payment.resultCode) {
    case 'Authorised':
    case 'PartiallyAuthorised':
    case 'Pending':
    case 'Received':
    case 'RedirectShopper':
    case 'ChallengeShopper':
    case 'IdentifyShopper':
      return true;
    case 'Refused':
    case 'Error':
    case 'Cancelled':
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
