import { ApplicationFailure } from '@temporalio/workflow';
import { canTransition, type SubscriptionEvent } from '../../src/domain/billing';
import { nextBillingAtMs, type SubscriptionState } from '../../src/domain/billingState';
import { subscriptionFailureTypes as failure, type SkipRequest, type SwitchRequest } from './messages';

/**
 * The rules each update is checked against, by its validator (before Temporal accepts it, so a
 * refused update is never queued or run) and again when it runs (the state may have moved while it
 * waited its turn; validators do not run on replay). Pure: they read the state and throw.
 */

/** A money movement the workflow has started and not finished. */
export type ChargeInFlight = { kind: 'switch'; optionId: string } | { kind: 'renewal' } | null;

const refuse = (message: string, type: string) => ApplicationFailure.nonRetryable(message, type);

export function assertCan(state: SubscriptionState, event: SubscriptionEvent): void {
  if (state.pendingSwitch) {
    throw refuse('a switch is waiting for its 3-D Secure challenge; try again when it ends', failure.busy);
  }
  if (!canTransition(state.status, event)) {
    throw refuse(`a ${state.status} subscription cannot be ${event.replace(/_/g, ' ')}`, failure.transition);
  }
}

/**
 * One switch at a time, and never to where the subscription is or is going: a second identical
 * request (a double-click) is refused as SAME_OPTION, any other while one is in flight as busy.
 */
export function assertCanSwitch(state: SubscriptionState, request: SwitchRequest, inFlight: ChargeInFlight): void {
  const goingTo = inFlight?.kind === 'switch' ? inFlight.optionId : (state.pendingSwitch?.optionId ?? null);
  if (goingTo === request.optionId) throw refuse('a switch to this option is already in progress', failure.sameOption);
  if (inFlight) {
    throw refuse(`a ${inFlight.kind} charge of this subscription is in progress; try again when it ends`, failure.busy);
  }
  if (goingTo === null && request.optionId === state.optionId)
    throw refuse('the subscription is already on this option', failure.sameOption);
  assertCan(state, 'switched');
  if (request.currency !== state.currency)
    throw refuse('the new option must bill in the subscription currency', failure.invalidRequest);
}

/** Skips only a trialing or active subscription's next date; a named date is skipped once. */
export function assertCanSkip(state: SubscriptionState, request: SkipRequest): void {
  if (state.pendingSwitch) assertCan(state, 'switched');
  if (state.status !== 'active' && state.status !== 'trialing') {
    throw refuse(`a ${state.status} subscription cannot skip a date`, failure.transition);
  }
  if (request.dateMs === undefined || request.dateMs === null) return;
  if (state.skippedDatesMs.includes(request.dateMs)) {
    throw refuse(
      `the billing date ${new Date(request.dateMs).toISOString()} is skipped already`,
      failure.dateAlreadySkipped,
    );
  }
  const next = nextBillingAtMs(state);
  if (request.dateMs !== next) {
    throw refuse(
      `${new Date(request.dateMs).toISOString()} is not the next billing date (${new Date(next).toISOString()})`,
      failure.invalidRequest,
    );
  }
}

/** A customer's own change is never queued behind a money movement: it waits for none, it is refused. */
function assertNothingInFlight(inFlight: ChargeInFlight): void {
  if (inFlight) {
    throw refuse(`a ${inFlight.kind} charge of this subscription is in progress; try again when it ends`, failure.busy);
  }
}

/** The portal's cancel: the transition rules, and nothing charging at the moment. */
export function assertCustomerCanCancel(state: SubscriptionState, inFlight: ChargeInFlight): void {
  assertNothingInFlight(inFlight);
  assertCan(state, 'canceled');
}

/** The portal's resume: only a live subscription set to cancel at period end, nothing charging at the moment. */
export function assertCanWithdrawCancel(state: SubscriptionState, inFlight: ChargeInFlight): void {
  assertNothingInFlight(inFlight);
  if (state.pendingSwitch) assertCan(state, 'switched');
  if (state.status === 'canceled') throw refuse('a canceled subscription cannot be resumed', failure.transition);
  if (!state.cancelAtPeriodEnd)
    throw refuse('the subscription is not set to cancel at the end of its period', failure.noScheduledCancel);
}
