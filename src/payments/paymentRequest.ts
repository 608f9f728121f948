import { maxAmount } from '../domain/checkoutTotals';
import type { DomainErrorData } from '../errors';

/**
 * The rules of a payment request, in one place for every way a payment is asked for: pay-v2 and
 * payments/process before their workflow starts (paymentInputs.ts), subscription charges before
 * theirs, and the payment workflow's own validation of what it was started with (validatePayment.ts).
 *
 * - Free cart: only a checkout session may be paid with 0 (a discount took its whole total); it
 *   charges nothing, so it needs no card and no flow. A direct payment of 0 has nothing to charge.
 * - Default flow: a payment that names no flow goes through its store's default flow.
 * - A payment that charges needs a card, then a flow.
 */

interface AmountOfRequest {
  amount: number;
  checkoutSessionId?: string | null;
}

/** What pays a request: both may be null only for a free cart. */
export interface PaymentMeans {
  paymentInstrumentId: string | null;
  paymentFlowId: string | null;
}

const refusal = (kind: DomainErrorData['kind'], code: string, message: string): DomainErrorData => ({
  kind,
  code,
  message,
});

/** A checkout session brought to 0: charged nothing, routed nowhere. */
export function isFreeCart(request: AmountOfRequest): boolean {
  return request.amount === 0 && !!request.checkoutSessionId;
}

/** The lowest amount a request may have: 0 for a checkout session only. */
export function lowestAmount(request: { checkoutSessionId?: string | null }): 0 | 1 {
  return request.checkoutSessionId ? 0 : 1;
}

/** INVALID_AMOUNT unless the amount is a whole number of minor units in range (see lowestAmount). */
export function amountRefusal(request: AmountOfRequest): DomainErrorData | null {
  const lowest = lowestAmount(request);
  if (Number.isSafeInteger(request.amount) && request.amount >= lowest && request.amount <= maxAmount) return null;
  return refusal(
    'invalid',
    'INVALID_AMOUNT',
    `amount must be an integer of minor units from ${lowest} to ${maxAmount}${lowest === 1 ? ' (a direct payment of 0 has nothing to charge)' : ''}`,
  );
}

/** The flow that pays: the one the caller named, else the store's default; null when there is neither. */
export function paymentFlowFor(
  named: string | null | undefined,
  store: { defaultPaymentFlowId: string | null },
): string | null {
  return named ?? store.defaultPaymentFlowId;
}

/** What a request that charges lacks, its card first; null when nothing (or when it is a free cart). */
export function missingForCharge(request: AmountOfRequest & PaymentMeans): 'card' | 'flow' | null {
  if (isFreeCart(request)) return null;
  if (!request.paymentInstrumentId) return 'card';
  if (!request.paymentFlowId) return 'flow';
  return null;
}

/** The refusal of a request missing its card or flow (see missingForCharge). */
export function missingRefusal(missing: 'card' | 'flow', request: AmountOfRequest): DomainErrorData {
  if (missing === 'flow')
    return refusal(
      'invalid',
      'PAYMENT_FLOW_REQUIRED',
      'No paymentFlowId given and the store has no default payment flow',
    );
  return refusal(
    'invalid',
    'PAYMENT_INSTRUMENT_REQUIRED',
    request.checkoutSessionId
      ? 'paymentInstrumentId is required: the checkout session has a total to charge'
      : 'A payment of more than 0 needs a paymentInstrumentId',
  );
}

/** A request as its caller sends it, before its flow is decided. */
export interface PaymentRequestDraft extends AmountOfRequest {
  paymentInstrumentId?: string | null;
  /** The flow the caller named; without one the store's default pays. */
  paymentFlowId?: string | null;
  store: { defaultPaymentFlowId: string | null };
}

export type PreparedPaymentRequest =
  { kind: 'ready'; means: PaymentMeans } | { kind: 'rejected'; missing: 'card' | 'flow'; error: DomainErrorData };

/**
 * The card and flow that pay a request, or what it lacks: the flow named or the store's default,
 * and a card and a flow unless it is a free cart (a card or flow given for a free cart is kept, and
 * checked by the workflow like any other).
 */
export function preparePaymentRequest(draft: PaymentRequestDraft): PreparedPaymentRequest {
  const means: PaymentMeans = {
    paymentInstrumentId: draft.paymentInstrumentId ?? null,
    paymentFlowId: paymentFlowFor(draft.paymentFlowId, draft.store),
  };
  const missing = missingForCharge({ ...draft, ...means });
  return missing ? { kind: 'rejected', missing, error: missingRefusal(missing, draft) } : { kind: 'ready', means };
}
