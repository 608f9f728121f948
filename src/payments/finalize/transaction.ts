import { CheckoutAlreadyPaidError, createOrderForPaidCheckout } from '../../commerce/orders';
import type { Db, Prisma } from '../../db/prisma';
import { keepEventsWithSubscribers, recordSubscribedEvents, type RecordedEvent } from '../../events/dispatch';
import type { Logger } from '../../logging/logger';
import { attemptIdempotencyKey } from '../attemptRows';
import { releaseCheckoutClaim } from '../checkoutClaims';
import { recordDispute } from '../disputes';
import type { FinalizeInput, FinalizeResult, OrderSummary, PaymentReview, PaymentStatus } from '../workflowTypes';

/** What recordPaymentEnd wrote; `closed` is set only by the call that closed the payment (a repeat is not). */
export interface PaymentEndRecorded extends FinalizeResult {
  closed: { paymentCreatedAt: Date } | null;
  /** Set by the one-statement writer: the events as written with their subscribed endpoints. */
  recordedEvents?: RecordedEvent[];
}

type Tx = Prisma.TransactionClient;
const openStatuses = ['processing', 'requires_action'];

const summaryOf = (
  order: { id: string; status: string; totalAmount: number; currency: string } | null,
): OrderSummary | null =>
  order && { id: order.id, status: order.status, totalAmount: order.totalAmount, currency: order.currency };

/**
 * The payment's end in ONE transaction: the payment row, the checkout session (paid) and its
 * order, a dispute the acquirer opened, and the events. Answers the ids of the events that still
 * need dispatching (those with a subscribed endpoint).
 */
export async function recordPaymentEndInTransaction(
  db: Db,
  logger: Logger,
  input: FinalizeInput,
): Promise<PaymentEndRecorded> {
  return db.$transaction(async (tx) => {
    const payment = await tx.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
    if (!openStatuses.includes(payment.status)) {
      const order = payment.orderId ? await tx.order.findUnique({ where: { id: payment.orderId } }) : null;
      // Its events were written with it; the outbox sweep dispatches any whose dispatch was lost.
      const { declineCode, declineMessage } = payment;
      const recorded = { status: payment.status as PaymentStatus, declineCode, declineMessage };
      return { eventIds: [], order: summaryOf(order), closed: null, recorded };
    }
    const succeeded = input.status !== 'failed';
    // Collected, then written in one INSERT with the subscriber check (recordSubscribedEvents).
    const pending: [string, Record<string, unknown>][] = [];
    const event = (eventType: string, properties: Record<string, unknown>) => {
      pending.push([eventType, properties]);
    };

    let order = null;
    if (succeeded && payment.checkoutSessionId) {
      order = await orderForCheckout(tx, logger, payment.checkoutSessionId, payment.id, payment.source ?? undefined);
      if (order) {
        event('s_checkout_session_paid', {
          checkoutSessionId: payment.checkoutSessionId,
          orderId: order.id,
          paymentId: payment.id,
        });
        event('s_order_paid', {
          orderId: order.id,
          amount: order.totalAmount,
          currency: order.currency,
          paymentId: payment.id,
        });
      }
    } else if (succeeded && payment.orderId && !payment.subscriptionId) {
      const paid = await tx.order.updateMany({
        where: { id: payment.orderId, status: 'pending' },
        data: { status: 'paid', paymentId: payment.id },
      });
      order = await tx.order.findUnique({ where: { id: payment.orderId } });
      if (paid.count === 1 && order)
        event('s_order_paid', {
          orderId: order.id,
          amount: order.totalAmount,
          currency: order.currency,
          paymentId: payment.id,
        });
    } else if (!succeeded && payment.checkoutSessionId) {
      await releaseCheckoutClaim(tx, payment.checkoutSessionId, payment.id);
    }

    if (input.review) {
      logger.error(
        { paymentId: payment.id, processorId: input.review.processorId },
        'payment failed while its processor may hold a charge (reversal unconfirmed); needs review',
      );
    }
    // A subscription charge's order is written by the subscription once paid, under the id
    // its payment names from the start; a declined charge never gets one, so it names none.
    const orderId = order?.id ?? (payment.subscriptionId && !succeeded ? null : payment.orderId);
    await tx.payment.update({
      where: { id: payment.id },
      data: {
        ...(input.review
          ? {
              metadata: {
                ...((payment.metadata as Prisma.JsonObject | null) ?? {}),
                review: reviewOf(payment.id, input.review),
              },
            }
          : {}),
        status: input.status,
        orderId,
        processorId: input.processorId,
        processorReference: input.processorReference,
        declineCode: input.declineCode,
        declineCategory: input.declineCategory,
        declineMessage: input.declineMessage,
        redirectUrl: null,
        ...(input.captured ? { amountCaptured: payment.amount, capturedAt: new Date() } : {}),
      },
    });

    const paymentProperties = {
      paymentId: payment.id,
      orderId,
      amount: payment.amount,
      currency: payment.currency,
      status: input.status,
    };
    if (input.blockedByRuleId) {
      event('s_payment_blocked', {
        ...paymentProperties,
        ruleId: input.blockedByRuleId,
        declineCode: input.declineCode,
      });
    } else if (succeeded) {
      event('s_payment_succeeded', { ...paymentProperties, processorId: input.processorId, captured: input.captured });
    } else {
      event('s_payment_failed', {
        ...paymentProperties,
        declineCode: input.declineCode,
        declineCategory: input.declineCategory,
      });
    }
    const { accountId, mode, storeId, customerId } = payment;
    const eventIds = await recordSubscribedEvents(
      tx,
      pending.map(([eventType, properties]) => ({ accountId, mode, storeId, customerId, eventType, properties })),
    );
    if (succeeded && input.dispute) {
      const { amount, reason } = input.dispute;
      const { eventId } = await recordDispute(tx, payment, { amount, reason, status: 'needs_response' });
      eventIds.push(...(await keepEventsWithSubscribers(tx, [eventId])));
    }
    return { eventIds, order: summaryOf(order), closed: { paymentCreatedAt: payment.createdAt } };
  });
}

/** What an operator needs to settle a possible charge by hand: where, and under which key. */
const reviewOf = (paymentId: string, review: PaymentReview) => ({
  reason: review.reason,
  processorId: review.processorId,
  idempotencyKey: attemptIdempotencyKey(paymentId, review.attemptNumber),
});

/** The session's order; null when the session stopped being open under us (logged: needs a refund). */
async function orderForCheckout(
  tx: Tx,
  logger: Logger,
  checkoutSessionId: string,
  paymentId: string,
  source: string | undefined,
) {
  try {
    return await createOrderForPaidCheckout(tx, { checkoutSessionId, paymentId, source });
  } catch (error) {
    if (!(error instanceof CheckoutAlreadyPaidError)) throw error;
    logger.error(
      { paymentId, checkoutSessionId },
      'payment approved but its checkout session was no longer open; no order created',
    );
    return null;
  }
}
