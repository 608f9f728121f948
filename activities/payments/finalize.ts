import { CheckoutAlreadyPaidError, createOrderForPaidCheckout } from '../../src/commerce/orders';
import type { Prisma } from '../../src/db/prisma';
import { keepEventsWithSubscribers, subscribedAmong } from '../../src/events/dispatch';
import { recordEvents } from '../../src/events/recordEvent';
import { releaseCheckoutClaim } from '../../src/payments/checkoutClaims';
import { fitsPaidCheckoutStatement, recordPaidCheckout } from '../../src/payments/paidCheckoutFinalize';
import { recordDispute } from '../../src/payments/disputes';
import type { FinalizeInput, FinalizeResult, OrderSummary, PaymentReview } from '../../src/payments/workflowTypes';
import { paymentDuration, paymentsFinished } from '../../src/metrics/metrics';
import type { ActivityDeps } from '../deps';
import { attemptIdempotencyKey } from './authorize';

type Tx = Prisma.TransactionClient;

/** What an operator needs to settle a possible charge by hand: where, and under which key. */
const reviewOf = (paymentId: string, review: PaymentReview) => ({
  reason: review.reason,
  processorId: review.processorId,
  idempotencyKey: attemptIdempotencyKey(paymentId, review.attemptNumber),
});
const openStatuses = ['processing', 'requires_action'];

const summaryOf = (
  order: { id: string; status: string; totalAmount: number; currency: string } | null,
): OrderSummary | null =>
  order && { id: order.id, status: order.status, totalAmount: order.totalAmount, currency: order.currency };

export function createPaymentFinalizeActivities(deps: ActivityDeps) {
  const { db } = deps;
  /**
   * Processor id → type, for the metric's label only, kept a minute: a processor whose type is
   * changed (rare) shows its new type in the label within that minute.
   */
  const processorTypes = new Map<string, { type: string; at: number }>();
  async function processorTypeOf(processorId: string): Promise<string> {
    const known = processorTypes.get(processorId);
    if (known && Date.now() - known.at < 60_000) return known.type;
    const processor = await db.processor.findUnique({ where: { id: processorId }, select: { type: true } });
    if (processorTypes.size >= 1_000) processorTypes.clear();
    if (processor) processorTypes.set(processorId, { type: processor.type, at: Date.now() });
    return processor?.type ?? 'none';
  }

  return {
    /**
     * An approved checkout payment first tries the one statement of recordPaidCheckout, which
     * writes what the transaction below would or nothing. Otherwise (and for a repeat of it):
     * records the payment's end in ONE transaction: the payment row, the checkout session (paid)
     * and its order, a dispute the acquirer opened, and the events. Answers the ids of the events
     * that still need dispatching (those with a subscribed endpoint). A repeat after commit finds
     * the payment no longer open and answers what was recorded, writing nothing twice.
     */
    async finalizePayment(input: FinalizeInput): Promise<FinalizeResult> {
      if (fitsPaidCheckoutStatement(input)) {
        const recorded = await recordPaidCheckout(db, input);
        if (recorded) {
          await countFinishedPayment(input, recorded.paymentCreatedAt);
          return { eventIds: recorded.eventIds, order: recorded.order };
        }
      }
      // Set only by the call that closes the payment: a repeat after commit is not counted again.
      let closedAt: { createdAt: Date } | null = null;
      const result = await db.$transaction(async (tx) => {
        const payment = await tx.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
        closedAt = null;
        if (!openStatuses.includes(payment.status)) {
          const order = payment.orderId ? await tx.order.findUnique({ where: { id: payment.orderId } }) : null;
          return { eventIds: [], order: summaryOf(order) };
        }
        const succeeded = input.status !== 'failed';
        const now = new Date();
        // Collected, then written in one INSERT with the subscriber check (see recordAll).
        const pending: [string, Record<string, unknown>][] = [];
        const event = (eventType: string, properties: Record<string, unknown>) => {
          pending.push([eventType, properties]);
        };

        let order = null;
        if (succeeded && payment.checkoutSessionId) {
          order = await orderForCheckout(tx, payment.checkoutSessionId, payment.id, payment.source ?? undefined);
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
          deps.logger.error(
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
            ...(input.captured ? { amountCaptured: payment.amount, capturedAt: now } : {}),
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
          event('s_payment_succeeded', {
            ...paymentProperties,
            processorId: input.processorId,
            captured: input.captured,
          });
        } else {
          event('s_payment_failed', {
            ...paymentProperties,
            declineCode: input.declineCode,
            declineCategory: input.declineCategory,
          });
        }
        // Only events someone subscribes to go on to the workflow's dispatch step.
        const eventIds = await recordAll(tx, payment, pending);
        if (succeeded && input.dispute) {
          const { amount, reason } = input.dispute;
          const { eventId } = await recordDispute(tx, payment, { amount, reason, status: 'needs_response' });
          eventIds.push(...(await keepEventsWithSubscribers(tx, [eventId])));
        }
        closedAt = { createdAt: payment.createdAt };
        return { eventIds, order: summaryOf(order) };
      });
      if (closedAt) {
        await countFinishedPayment(input, (closedAt as { createdAt: Date }).createdAt);
      }
      return result;
    },
  };

  /**
   * The payment's events in one INSERT, after one query for subscribed endpoints: those nobody
   * subscribes to are written processed already. Answers the ids that still need dispatching.
   */
  async function recordAll(
    tx: Tx,
    payment: { accountId: string; mode: 'test' | 'live'; storeId: string; customerId: string | null },
    pending: [string, Record<string, unknown>][],
  ): Promise<string[]> {
    const scope = {
      accountId: payment.accountId,
      mode: payment.mode,
      storeId: payment.storeId,
      customerId: payment.customerId,
    };
    const inputs = pending.map(([eventType, properties]) => ({ ...scope, eventType, properties }));
    const subscribed = await subscribedAmong(tx, inputs);
    const ids = await recordEvents(
      tx,
      inputs.map((input, index) => ({ ...input, processed: !subscribed[index] })),
    );
    return ids.filter((_, index) => subscribed[index]);
  }

  /** Counted by the call that closed the payment; a failure to count never fails the payment. */
  async function countFinishedPayment(input: FinalizeInput, createdAt: Date) {
    try {
      await observeFinishedPayment(input, createdAt);
    } catch (error) {
      deps.logger.warn({ err: error, paymentId: input.paymentId }, 'payment metrics not counted');
    }
  }

  async function observeFinishedPayment(input: FinalizeInput, createdAt: Date) {
    const processor = input.processorId ? await processorTypeOf(input.processorId) : 'none';
    const status = input.review ? 'needs_review' : input.status;
    paymentsFinished.inc({ status, decline_code: input.declineCode ?? '', processor });
    paymentDuration.observe({ status }, (Date.now() - createdAt.getTime()) / 1000);
  }

  /** The session's order; null when the session stopped being open under us (logged: needs a refund). */
  async function orderForCheckout(tx: Tx, checkoutSessionId: string, paymentId: string, source: string | undefined) {
    try {
      return await createOrderForPaidCheckout(tx, { checkoutSessionId, paymentId, source });
    } catch (error) {
      if (!(error instanceof CheckoutAlreadyPaidError)) throw error;
      deps.logger.error(
        { paymentId, checkoutSessionId },
        'payment approved but its checkout session was no longer open; no order created',
      );
      return null;
    }
  }
}
