import { ApplicationFailure, defineQuery, defineUpdate } from '@temporalio/workflow';
import type { DomainErrorKind } from '../../src/errors';
import type { FunnelSessionView, FunnelTrackingEvent, OfferAnswerView } from '../../src/funnels/sessionTypes';

/**
 * Messages of the funnel session workflow. Each update has a validator: a refused update (wrong
 * step, session ended, conflicting answer) never enters the history and never moves the session.
 */

/** Sent with update-with-start by `POST /funnel-sessions`: answers once the session's row is written. */
export const sessionOpenedUpdate = defineUpdate<FunnelSessionView>('sessionOpened');

/** A tracking event of one of the session's steps: view/enter move the session there; any resets the idle timer. */
export const trackStepUpdate = defineUpdate<FunnelSessionView, [{ eventType: FunnelTrackingEvent; stepId: string }]>(
  'trackStep',
);

/** The checkout step was paid by this payment: offers charge its card on its processor. */
export const checkoutPaidUpdate = defineUpdate<FunnelSessionView, [{ paymentId: string }]>('checkoutPaid');

/** The customer's answer to the offer of the current upsell/downsell step (one per step, ever). */
export const answerOfferUpdate = defineUpdate<OfferAnswerView, [{ stepId: string; accept: boolean }]>('answerOffer');

export const funnelSessionQuery = defineQuery<FunnelSessionView>('funnelSession');

/** A refusal an update validator throws: the API answers it with the kind's status and this code. */
export function refuse(kind: DomainErrorKind, code: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: code, message, details: [kind], nonRetryable: true });
}
