import type { Db } from '../db/prisma';
import { notFound, orNotFound } from '../errors';
import { rejection } from '../payments/workflowTypes';
import type { FunnelStep } from '../domain/funnelGraph';
import { newId } from '../domain/ids';
import {
  defaultIdleTimeoutMs,
  type CheckoutLoad,
  type FunnelSessionInput,
  type FunnelSessionView,
} from './sessionTypes';

/** Payment statuses that took the customer's money: an upsell may charge the same card again. */
const paidStatuses = ['succeeded', 'authorized'];

/** Writes a session's row from the workflow's view (created on the first write). */
export async function saveFunnelSession(
  db: Db,
  input: { accountId: string; mode: 'test' | 'live'; idleTimeoutMs: number; view: FunnelSessionView },
): Promise<void> {
  const { view } = input;
  const fields = {
    customerId: view.customerId,
    status: view.status,
    currentStepId: view.currentStepId,
    checkoutPaymentId: view.checkoutPaymentId,
    endedAt: view.status === 'active' ? null : new Date(),
  };
  await db.funnelSession.upsert({
    where: { id: view.sessionId },
    create: {
      id: view.sessionId,
      accountId: input.accountId,
      mode: input.mode,
      storeId: view.storeId,
      funnelId: view.funnelId,
      idleTimeoutMs: input.idleTimeoutMs,
      ...fields,
    },
    update: fields,
  });
}

/**
 * The checkout payment of a session: paid, of the session's store (and customer, when it has one),
 * with the card and processor that took it. Anything else is a refusal as data.
 */
export async function loadFunnelCheckout(
  db: Db,
  input: { accountId: string; mode: 'test' | 'live'; storeId: string; customerId: string | null; paymentId: string },
): Promise<CheckoutLoad> {
  const payment = await db.payment.findFirst({
    where: { id: input.paymentId, accountId: input.accountId, mode: input.mode, storeId: input.storeId },
  });
  if (!payment) return rejection('not_found', 'NOT_FOUND', 'Payment not found');
  if (!paidStatuses.includes(payment.status))
    return rejection('conflict', 'CHECKOUT_NOT_PAID', `The payment is ${payment.status}, not paid`);
  if (input.customerId && payment.customerId !== input.customerId)
    return rejection('conflict', 'CUSTOMER_MISMATCH', "The payment is another customer's");
  if (!payment.paymentInstrumentId || !payment.processorId || !payment.paymentFlowId || !payment.customerId)
    return rejection('conflict', 'NO_STORED_CARD', 'The payment charged no stored card an offer could charge again');
  return {
    kind: 'ok',
    checkout: {
      paymentId: payment.id,
      paymentInstrumentId: payment.paymentInstrumentId,
      processorId: payment.processorId,
      paymentFlowId: payment.paymentFlowId,
      customerId: payment.customerId,
      currency: payment.currency,
    },
  };
}

/** A session's row, of the caller's account and mode, or not_found. */
export async function findFunnelSessionRow(db: Db, scope: { accountId: string; mode: 'test' | 'live' }, id: string) {
  return orNotFound(await db.funnelSession.findFirst({ where: { id, ...scope } }), 'Funnel session');
}

/**
 * The input of a new session's workflow: the funnel (of the caller, its graph as it is now) and the
 * customer (of the caller, when named).
 */
export async function newSessionInput(
  db: Db,
  scope: { accountId: string; mode: 'test' | 'live' },
  request: { funnelId: string; customerId?: string | null; idleTimeoutSeconds?: number },
): Promise<FunnelSessionInput> {
  const funnel = await db.funnel.findFirst({ where: { id: request.funnelId, ...scope } });
  if (!funnel) throw notFound('Funnel');
  if (request.customerId) {
    const customer = await db.customer.findFirst({ where: { id: request.customerId, ...scope } });
    if (!customer) throw notFound('Customer');
  }
  return {
    sessionId: newId('funnelSession'),
    ...scope,
    storeId: funnel.storeId,
    funnelId: funnel.id,
    customerId: request.customerId ?? null,
    steps: funnel.steps as unknown as FunnelStep[],
    idleTimeoutMs: (request.idleTimeoutSeconds ?? defaultIdleTimeoutMs / 1000) * 1000,
  };
}
