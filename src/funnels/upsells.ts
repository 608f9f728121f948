import { createOrder } from '../commerce/orders';
import type { Db, Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import { recordEvent } from '../events/recordEvent';
import { businessId } from '../payments/startPayment';
import type { PaymentWorkflowInput } from '../payments/workflowTypes';
import type { FunnelCheckout, OfferAnswerStatus, OfferAnswerView } from './sessionTypes';

export interface PrepareUpsellInput {
  sessionId: string;
  stepId: string;
  priceId: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  checkout: FunnelCheckout;
}

export type UpsellPlan = { kind: 'start'; payment: PaymentWorkflowInput } | { kind: 'done'; answer: OfferAnswerView };

/** The order's charge key, and the seed of its payment id: one per (session, offer step). */
const chargeKeyOf = (sessionId: string, stepId: string) => `funnel:${sessionId}:${stepId}`;

/** The id of the payment an accepted offer makes: the same in every retry, replay and API process. */
export const upsellPaymentId = (
  scope: { accountId: string; mode: 'test' | 'live' },
  sessionId: string,
  stepId: string,
) => businessId('payment', `${scope.accountId}:${scope.mode}`, chargeKeyOf(sessionId, stepId));

type AnswerRow = {
  stepId: string;
  accept: boolean;
  status: string;
  paymentId: string | null;
  orderId: string | null;
  amount: number;
  currency: string;
};

export function answerView(row: AnswerRow, declineCode: string | null = null): OfferAnswerView {
  return {
    stepId: row.stepId,
    accept: row.accept,
    status: row.status as OfferAnswerStatus,
    paymentId: row.paymentId,
    orderId: row.orderId,
    amount: row.accept ? row.amount : null,
    currency: row.accept ? row.currency : null,
    declineCode,
  };
}

/**
 * An accepted offer's order (pending, source upsell) and answer row, in one transaction; the
 * unique (session, step) of funnel_offer_answers makes a repeat (a retried activity, a concurrent
 * accept) find the first one. Answers the child payment's input (merchant-initiated on the card of
 * the checkout, pinned to its processor), or the answer already settled. Returns the event ids to
 * dispatch after commit.
 */
export async function prepareUpsell(
  db: Db,
  input: PrepareUpsellInput,
): Promise<{ plan: UpsellPlan; eventIds: string[] }> {
  const chargeKey = chargeKeyOf(input.sessionId, input.stepId);
  const paymentId = upsellPaymentId(input, input.sessionId, input.stepId);
  const payment = (amount: number, currency: string, orderId: string): PaymentWorkflowInput => ({
    paymentId,
    accountId: input.accountId,
    mode: input.mode,
    storeId: input.storeId,
    customerId: input.checkout.customerId,
    paymentInstrumentId: input.checkout.paymentInstrumentId,
    amount,
    currency,
    intent: 'purchase',
    initiatedBy: 'merchant',
    source: 'upsell',
    paymentFlowId: input.checkout.paymentFlowId,
    orderId,
    pinnedProcessorId: input.checkout.processorId,
  });
  const existing = await db.funnelOfferAnswer.findUnique({
    where: { sessionId_stepId: { sessionId: input.sessionId, stepId: input.stepId } },
  });
  if (existing) return { plan: planOf(existing, payment), eventIds: [] };
  try {
    return await db.$transaction(async (tx) => {
      const price = await tx.price.findFirstOrThrow({
        where: { id: input.priceId, accountId: input.accountId, mode: input.mode },
        include: { variant: { include: { product: true } } },
      });
      const order = await createOrder(tx, {
        accountId: input.accountId,
        mode: input.mode,
        storeId: input.storeId,
        customerId: input.checkout.customerId,
        currency: price.currency,
        status: 'pending',
        source: 'upsell',
        chargeKey,
        items: [
          {
            priceId: price.id,
            productId: price.variant.productId,
            variantId: price.variantId,
            productName: price.variant.product.name,
            quantity: 1,
            unitAmount: price.unitAmount,
          },
        ],
      });
      const row = await tx.funnelOfferAnswer.create({
        data: {
          id: newId('funnelOfferAnswer'),
          sessionId: input.sessionId,
          stepId: input.stepId,
          accept: true,
          status: 'processing',
          paymentId,
          orderId: order.id,
          amount: order.totalAmount,
          currency: order.currency,
        },
      });
      const event = await recordEvent(tx, {
        accountId: input.accountId,
        mode: input.mode,
        storeId: input.storeId,
        customerId: input.checkout.customerId,
        eventType: 's_order_upsell_started',
        properties: upsellProperties(input.sessionId, row),
      });
      return { plan: planOf(row, payment), eventIds: [event.id] };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const row = await db.funnelOfferAnswer.findUniqueOrThrow({
      where: { sessionId_stepId: { sessionId: input.sessionId, stepId: input.stepId } },
    });
    return { plan: planOf(row, payment), eventIds: [] };
  }
}

function planOf(
  row: AnswerRow,
  payment: (amount: number, currency: string, orderId: string) => PaymentWorkflowInput,
): UpsellPlan {
  if (row.status !== 'processing' || !row.orderId) return { kind: 'done', answer: answerView(row) };
  return { kind: 'start', payment: payment(row.amount, row.currency, row.orderId) };
}

const upsellProperties = (sessionId: string, row: AnswerRow) => ({
  orderId: row.orderId!,
  paymentId: row.paymentId!,
  funnelSessionId: sessionId,
  stepId: row.stepId,
  amount: row.amount,
  currency: row.currency,
});

/**
 * Settles an offer answer: a decline (written once, unique (session, step)), or the end of an
 * accepted offer's payment (`order/upsell_failed` when it did not pay; a paid one already has
 * `order/paid` from the payment). A repeat answers the row as it is.
 */
export async function recordOfferAnswer(
  db: Db,
  input: { sessionId: string; stepId: string; status: OfferAnswerStatus; declineCode: string | null },
  scope: { accountId: string; mode: 'test' | 'live'; storeId: string; customerId: string | null },
): Promise<{ answer: OfferAnswerView; eventIds: string[] }> {
  const key = { sessionId_stepId: { sessionId: input.sessionId, stepId: input.stepId } };
  if (input.status === 'declined') {
    const row = await db.funnelOfferAnswer.upsert({
      where: key,
      create: {
        id: newId('funnelOfferAnswer'),
        ...key.sessionId_stepId,
        accept: false,
        status: 'declined',
        amount: 0,
        currency: 'XXX',
      },
      update: {},
    });
    return { answer: answerView(row), eventIds: [] };
  }
  return db.$transaction(async (tx: Prisma.TransactionClient) => {
    const moved = await tx.funnelOfferAnswer.updateMany({
      where: { ...key.sessionId_stepId, status: 'processing' },
      data: { status: input.status },
    });
    const row = await tx.funnelOfferAnswer.findUniqueOrThrow({ where: key });
    const eventIds: string[] = [];
    if (moved.count === 1 && input.status === 'failed') {
      const event = await recordEvent(tx, {
        ...scope,
        eventType: 's_order_upsell_failed',
        properties: { ...upsellProperties(input.sessionId, row), declineCode: input.declineCode },
      });
      eventIds.push(event.id);
    }
    return { answer: answerView(row, input.declineCode), eventIds };
  });
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

/** recordOfferAnswer for the funnel session the answer belongs to (its scope read from the session row). */
export async function recordSessionOfferAnswer(
  db: Db,
  input: { sessionId: string; stepId: string; status: OfferAnswerStatus; declineCode: string | null },
): Promise<{ answer: OfferAnswerView; eventIds: string[] }> {
  const session = await db.funnelSession.findUniqueOrThrow({ where: { id: input.sessionId } });
  return recordOfferAnswer(db, input, session);
}
