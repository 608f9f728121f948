import { refundsFinished } from '../../src/metrics/metrics';
import type { FollowUpCall, FollowUpOutcome, ProcessorFollowUp, RefundInput } from '../../src/payments/followUpTypes';
import { reserveRefundAmount } from '../../src/payments/refundReservation';
import type { ActivityDeps } from '../deps';
import { recordRefundResult } from '../../src/payments/refundOutcomes';
import { callProcessor } from './settlement';

/** A refund settled as failed elsewhere (by the processor's webhook) as the workflow's answer. */
const refundFailure = (refund: { failureCode: string | null }) => ({
  code: refund.failureCode ?? 'refund_failed',
  message: 'The processor failed the refund',
});

/**
 * Refunds. `reserveRefund` adds the amount to `payments.amount_refunded` with a conditional UPDATE
 * (only while the sum stays within `amount_captured`, and never on a payment with an open or lost
 * dispute) and writes the refund row `pending`, in one transaction, BEFORE the processor is called:
 * concurrent refunds can never exceed the capture. A failed refund gives its reservation back.
 */
export function createPaymentRefundActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    /** Reserves the amount before the processor is called; see reserveRefundAmount for the rules (capture, disputes, key reuse). */
    async reserveRefund(input: RefundInput): Promise<FollowUpCall | Extract<FollowUpOutcome, { kind: 'rejected' }>> {
      const reservation = await reserveRefundAmount(db, input);
      if (reservation.kind === 'refused') return { kind: 'rejected', error: reservation.error };
      const { payment, amount } = reservation;
      return {
        processorId: payment.processorId ?? '',
        processorReference: payment.processorReference ?? '',
        amount,
        currency: payment.currency,
        idempotencyKey: input.refundId,
      };
    },

    async refundAtProcessor(input: RefundInput & { call: FollowUpCall }): Promise<ProcessorFollowUp> {
      return callProcessor(deps, { accountId: input.accountId, mode: input.mode }, 'refund', input.call);
    },

    async finishRefund(
      input: RefundInput & { call: FollowUpCall; result: ProcessorFollowUp },
    ): Promise<FollowUpOutcome> {
      const { result } = input;
      const { settled, refund } = await recordRefundResult(db, input, result);
      // Counted only by the call that settles the refund: a repeat after commit is not counted again.
      if (settled.effect === 'settled')
        refundsFinished.inc({ status: result.outcome === 'failed' ? 'failed' : 'succeeded' });
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
