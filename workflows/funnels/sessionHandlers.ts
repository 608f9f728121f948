import { condition, proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { funnelStep } from '../shared/activityOptions';
import { isOfferStep } from '../../src/domain/funnelGraph';
import type { OfferAnswerView } from '../../src/funnels/sessionTypes';
import { searchAttributes } from '../../temporal/searchAttributes';
import { chargeOffer } from './offer';
import {
  answerOfferUpdate,
  checkoutPaidUpdate,
  funnelSessionQuery,
  refuse,
  sessionOpenedUpdate,
  trackStepUpdate,
} from './messages';
import type { FunnelSessionRun } from './sessionRun';

const { loadFunnelCheckout, recordOfferAnswer } = proxyActivities<Activities>(funnelStep);

/** The session's query and updates: tracking events, the checkout's payment, offer answers. */
export function registerSessionHandlers(run: FunnelSessionRun): void {
  setHandler(funnelSessionQuery, run.view);
  setHandler(sessionOpenedUpdate, async () => {
    await condition(() => run.saved >= 0);
    return run.view();
  });

  setHandler(
    trackStepUpdate,
    ({ eventType, stepId }) => {
      if (eventType === 'view' || eventType === 'enter') run.moveTo(stepId);
      run.touches++;
      return Promise.resolve(run.view());
    },
    {
      validator: ({ stepId }) => {
        run.assertActive();
        run.stepOf(stepId);
      },
    },
  );

  registerCheckoutPaid(run);
  registerAnswerOffer(run);
}

/** The checkout was paid: its card, processor and flow are loaded once, and the session moves past it. */
function registerCheckoutPaid(run: FunnelSessionRun): void {
  const { input, state } = run;
  setHandler(
    checkoutPaidUpdate,
    async ({ paymentId }) => {
      if (state.checkout) return run.view();
      run.busy++;
      try {
        const loaded = await loadFunnelCheckout({
          accountId: input.accountId,
          mode: input.mode,
          storeId: input.storeId,
          customerId: state.customerId,
          paymentId,
        });
        if (loaded.kind === 'rejected') throw refuse(loaded.error.kind, loaded.error.code, loaded.error.message);
        if (state.checkout) return run.view();
        state.checkout = loaded.checkout;
        state.checkoutPaymentId = paymentId;
        if (!state.customerId && workflowInfo().typedSearchAttributes.get(searchAttributes.AccountId) !== undefined)
          // A session started without a customer: operators find it by the checkout's customer from now on.
          upsertSearchAttributes([{ key: searchAttributes.CustomerId, value: loaded.checkout.customerId }]);
        state.customerId = loaded.checkout.customerId;
        const checkoutStep = input.steps.find((step) => step.type === 'checkout');
        if (checkoutStep?.next && state.status === 'active') run.moveTo(checkoutStep.next);
        run.touches++;
        return run.view();
      } finally {
        run.busy--;
      }
    },
    {
      validator: ({ paymentId }) => {
        run.assertActive();
        if (state.checkoutPaymentId && state.checkoutPaymentId !== paymentId)
          throw refuse('conflict', 'CHECKOUT_ALREADY_ATTACHED', 'The session has a paid checkout already');
      },
    },
  );
}

/** An offer's answer: an accept charges the checkout's card (a child payment), a decline is recorded. */
function registerAnswerOffer(run: FunnelSessionRun): void {
  const { input, state, answering } = run;
  setHandler(
    answerOfferUpdate,
    ({ stepId, accept }) => {
      const earlier = answering.get(stepId);
      if (earlier) return earlier.answer;
      const step = run.stepOf(stepId);
      const answer = (async (): Promise<OfferAnswerView> => {
        run.busy++;
        try {
          const result =
            accept && state.checkout
              ? await chargeOffer(input, state.checkout, { id: step.id, priceId: step.priceId! })
              : await recordOfferAnswer({ sessionId: input.sessionId, stepId, status: 'declined', declineCode: null });
          state.answers.push(result);
          const next = result.status === 'succeeded' ? step.onAccept : step.onDecline;
          if (next && state.status === 'active') run.moveTo(next);
          run.touches++;
          return result;
        } finally {
          run.busy--;
        }
      })();
      answering.set(stepId, { accept, answer });
      answer.catch(() => answering.delete(stepId));
      return answer;
    },
    {
      validator: ({ stepId, accept }) => {
        const earlier = answering.get(stepId);
        if (earlier && earlier.accept !== accept)
          throw refuse('conflict', 'OFFER_ALREADY_ANSWERED', 'This offer was answered otherwise already');
        if (earlier) return;
        run.assertActive();
        const step = run.stepOf(stepId);
        if (!isOfferStep(step.type)) throw refuse('invalid', 'NOT_AN_OFFER_STEP', `Step ${stepId} offers nothing`);
        if (state.currentStepId !== stepId)
          throw refuse('conflict', 'NOT_CURRENT_STEP', `The session is at step ${state.currentStepId}, not ${stepId}`);
        if (accept && !state.checkout)
          throw refuse('conflict', 'CHECKOUT_NOT_PAID', 'An offer can be accepted only after the checkout is paid');
      },
    },
  );
}
