import { CheckoutAlreadyPaidError, createOrderForPaidCheckout } from '../../src/commerce/orders';
import type { Prisma } from '../../src/db/prisma';
import { keepEventsWithSubscribers } from '../../src/events/dispatch';
import { releaseCheckoutClaim } from '../../src/payments/checkoutClaims';
import { recordDispute } from '../../src/payments/disputes';
import { recordPaymentEvents } from '../../src/payments/refundOutcomes';
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
  return {
    /**
     * Records the payment's end in ONE transaction: the payment row, the checkout session (paid)
     * and its order, a dispute the acquirer opened, and the events. Answers the ids of the events
     * that still need dispatching (those with a subscribed endpoint). A repeat after commit finds
     * the payment no longer open and answers what was recorded, writing nothing twice.
     */
    async finalizePayment(input: FinalizeInput): Promise<FinalizeResult> {
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
        const eventIds: string[] = [];
        const event = async (eventType: string, properties: Record<string, unknown>) => {
          eventIds.push(...(await recordPaymentEvents(tx, payment, [[eventType, properties]])));
        };

        let order = null;
        if (succeeded && payment.checkoutSessionId) {
          order = await orderForCheckout(tx, payment.checkoutSessionId, payment.id, payment.source ?? undefined);
          if (order) {
            await event('s_checkout_session_paid', {
              checkoutSessionId: payment.checkoutSessionId,
              orderId: order.id,
              paymentId: payment.id,
            });
            await event('s_order_paid', {
              orderId: order.id,
              amount: order.totalAmount,
              currency: order.currency,
              paymentId: payment.id,
            });
          }
        } else if (succeeded && payment.orderId) {
          const paid = await tx.order.updateMany({
            where: { id: payment.orderId, status: 'pending' },
            data: { status: 'paid', paymentId: payment.id },
          });
          order = await tx.order.findUnique({ where: { id: payment.orderId } });
          if (paid.count === 1 && order)
            await event('s_order_paid', {
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
            orderId: order?.id ?? payment.orderId,
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
          orderId: order?.id ?? payment.orderId,
          amount: payment.amount,
          currency: payment.currency,
          status: input.status,
        };
        if (input.blockedByRuleId) {
          await event('s_payment_blocked', {
            ...paymentProperties,
            ruleId: input.blockedByRuleId,
            declineCode: input.declineCode,
          });
        } else if (succeeded) {
          await event('s_payment_succeeded', {
            ...paymentProperties,
            processorId: input.processorId,
            captured: input.captured,
          });
        } else {
          await event('s_payment_failed', {
            ...paymentProperties,
            declineCode: input.declineCode,
            declineCategory: input.declineCategory,
          });
        }
        if (succeeded && input.dispute) {
          const { amount, reason } = input.dispute;
          eventIds.push((await recordDispute(tx, payment, { amount, reason, status: 'needs_response' })).eventId);
        }
        closedAt = { createdAt: payment.createdAt };
        // Only events someone subscribes to go on to the workflow's dispatch step.
        return { eventIds: await keepEventsWithSubscribers(tx, eventIds), order: summaryOf(order) };
      });
      if (closedAt) {
        await countFinishedPayment(input, (closedAt as { createdAt: Date }).createdAt).catch((error: unknown) =>
          deps.logger.warn({ err: error, paymentId: input.paymentId }, 'payment metrics not counted'),
        );
      }
      return result;
    },
  };

  async function countFinishedPayment(input: FinalizeInput, createdAt: Date) {
    const processor = input.processorId
      ? await db.processor.findUnique({ where: { id: input.processorId }, select: { type: true } })
      : null;
    const status = input.review ? 'needs_review' : input.status;
    paymentsFinished.inc({ status, decline_code: input.declineCode ?? '', processor: processor?.type ?? 'none' });
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
