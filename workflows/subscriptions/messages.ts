import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SubscriptionState } from '../../src/domain/billingState';

/** Messages the subscription workflow accepts. Updates answer with the state after the change. */

export interface CancelRequest {
  /** true: cancel at the end of the paid period; false: cancel now. */
  atPeriodEnd: boolean;
  reasonId?: string | null;
  atMs: number;
}
/** A customer's own change from the portal (cancel, or withdraw a cancel at period end). */
export interface CustomerChangeRequest {
  atMs: number;
}
export interface CustomerCancelRequest extends CustomerChangeRequest {
  /** true: cancel at the end of the current period; false: cancel now. */
  atPeriodEnd: boolean;
}
export interface PauseRequest {
  /** Paused until this time, then resumed automatically. */
  untilMs: number;
  atMs: number;
}
export interface ResumeRequest {
  atMs: number;
}
export interface SkipRequest {
  atMs: number;
  /**
   * The billing date the caller means to skip. Given, the skip is idempotent: a date already
   * skipped is refused (DateAlreadySkipped), so a burst of identical requests skips one date.
   * Absent: whatever date is next (each such request skips one more).
   */
  dateMs?: number | null;
}
export interface SwitchRequest {
  optionId: string;
  productId: string;
  variantId: string;
  /** New per-period amount in integer minor units (unit price x quantity). */
  price: number;
  currency: string;
  interval: SubscriptionState['interval'];
  intervalCount: number;
  atMs: number;
}
export interface SwitchAnswer {
  state: SubscriptionState;
  status: 'paid' | 'declined' | 'requires_action';
  orderId: string | null;
  paymentId: string | null;
  amountCharged: number;
  redirectUrl: string | null;
  declineCode: string | null;
}

export interface PayDueRequest {
  atMs: number;
}
/** The portal's on-session payment of a failed renewal: the payment's answer. */
export interface PayDueAnswer {
  state: SubscriptionState;
  status: 'paid' | 'declined' | 'requires_action';
  orderId: string | null;
  paymentId: string | null;
  amountCharged: number;
  redirectUrl: string | null;
  declineCode: string | null;
}

/**
 * ApplicationFailure types the workflow refuses updates with; the API maps each type (never the
 * message) to its answer (src/subscriptions/client.ts).
 */
export const subscriptionFailureTypes = {
  /** Another switch or charge is in flight (or a switch waits for its 3-D Secure challenge). */
  busy: 'SubscriptionBusyError',
  /** The subscription is on that option already, or a switch to it is in flight. */
  sameOption: 'SubscriptionSameOptionError',
  /** The transition table forbids the change in the current status. */
  transition: 'SubscriptionTransitionError',
  /** The date named by a skip is skipped already. */
  dateAlreadySkipped: 'SubscriptionDateAlreadySkippedError',
  invalidRequest: 'InvalidRequest',
  /** An on-session payment of a renewal, when none is due (the subscription is not past due). */
  nothingDue: 'SubscriptionNothingDueError',
  /** A withdrawal of a cancel at period end, when none is scheduled. */
  noScheduledCancel: 'SubscriptionNoScheduledCancelError',
} as const;

export const cancelSubscriptionUpdate = defineUpdate<SubscriptionState, [CancelRequest]>('cancel');
export const pauseSubscriptionUpdate = defineUpdate<SubscriptionState, [PauseRequest]>('pause');
export const resumeSubscriptionUpdate = defineUpdate<SubscriptionState, [ResumeRequest]>('resume');
/** Skips the next billing date (the period is given for free; the date after is billed). */
export const skipNextDateUpdate = defineUpdate<SubscriptionState, [SkipRequest]>('skipNextDate');
/**
 * The customer's cancel (portal): as `cancel`, but refused (busy) rather than queued while a charge
 * is in flight, so the customer sees that charge's outcome before deciding.
 */
export const customerCancelUpdate = defineUpdate<SubscriptionState, [CustomerCancelRequest]>('customerCancel');
/** Withdraws a cancel at period end (portal "resume"): the next period is billed as usual. */
export const withdrawCancelUpdate = defineUpdate<SubscriptionState, [CustomerChangeRequest]>('withdrawCancel');
export const switchOptionUpdate = defineUpdate<SwitchAnswer, [SwitchRequest]>('switchOption');
/** The customer pays the failed renewal now, on-session (portal); refused when nothing is due. */
export const payDueOnSessionUpdate = defineUpdate<PayDueAnswer, [PayDueRequest]>('payDueOnSession');
/** The customer's card changed (portal default card); the next charge uses it. */
export const paymentMethodChangedSignal = defineSignal<[{ paymentMethodId: string }]>('paymentMethodChanged');
export const subscriptionStateQuery = defineQuery<SubscriptionState>('state');
