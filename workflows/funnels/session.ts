import {
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { funnelStep } from '../shared/activityOptions';
import { entryStepOf, isOfferStep, type FunnelStep } from '../../src/domain/funnelGraph';
import type {
  FunnelSessionInput,
  FunnelSessionState,
  FunnelSessionView,
  OfferAnswerView,
} from '../../src/funnels/sessionTypes';
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

export { answerOfferUpdate, checkoutPaidUpdate, funnelSessionQuery, sessionOpenedUpdate, trackStepUpdate };

const { saveFunnelSession, loadFunnelCheckout, recordOfferAnswer } = proxyActivities<Activities>(funnelStep);

/**
 * A customer's way through a funnel (workflow id = session id `fs_…`): holds the customer, the paid
 * checkout (card, processor, flow) and the current step; moves on tracking events, the checkout's
 * payment and offer answers (updates with validators); ends at a thankyou step or after
 * `idleTimeoutMs` without any of them (a durable timer, reset by each). The row in funnel_sessions
 * is its projection, written by this loop only, one write at a time.
 */
export async function funnelSessionWorkflow(input: FunnelSessionInput): Promise<FunnelSessionView> {
  const steps = new Map(input.steps.map((step) => [step.id, step]));
  const state: FunnelSessionState = {
    sessionId: input.sessionId,
    funnelId: input.funnelId,
    storeId: input.storeId,
    customerId: input.customerId,
    status: 'active',
    currentStepId: entryStepOf(input.steps).id,
    checkoutPaymentId: null,
    checkout: null,
    answers: [],
  };
  /** Bumped by every accepted message: the idle timer starts again, the loop saves the row. */
  let touches = 0;
  let saved = -1;
  let busy = 0;
  /** In-flight or finished offer answers by step: identical concurrent accepts share one charge. */
  const answering = new Map<string, { accept: boolean; answer: Promise<OfferAnswerView> }>();

  const view = (): FunnelSessionView => {
    const { checkout: _checkout, ...rest } = state;
    return { ...rest, answers: state.answers.map((answer) => ({ ...answer })) };
  };
  const moveTo = (stepId: string) => {
    state.currentStepId = stepId;
    if (steps.get(stepId)?.type === 'thankyou') state.status = 'completed';
  };
  const assertActive = () => {
    if (state.status !== 'active')
      throw refuse('conflict', 'FUNNEL_SESSION_ENDED', `Funnel session is ${state.status}`);
  };
  const stepOf = (stepId: string): FunnelStep => {
    const step = steps.get(stepId);
    if (!step) throw refuse('not_found', 'NOT_FOUND', 'Step not found in this funnel session');
    return step;
  };

  setHandler(funnelSessionQuery, view);
  setHandler(sessionOpenedUpdate, async () => {
    await condition(() => saved >= 0);
    return view();
  });

  setHandler(
    trackStepUpdate,
    ({ eventType, stepId }) => {
      if (eventType === 'view' || eventType === 'enter') moveTo(stepId);
      touches++;
      return Promise.resolve(view());
    },
    {
      validator: ({ stepId }) => {
        assertActive();
        stepOf(stepId);
      },
    },
  );

  setHandler(
    checkoutPaidUpdate,
    async ({ paymentId }) => {
      if (state.checkout) return view();
      busy++;
      try {
        const loaded = await loadFunnelCheckout({
          accountId: input.accountId,
          mode: input.mode,
          storeId: input.storeId,
          customerId: state.customerId,
          paymentId,
        });
        if (loaded.kind === 'rejected') throw refuse(loaded.error.kind, loaded.error.code, loaded.error.message);
        if (state.checkout) return view();
        state.checkout = loaded.checkout;
        state.checkoutPaymentId = paymentId;
        if (!state.customerId && workflowInfo().typedSearchAttributes.get(searchAttributes.AccountId) !== undefined)
          // A session started without a customer: operators find it by the checkout's customer from now on.
          upsertSearchAttributes([{ key: searchAttributes.CustomerId, value: loaded.checkout.customerId }]);
        state.customerId = loaded.checkout.customerId;
        const checkoutStep = input.steps.find((step) => step.type === 'checkout');
        if (checkoutStep?.next && state.status === 'active') moveTo(checkoutStep.next);
        touches++;
        return view();
      } finally {
        busy--;
      }
    },
    {
      validator: ({ paymentId }) => {
        assertActive();
        if (state.checkoutPaymentId && state.checkoutPaymentId !== paymentId)
          throw refuse('conflict', 'CHECKOUT_ALREADY_ATTACHED', 'The session has a paid checkout already');
      },
    },
  );

  setHandler(
    answerOfferUpdate,
    ({ stepId, accept }) => {
      const earlier = answering.get(stepId);
      if (earlier) return earlier.answer;
      const step = stepOf(stepId);
      const answer = (async (): Promise<OfferAnswerView> => {
        busy++;
        try {
          const result =
            accept && state.checkout
              ? await chargeOffer(input, state.checkout, { id: step.id, priceId: step.priceId! })
              : await recordOfferAnswer({ sessionId: input.sessionId, stepId, status: 'declined', declineCode: null });
          state.answers.push(result);
          const next = result.status === 'succeeded' ? step.onAccept : step.onDecline;
          if (next && state.status === 'active') moveTo(next);
          touches++;
          return result;
        } finally {
          busy--;
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
        assertActive();
        const step = stepOf(stepId);
        if (!isOfferStep(step.type)) throw refuse('invalid', 'NOT_AN_OFFER_STEP', `Step ${stepId} offers nothing`);
        if (state.currentStepId !== stepId)
          throw refuse('conflict', 'NOT_CURRENT_STEP', `The session is at step ${state.currentStepId}, not ${stepId}`);
        if (accept && !state.checkout)
          throw refuse('conflict', 'CHECKOUT_NOT_PAID', 'An offer can be accepted only after the checkout is paid');
      },
    },
  );

  const save = async () => {
    const at = touches;
    await saveFunnelSession({
      accountId: input.accountId,
      mode: input.mode,
      idleTimeoutMs: input.idleTimeoutMs,
      view: view(),
    });
    saved = at;
  };
  await save();
  while (state.status === 'active') {
    const seen = touches;
    const moved = await condition(() => touches !== seen || state.status !== 'active', input.idleTimeoutMs);
    // Idle: nothing happened for the whole timeout and no answer is being charged.
    if (!moved && busy === 0) state.status = 'expired';
    if (saved !== touches || state.status !== 'active') await save();
  }
  await condition(allHandlersFinished);
  if (saved !== touches) await save();
  return view();
}
