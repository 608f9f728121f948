import { createHash } from 'node:crypto';
import { ProcessorTechnicalError, type AuthenticationResult } from '../types';
import { codeForRefusal, codeForServiceError, resultCodes } from './codes';
import type { AdyenDetailsRequest } from './requests';
import { declined, readPaymentAnswer, type AdyenAnswer } from './responses';

/**
 * The step-up's end at Adyen: the answer of `POST /payments/details` with what the shopper's
 * browser brought back (redirectResult or threeDSResult) → the engine's result. Pure.
 */

/**
 * One key per attempt and return data: a repeated return (or a webhook nudge after it) replays the
 * stored answer instead of deciding again. The data is hashed: it is long and opaque, Adyen's key
 * takes at most 64 characters.
 */
export function detailsIdempotencyKey(attemptKey: string, request: AdyenDetailsRequest): string {
  const digest = createHash('sha256').update(JSON.stringify(request.details)).digest('base64url').slice(0, 16);
  return `${attemptKey}:details:${digest}`;
}

export interface SentDetails {
  /** The reference the requires_action answer carried (pspReference, or the payment id before Adyen gave one). */
  processorReference: string;
  capture: boolean;
}

/**
 * Authorised → approved; Refused → declined with the refusal's code (11 "3D Not Authenticated" is
 * `authentication_failed`, which never cascades); Pending/Received and a further action → pending
 * (the wait goes on; its timeout cancels). A refusal of the details request itself (redirectResult
 * unknown or garbled) decides nothing about the payment either: pending.
 */
export function toDetailsResult(answer: AdyenAnswer, sent: SentDetails): AuthenticationResult {
  const read = readPaymentAnswer(answer);
  if (read.kind === 'refused') {
    const code = codeForServiceError(read.error.errorCode);
    if (code === 'idempotency_conflict')
      throw new ProcessorTechnicalError('adyen is still processing these details', 'idempotency_conflict');
    return { outcome: 'pending' };
  }
  const payment = read.payment;
  const named = [payment.pspReference, payment.merchantReference];
  if (payment.pspReference && !named.includes(sent.processorReference))
    throw new ProcessorTechnicalError(
      `adyen answered the details of ${payment.pspReference}, not of ${sent.processorReference}`,
      'invalid_response',
    );
  const reference = payment.pspReference ?? sent.processorReference;
  switch (payment.resultCode) {
    case 'Authorised':
      if (!payment.pspReference)
        throw new ProcessorTechnicalError('adyen authorised without a pspReference', 'invalid_response');
      return { outcome: 'approved', processorReference: payment.pspReference, captured: sent.capture };
    case 'Refused':
      return declined(
        codeForRefusal(payment.refusalReasonCode),
        payment.refusalReason,
        reference,
      ) as AuthenticationResult;
    case 'Error':
    case 'Cancelled':
      return declined(resultCodes[payment.resultCode]!.code, payment.refusalReason, reference) as AuthenticationResult;
    case 'Pending':
    case 'Received':
    case 'RedirectShopper':
    case 'ChallengeShopper':
    case 'IdentifyShopper':
      return { outcome: 'pending' };
    case 'PartiallyAuthorised':
      // Never asked for (no allowPartialAuth): thrown, so the wait's timeout reverses it.
      throw new ProcessorTechnicalError('adyen authorised part of the amount', 'invalid_response');
    case 'AuthenticationFinished':
    case 'AuthenticationNotRequired':
    case 'PresentToShopper':
    case 'Success':
      throw new ProcessorTechnicalError(`adyen answered ${payment.resultCode} to payment details`, 'invalid_response');
  }
}
