import { Context } from '@temporalio/activity';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { Db } from '../../src/db/prisma';
import { outcomeFromRow } from '../../src/payments/startPayment';
import { rejection, type PaymentOutcome } from '../../src/payments/workflowTypes';

/** Answers a payment may end on; anything else is still moving. */
export const terminalPaymentStatuses = new Set([
  'succeeded',
  'authorized',
  'failed',
  'canceled',
  'refunded',
  'partially_refunded',
]);
const heartbeatEveryMs = 5_000;

/**
 * Waits, heartbeating, for a payment workflow started elsewhere (a child the caller cannot await, a
 * switch's challenge) to end, and answers its outcome. Call it from an activity with a heartbeat
 * timeout: a payment may wait minutes for a 3DS challenge or a processor.
 */
export function paymentEndWaiter(deps: { db: Db; temporal?: Client }) {
  return async function waitForPaymentEnd(paymentId: string): Promise<PaymentOutcome> {
    if (!deps.temporal) throw new Error('waiting for a payment needs a Temporal client in the activity deps');
    const result = (deps.temporal.workflow.getHandle(paymentId).result() as Promise<PaymentOutcome>).catch(
      (error: unknown) => {
        if (error instanceof WorkflowFailedError) return interruptedOutcome(deps.db, paymentId);
        throw error;
      },
    );
    const context = Context.current();
    for (;;) {
      const done = await Promise.race([result, context.sleep(heartbeatEveryMs).then(() => null)]);
      if (done) return done;
      context.heartbeat();
    }
  };
}

/**
 * The payment workflow ended without an answer (terminated by an operator): its row says what
 * happened. One left unfinished may hold money at the acquirer, so it is a hard decline: nothing
 * charges that card again on its own, and an operator reconciles the payment.
 */
async function interruptedOutcome(db: Db, paymentId: string): Promise<PaymentOutcome> {
  const row = await outcomeFromRow(db, paymentId);
  if (row && row.kind === 'payment' && terminalPaymentStatuses.has(row.status)) return row;
  return rejection('internal', 'payment_interrupted', `payment ${paymentId} ended without an outcome`);
}
