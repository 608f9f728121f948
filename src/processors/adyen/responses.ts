import { z } from 'zod';
import { declineCategoryOf, type DeclineCode } from '../declineCodes';
import { ProcessorTechnicalError, type AuthenticationAction, type AuthorizeResult } from '../types';
import { codeForRefusal, codeForServiceError, resultCodes } from './codes';
import type { FollowUpResult } from '../types';

/**
 * Pure mapping from Checkout API v71 answers to the engine's results (no I/O). The HTTP executor
 * has already turned timeouts, network failures and 5xx into ProcessorTechnicalErrors; what comes
 * here is a status below 500 with a JSON body.
 */
export interface AdyenAnswer {
  status: number;
  body: unknown;
}

const resultCodeSchema = z.enum([
  'AuthenticationFinished',
  'AuthenticationNotRequired',
  'Authorised',
  'Cancelled',
  'ChallengeShopper',
  'Error',
  'IdentifyShopper',
  'PartiallyAuthorised',
  'Pending',
  'PresentToShopper',
  'Received',
  'RedirectShopper',
  'Refused',
  'Success',
]);

export const paymentResponseSchema = z.object({
  pspReference: z.string().min(1).optional(),
  resultCode: resultCodeSchema,
  refusalReason: z.string().optional(),
  refusalReasonCode: z.string().optional(),
  amount: z.object({ value: z.number().int(), currency: z.string() }).optional(),
  merchantReference: z.string().optional(),
  action: z
    .object({
      type: z.string(),
      url: z.string().optional(),
      method: z.string().optional(),
      data: z.record(z.string(), z.string()).optional(),
    })
    .optional()
    // An action of another shape is not one the engine follows; it must not make the answer unreadable.
    .catch(undefined),
});
export type AdyenPaymentResponse = z.infer<typeof paymentResponseSchema>;

const modificationResponseSchema = z.object({
  pspReference: z.string().min(1),
  paymentPspReference: z.string().min(1),
  status: z.literal('received'),
});

const serviceErrorSchema = z.object({
  status: z.number().int().optional(),
  errorCode: z.string().optional(),
  message: z.string().optional(),
  errorType: z.string().optional(),
});
type ServiceError = z.infer<typeof serviceErrorSchema>;

/** A 2xx payment answer, or the refusal Adyen sent instead (4xx ServiceError), as data. */
export type PaymentAnswer =
  { kind: 'payment'; payment: AdyenPaymentResponse } | { kind: 'refused'; error: ServiceError };

/** Parses a /payments answer; 4xx that are not a refusal of the request itself are thrown. */
export function readPaymentAnswer(answer: AdyenAnswer): PaymentAnswer {
  if (answer.status >= 200 && answer.status < 300) {
    const parsed = paymentResponseSchema.safeParse(answer.body);
    if (!parsed.success) throw new ProcessorTechnicalError('adyen answered in an unknown shape', 'invalid_response');
    return { kind: 'payment', payment: parsed.data };
  }
  return { kind: 'refused', error: readServiceError(answer) };
}

/** What the authorization asked for: a replayed answer stored for another request must not pass for it. */
export interface SentPayment {
  capture: boolean;
  amount: { value: number; currency: string };
  reference: string;
  /** A returnUrl of the engine's was sent: a redirect action is the shopper's to follow (step-up). */
  stepUp?: boolean;
}

export function toAuthorizeResult(answer: AdyenAnswer, sent: SentPayment): AuthorizeResult {
  const read = readPaymentAnswer(answer);
  if (read.kind === 'refused') return refusedRequest(read.error, (code, message) => declined(code, message));
  const payment = read.payment;
  assertAnswersThisRequest(payment, sent);
  switch (payment.resultCode) {
    case 'Authorised':
      return { outcome: 'approved', processorReference: pspOf(payment), captured: sent.capture };
    case 'Refused':
      return declined(codeForRefusal(payment.refusalReasonCode), payment.refusalReason, payment.pspReference);
    case 'Error':
    case 'Cancelled':
      return declined(resultCodes[payment.resultCode]!.code, payment.refusalReason, payment.pspReference);
    case 'RedirectShopper':
    case 'ChallengeShopper':
    case 'IdentifyShopper': {
      const action = sent.stepUp ? redirectActionOf(payment) : undefined;
      // Before the shopper authenticates, Adyen may name the payment by the merchant's reference only.
      if (action)
        return { outcome: 'requires_action', processorReference: payment.pspReference ?? sent.reference, action };
      return {
        outcome: 'requires_3ds',
        code: 'authentication_required',
        message: `Adyen asks for 3-D Secure (${payment.resultCode})`,
      };
    }
    case 'Pending':
    case 'Received':
      // Adyen has not decided: an AUTHORISATION webhook will. It may still charge.
      throw new ProcessorTechnicalError(
        `adyen answered ${payment.resultCode}; the outcome comes later`,
        'processor_error',
      );
    case 'PartiallyAuthorised':
      // Never asked for (no allowPartialAuth): money is held for less than the payment, so undo it.
      throw new ProcessorTechnicalError('adyen authorised part of the amount', 'invalid_response');
    case 'AuthenticationFinished':
    case 'AuthenticationNotRequired':
    case 'PresentToShopper':
    case 'Success':
      throw new ProcessorTechnicalError(`adyen answered ${payment.resultCode} to a card payment`, 'invalid_response');
  }
}

