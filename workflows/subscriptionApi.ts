import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SubscriptionState } from '../src/domain/billingState';

/** Messages the subscription workflow accepts. Updates answer with the state after the change. */

export interface CancelRequest {
  /** true: cancel at the end of the paid period; false: cancel now. */
  atPeriodEnd: boolean;
  reasonId?: string | null;
  atMs: number;
}
export interface PauseRequest {
  /** Paused until this time, then resumed automatically. */
  untilMs: number;
  atMs: number;
}
export interface ResumeRequest {
  atMs: number;
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

export const cancelSubscriptionUpdate = defineUpdate<SubscriptionState, [CancelRequest]>('cancel');
export const pauseSubscriptionUpdate = defineUpdate<SubscriptionState, [PauseRequest]>('pause');
export const resumeSubscriptionUpdate = defineUpdate<SubscriptionState, [ResumeRequest]>('resume');
/** Skips the next billing date (the period is given for free; the date after is billed). */
export const skipNextDateUpdate = defineUpdate<SubscriptionState, [{ atMs: number }]>('skipNextDate');
export const switchOptionUpdate = defineUpdate<SwitchAnswer, [SwitchRequest]>('switchOption');
/** The customer's card changed (portal default card); the next charge uses it. */
export const paymentMethodChangedSignal = defineSignal<[{ paymentMethodId: string }]>('paymentMethodChanged');
export const subscriptionStateQuery = defineQuery<SubscriptionState>('state');
