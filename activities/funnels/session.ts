import { dispatchAfterCommit } from '../../src/events/afterCommit';
import { loadFunnelCheckout, saveFunnelSession } from '../../src/funnels/sessions';
import type { FunnelSessionView, OfferAnswerStatus } from '../../src/funnels/sessionTypes';
import { prepareUpsell, recordSessionOfferAnswer, type PrepareUpsellInput } from '../../src/funnels/upsells';
import type { PaymentOutcome } from '../../src/payments/workflowTypes';
import type { ActivityDeps } from '../deps';
import { paymentEndWaiter } from '../payments/awaitPayment';

/** What the funnel session workflow does outside itself: its row, the checkout it reads, offer orders. */
export function createFunnelActivities(deps: ActivityDeps) {
  const waitForPaymentEnd = paymentEndWaiter(deps);
  const dispatch = dispatchAfterCommit(
    deps.temporal ? { db: deps.db, temporal: deps.temporal, taskQueue: deps.config.TEMPORAL_TASK_QUEUE } : null,
    (error) => deps.logger.warn({ err: error }, 'funnel event dispatch failed; the outbox sweep delivers it'),
  );
  return {
    /** Writes the session's row (its projection), creating it on the first call. */
    async saveFunnelSession(input: {
      accountId: string;
      mode: 'test' | 'live';
      idleTimeoutMs: number;
      view: FunnelSessionView;
    }): Promise<void> {
      await saveFunnelSession(deps.db, input);
    },

    /** The paid checkout payment the offers of a session charge again, or why it cannot be used. */
    loadFunnelCheckout(input: {
      accountId: string;
      mode: 'test' | 'live';
      storeId: string;
      customerId: string | null;
      paymentId: string;
    }) {
      return loadFunnelCheckout(deps.db, input);
    },

    /** The order and answer row of an accepted offer, and its payment's input (see src/funnels/upsells.ts). */
    async prepareUpsell(input: PrepareUpsellInput) {
      const { plan, eventIds } = await prepareUpsell(deps.db, input);
      await dispatch(eventIds);
      return plan;
    },

    /** Settles an offer answer (declined, or the end of its payment). */
    async recordOfferAnswer(input: {
      sessionId: string;
      stepId: string;
      status: OfferAnswerStatus;
      declineCode: string | null;
    }) {
      const { answer, eventIds } = await recordSessionOfferAnswer(deps.db, input);
      await dispatch(eventIds);
      return answer;
    },

    /** The outcome of an upsell payment started before (or ended without an answer): from its run or its row. */
    awaitUpsellPayment(input: { paymentId: string }): Promise<PaymentOutcome> {
      return waitForPaymentEnd(input.paymentId);
    },
  };
}