/**
 * Adyen's redirect action (a GET link, or a form to post with `data`). A native 3-D Secure 2
 * action (type threeDS2) needs Adyen's JavaScript on the merchant's page: not one to send a browser to.
 */
export function redirectActionOf(payment: AdyenPaymentResponse): AuthenticationAction | undefined {
  const action = payment.action;
  if (action?.type !== 'redirect' || !action.url || !/^https?:\/\//i.test(action.url)) return undefined;
  const post = action.method?.toUpperCase() === 'POST';
  return { url: action.url, method: post ? 'POST' : 'GET', ...(post && action.data ? { data: action.data } : {}) };
}

/** Capture, cancel and refund are accepted ("received") and confirmed or failed later by webhook. */
export function toFollowUpResult(answer: AdyenAnswer): FollowUpResult {
  if (answer.status >= 200 && answer.status < 300) {
    const parsed = modificationResponseSchema.safeParse(answer.body);
    if (!parsed.success) throw new ProcessorTechnicalError('adyen answered in an unknown shape', 'invalid_response');
    return { outcome: 'pending', processorReference: parsed.data.pspReference };
  }
  return refusedRequest(readServiceError(answer), (code, message) => ({
    outcome: 'failed',
    code,
    category: declineCategoryOf(code),
    message,
  }));
}

function readServiceError(answer: AdyenAnswer): ServiceError {
  if (answer.status === 401 || answer.status === 403)
    throw new ProcessorTechnicalError(`adyen rejected the credentials (HTTP ${answer.status})`, 'invalid_credentials');
  if (answer.status === 429) throw new ProcessorTechnicalError('adyen rate limited the call', 'rate_limited');
  const parsed = serviceErrorSchema.safeParse(answer.body);
  if (!parsed.success) throw new ProcessorTechnicalError(`adyen answered HTTP ${answer.status}`, 'invalid_request');
  return parsed.data;
}

/**
 * A request Adyen refused before processing it. A refusal of the card data (invalid number, CVC,
 * expiry) is a hard decline given as data; the rest is technical: thrown, and only 704 (the same
 * key is still being processed) leaves the outcome open.
 */
function refusedRequest<T>(error: ServiceError, asData: (code: DeclineCode, message: string) => T): T {
  const code = codeForServiceError(error.errorCode);
  const message = `adyen refused the request: ${error.errorCode ?? '?'} ${error.message ?? ''}`.trim();
  if (declineCategoryOf(code) === 'hard_decline') return asData(code, message);
  throw new ProcessorTechnicalError(message, code);
}

export function declined(code: DeclineCode, message: string | undefined, pspReference?: string): AuthorizeResult {
  return {
    outcome: 'declined',
    code,
    category: declineCategoryOf(code),
    message: message ?? code,
    ...(pspReference ? { processorReference: pspReference } : {}),
  };
}

/**
 * Adyen replays the first answer under a key whatever the body of a later request; the engine never
 * reuses a key for another payment, so an answer for another amount or reference means it did.
 */
function assertAnswersThisRequest(payment: AdyenPaymentResponse, sent: SentPayment): void {
  const otherAmount =
    payment.amount && (payment.amount.value !== sent.amount.value || payment.amount.currency !== sent.amount.currency);
  const otherReference = payment.merchantReference !== undefined && payment.merchantReference !== sent.reference;
  if (otherAmount || otherReference)
    throw new ProcessorTechnicalError(
      'adyen answered with a payment stored for another request',
      'idempotency_conflict',
    );
}

function pspOf(payment: AdyenPaymentResponse): string {
  if (!payment.pspReference)
    throw new ProcessorTechnicalError('adyen authorised without a pspReference', 'invalid_response');
  return payment.pspReference;
}
