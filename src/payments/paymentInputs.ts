import { loadCheckoutForPayment } from '../commerce/orders';
import type { Scope } from '../commerce/scope';
import type { Db } from '../db/prisma';
import { DomainError } from '../errors';
import { assertThreeDsSessionFits } from '../threeds/paymentValidation';
import { preparePaymentRequest, type PaymentMeans, type PaymentRequestDraft } from './paymentRequest';
import type { BrowserInfo } from '../processors/types';
import type { InitiatedBy, PaymentIntent, PaymentSource, PaymentWorkflowInput } from './workflowTypes';

/** What pay-v2 and payments/process both take from their caller besides what is paid. */
interface CallerFields {
  /** Derived from the Idempotency-Key when one was sent (keyedBusinessId), else random. */
  paymentId: string;
  initiatedBy: InitiatedBy;
  paymentInstrumentId?: string;
  paymentFlowId?: string;
  threedsSessionId?: string;
  /** The cardholder's address, sent by the merchant's server; never the caller's own socket. */
  customerIp?: string;
  returnUrl?: string;
  browserInfo?: BrowserInfo;
  /** The API's base URL as the caller reached it (the 3-D Secure return link). */
  returnBaseUrl: string | null;
}

export interface CheckoutPaymentRequest extends CallerFields {
  checkoutSessionId: string;
  /** The request's Idempotency-Key, when it sent one. */
  idempotencyKey: string | undefined;
  source: PaymentSource;
  blikCode?: string;
}

export interface DirectPaymentRequest extends CallerFields {
  store: { id: string; defaultPaymentFlowId: string | null };
  customerId: string;
  amount: number;
  currency: string;
  intent: PaymentIntent;
  orderId?: string;
}

/**
 * pay-v2's payment, checked before its workflow starts (every refusal is thrown as a DomainError):
 * the checkout session (404, or 409 when paid or expired; the workflow checks again under its
 * claim), the request's card and flow (paymentRequest.ts) and its 3-D Secure session.
 */
export async function checkoutPaymentInput(
  db: Db,
  scope: Scope,
  request: CheckoutPaymentRequest,
): Promise<PaymentWorkflowInput> {
  // A keyed retry whose payment already started (its API process died) follows that payment, even
  // if it has paid the session since: the workflow it joins is the same.
  const started = await keyedPaymentExists(db, scope, request.paymentId, request.idempotencyKey);
  const checkout = await loadCheckoutForPayment(db, {
    ...scope,
    checkoutSessionId: request.checkoutSessionId,
    requireOpen: !started,
  });
  const means = await paidBy(db, scope, request, {
    amount: checkout.amount,
    checkoutSessionId: checkout.checkoutSessionId,
    store: checkout.store,
  });
  return {
    ...workflowFields(scope, request, means),
    storeId: checkout.store.id,
    customerId: checkout.customer.id,
    amount: checkout.amount,
    currency: checkout.currency,
    intent: 'purchase',
    source: request.source,
    checkoutSessionId: checkout.checkoutSessionId,
    blikCode: request.blikCode ?? null,
  };
}

/** payments/process's payment (purchase or auth) of a store found already, checked before its workflow starts. */
export async function directPaymentInput(
  db: Db,
  scope: Scope,
  request: DirectPaymentRequest,
): Promise<PaymentWorkflowInput> {
  const means = await paidBy(db, scope, request, { amount: request.amount, store: request.store });
  return {
    ...workflowFields(scope, request, means),
    storeId: request.store.id,
    customerId: request.customerId,
    amount: request.amount,
    currency: request.currency,
    intent: request.intent,
    source: null,
    orderId: request.orderId ?? null,
  };
}

/**
 * Whether the payment under this keyed id has its row already: the same keyed request ran before
 * and its answer was lost (its API process was killed, or it answered 5xx). False without a key.
 */
export async function keyedPaymentExists(
  db: Db,
  scope: Scope,
  paymentId: string,
  idempotencyKey: string | undefined,
): Promise<boolean> {
  if (!idempotencyKey) return false;
  return (await db.payment.count({ where: { id: paymentId, accountId: scope.accountId, mode: scope.mode } })) > 0;
}

async function paidBy(
  db: Db,
  scope: Scope,
  request: CallerFields,
  paid: Omit<PaymentRequestDraft, 'paymentInstrumentId' | 'paymentFlowId'>,
): Promise<PaymentMeans> {
  const prepared = preparePaymentRequest({
    ...paid,
    paymentInstrumentId: request.paymentInstrumentId,
    paymentFlowId: request.paymentFlowId,
  });
  if (prepared.kind === 'rejected') throw DomainError.from(prepared.error);
  await assertThreeDsSessionFits(db, scope, request);
  return prepared.means;
}

function workflowFields(scope: Scope, request: CallerFields, means: PaymentMeans) {
  return {
    paymentId: request.paymentId,
    ...scope,
    ...means,
    initiatedBy: request.initiatedBy,
    threedsSessionId: request.threedsSessionId ?? null,
    returnBaseUrl: request.returnBaseUrl,
    clientIp: request.customerIp ?? null,
    returnUrl: request.returnUrl ?? null,
    ...(request.browserInfo ? { browserInfo: request.browserInfo } : {}),
  };
}
