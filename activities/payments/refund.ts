import { refundsFinished } from '../../src/metrics/metrics';
import type { FollowUpCall, FollowUpOutcome, ProcessorFollowUp, RefundInput } from '../../src/payments/followUpTypes';
import { rejection } from '../../src/payments/workflowTypes';
import type { ActivityDeps } from '../deps';
import { callProcessor, recordEvents } from './settlement';

const refundable = ['succeeded', 'partially_refunded'];

/**
 * Refunds. `reserveRefund` adds the amount to `payments.amount_refunded` with a conditional UPDATE
 * (only while the sum stays within `amount_captured`) and writes the refund row `pending`, in one
 * transaction, BEFORE the processor is called: concurrent refunds can never exceed the capture.
 * A failed refund gives its reservation back.
 */
export function createPaymentRefundActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    async reserveRefund(input: RefundInput): Promise<FollowUpCall | Extract<FollowUpOutcome, { kind: 'rejected' }>> {
      const payment = await db.payment.findFirst({
        where: { id: input.paymentId, accountId: input.accountId, mode: input.mode },
      });
      if (!payment) return rejection('not_found', 'NOT_FOUND', 'Payment not found');
      const call = (amount: number) => ({
        processorId: payment.processorId ?? '',
        processorReference: payment.processorReference ?? '',
        amount,
        currency: payment.currency,
        idempotencyKey: input.refundId,
      });
      const existing = await db.refund.findUnique({ where: { id: input.refundId } });
      if (existing) return call(existing.amount); // a retried activity after its commit
      if (!refundable.includes(payment.status) || payment.amountCaptured === 0) {
        return rejection(
          'conflict',
          'PAYMENT_NOT_REFUNDABLE',
          `Only a captured payment can be refunded; this one is ${payment.status}`,
        );
      }
      const amount = input.amount ?? payment.amountCaptured - payment.amountRefunded;
      if (amount < 1)
        return rejection('conflict', 'REFUND_EXCEEDS_CAPTURED', 'Nothing is left to refund on this payment');
      const reserved = await db.$transaction(async (tx) => {
        const rows = await tx.$executeRaw`
          UPDATE "payments" SET "amount_refunded" = "amount_refunded" + ${amount}, "updated_at" = CURRENT_TIMESTAMP
           WHERE "id" = ${payment.id} AND "status" IN ('succeeded', 'partially_refunded')
             AND "amount_refunded" + ${amount} <= "amount_captured"`;
        if (rows !== 1) return false;
        await tx.refund.create({
          data: {
            id: input.refundId,
            paymentId: payment.id,
            amount,
            currency: payment.currency,
            status: 'pending',
            reason: input.reason ?? null,
          },
        });
        return true;
      });
      if (!reserved)
        return rejection(
          'conflict',
          'REFUND_EXCEEDS_CAPTURED',
          `Refunds would exceed the captured amount of ${payment.amountCaptured}`,
        );
      return call(amount);
    },

    async refundAtProcessor(input: RefundInput & { call: FollowUpCall }): Promise<ProcessorFollowUp> {
      return callProcessor(deps, { accountId: input.accountId, mode: input.mode }, 'refund', input.call);
    },

    async finishRefund(
      input: RefundInput & { call: FollowUpCall; result: ProcessorFollowUp },
    ): Promise<FollowUpOutcome> {
      // Set only by the call that settles the refund: a repeat after commit is not counted again.
      let settled: 'succeeded' | 'failed' | null = null;
      const outcome = await db.$transaction(async (tx) => {
        settled = null;
        // Lock the payment row first so concurrent settlements compute its status one at a time.
        await tx.$executeRaw`UPDATE "payments" SET "updated_at" = CURRENT_TIMESTAMP WHERE "id" = ${input.paymentId}`;
        const payment = await tx.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
        const refund = await tx.refund.findUniqueOrThrow({ where: { id: input.refundId } });
        const failure = input.result.outcome === 'failed' ? input.result : null;
        const answer = (eventIds: string[], status: string) => ({
          kind: 'done' as const,
          paymentId: payment.id,
          paymentStatus: status,
          succeeded: !failure,
          code: failure?.code ?? null,
          message: failure?.message ?? null,
          refundId: refund.id,
          eventIds,
        });
        if (refund.status !== 'pending') return answer([], payment.status);
        if (input.result.outcome === 'pending') {
          // Accepted, not confirmed: the refund stays pending with its amount reserved until the
          // processor confirms or fails it by webhook.
          await tx.refund.update({
            where: { id: refund.id },
            data: { processorReference: input.result.processorReference },
          });
          return { ...answer([], payment.status), pending: true };
        }
        if (failure) {
          await tx.refund.update({ where: { id: refund.id }, data: { status: 'failed', failureCode: failure.code } });
          await tx.$executeRaw`UPDATE "payments" SET "amount_refunded" = "amount_refunded" - ${refund.amount} WHERE "id" = ${payment.id}`;
          settled = 'failed';
          return answer([], payment.status);
        }
        await tx.refund.update({
          where: { id: refund.id },
          data: {
            status: 'succeeded',
            processorReference: input.result.outcome === 'succeeded' ? input.result.processorReference : null,
          },
        });
        const refunded = await tx.refund.aggregate({
          where: { paymentId: payment.id, status: 'succeeded' },
          _sum: { amount: true },
        });
        const status = (refunded._sum.amount ?? 0) >= payment.amountCaptured ? 'refunded' : 'partially_refunded';
        await tx.payment.update({ where: { id: payment.id }, data: { status } });
        const events: [string, Record<string, unknown>][] = [
          [
            's_payment_refunded',
            {
              paymentId: payment.id,
              refundId: refund.id,
              amount: refund.amount,
              currency: refund.currency,
              paymentStatus: status,
            },
          ],
        ];
        if (payment.orderId) {
          await tx.order.updateMany({
            where: { id: payment.orderId, status: { in: ['paid', 'partially_refunded'] } },
            data: { status },
          });
          events.push([
            's_order_refunded',
            {
              orderId: payment.orderId,
              paymentId: payment.id,
              refundId: refund.id,
              amount: refund.amount,
              currency: refund.currency,
              status,
            },
          ]);
        }
        settled = 'succeeded';
        return answer(await recordEvents(tx, payment, events), status);
      });
      if (settled) refundsFinished.inc({ status: settled });
      return outcome;
    },
  };
}
