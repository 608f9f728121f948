import { refundsFinished } from '../../src/metrics/metrics';
import type { FollowUpCall, FollowUpOutcome, ProcessorFollowUp, RefundInput } from '../../src/payments/followUpTypes';
import { rejection } from '../../src/payments/workflowTypes';
import type { ActivityDeps } from '../deps';
import { lockPayment, settlePendingRefund } from '../../src/payments/refundOutcomes';
import { refundAmount } from '../../src/domain/paymentAmounts';
import { callProcessor } from './settlement';

const refundable = ['succeeded', 'partially_refunded'];

/** A refund settled as failed elsewhere (by the processor's webhook) as the workflow's answer. */
const refundFailure = (refund: { failureCode: string | null }) => ({
  code: refund.failureCode ?? 'refund_failed',
  message: 'The processor failed the refund',
});

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
      const exceeds = () =>
        rejection(
          'conflict',
          'REFUND_EXCEEDS_CAPTURED',
          `Refunds would exceed the captured amount of ${payment.amountCaptured}`,
        );
      const planned = refundAmount(payment.amountCaptured, payment.amountRefunded, input.amount);
      if (!planned.ok && planned.reason === 'nothing_left')
        return rejection('conflict', 'REFUND_EXCEEDS_CAPTURED', 'Nothing is left to refund on this payment');
      if (!planned.ok) return exceeds();
      const { amount } = planned;
      // The same rule again in the UPDATE: it holds against concurrent refunds of the payment.
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
      if (!reserved) return exceeds();
      return call(amount);
    },

    async refundAtProcessor(input: RefundInput & { call: FollowUpCall }): Promise<ProcessorFollowUp> {
      return callProcessor(deps, { accountId: input.accountId, mode: input.mode }, 'refund', input.call);
    },

    async finishRefund(
      input: RefundInput & { call: FollowUpCall; result: ProcessorFollowUp },
    ): Promise<FollowUpOutcome> {
      const { result } = input;
      const settled = await db.$transaction(async (tx) => {
        const payment = await lockPayment(tx, input.paymentId);
        const refund = await tx.refund.findUniqueOrThrow({ where: { id: input.refundId } });
        if (result.outcome === 'pending') {
          // Accepted, not confirmed: the refund stays pending with its amount reserved until the
          // processor confirms or fails it (webhook, or the workflow's lookup after a long wait).
          if (refund.status !== 'pending')
            return { effect: 'already_settled' as const, paymentStatus: payment.status, eventIds: [] };
          await tx.refund.update({ where: { id: refund.id }, data: { processorReference: result.processorReference } });
          return { effect: 'pending' as const, paymentStatus: payment.status, eventIds: [] };
        }
        return settlePendingRefund(
          tx,
          refund.id,
          result.outcome === 'failed'
            ? { succeeded: false, code: result.code, message: result.message }
            : { succeeded: true, processorReference: result.processorReference },
        );
      });
      // Counted only by the call that settles the refund: a repeat after commit is not counted again.
      if (settled.effect === 'settled')
        refundsFinished.inc({ status: result.outcome === 'failed' ? 'failed' : 'succeeded' });
      const refund = await db.refund.findUniqueOrThrow({ where: { id: input.refundId } });
      const failure = result.outcome === 'failed' ? result : refund.status === 'failed' ? refundFailure(refund) : null;
      return {
        kind: 'done',
        paymentId: input.paymentId,
        paymentStatus: settled.paymentStatus,
        succeeded: !failure,
        ...(settled.effect === 'pending' ? { pending: true } : {}),
        code: failure?.code ?? null,
        message: failure?.message ?? null,
        refundId: refund.id,
        eventIds: settled.eventIds,
      };
    },
  };
}
