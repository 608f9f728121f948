import type { PaymentWorkflowInput } from '../payments/workflowTypes';
import { billingDateAt, type BillingInterval, type SubscriptionStatus } from './billing';

/**
 * The state a subscription workflow carries (and hands to its next run on continueAsNew).
 * Times are epoch milliseconds; money is integer minor units. The database row is a projection
 * of this state written by activities.
 */
export interface SubscriptionState {
  subscriptionId: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  customerId: string;
  status: SubscriptionStatus;
  productId: string;
  variantId: string;
  /** The price id (price_) billed. */
  optionId: string;
  currency: string;
  quantity: number;
  /** Amount per period, integer minor units. */
  price: number;
  interval: BillingInterval;
  intervalCount: number;
  /** Billing dates are anchorAtMs + cycle periods (month-end clamped, anchor day kept). */
  anchorAtMs: number;
  /** Index of the next billing date from the anchor. */
  cycle: number;
  startedAtMs: number;
  trialEndsAtMs: number | null;
  pausedUntilMs: number | null;
  canceledAtMs: number | null;
  cancelAtPeriodEnd: boolean;
  cancelReasonId: string | null;
  skippedDatesMs: number[];
  lastPaymentFailedAtMs: number | null;
  paymentMethodId: string;
  paidOrdersCount: number;
  /** Set while a failed renewal is being retried. */
  dunning: { failedAtMs: number; retryIndex: number; hardDeclinedPaymentMethodId: string | null } | null;
  /**
   * A portal switch whose charge is waiting for a 3DS challenge: applied when the payment succeeds,
   * dropped when it fails. Other changes wait until it ends.
   */
  pendingSwitch?: PendingSwitch | null;
  /**
   * The customer's on-session payment of a failed renewal (portal) waiting for its 3-D Secure
   * step: the renewal counts as paid when the payment succeeds; dunning waits until it ends.
   */
  pendingRecovery?: PendingRecovery | null;
  /** Renewal charges made by this workflow run (reset by continueAsNew). */
  chargesThisRun: number;
  /** Workflow runs so far (1 = the first); grows with each continueAsNew. */
  run: number;
}

export interface PendingRecovery {
  paymentId: string;
  chargeKey: string;
  cardBrand: string | null;
}

export interface PendingSwitch {
  paymentId: string;
  /** The switch's charge key, which also names its order. */
  chargeKey: string;
  cardBrand: string | null;
  optionId: string;
  productId: string;
  variantId: string;
  price: number;
  currency: string;
  interval: BillingInterval;
  intervalCount: number;
  atMs: number;
  amountDue: number;
  credit: number;
}

export function nextBillingAtMs(
  state: Pick<SubscriptionState, 'anchorAtMs' | 'interval' | 'intervalCount' | 'cycle'>,
): number {
  return billingDateAt(state.anchorAtMs, state.interval, state.intervalCount, state.cycle);
}

/** Start of the period the subscription is currently in (the last billing date before the next). */
export function currentPeriodStartMs(
  state: Pick<SubscriptionState, 'anchorAtMs' | 'interval' | 'intervalCount' | 'cycle' | 'startedAtMs'>,
): number {
  return state.cycle === 0
    ? state.startedAtMs
    : billingDateAt(state.anchorAtMs, state.interval, state.intervalCount, state.cycle - 1);
}

/** The result of charging a subscription, whatever carried the payment. */
export interface SubscriptionChargeResult {
  status: 'paid' | 'declined' | 'requires_action';
  paymentId: string | null;
  /** Processor classification of a decline: hard declines are never retried. */
  hardDecline: boolean;
  declineCode: string | null;
  redirectUrl: string | null;
  cardBrand: string | null;
}

export type SubscriptionChargeReason =
  | 'first_charge'
  | 'renewal'
  | 'trial_conversion'
  | 'dunning_retry'
  | 'switch'
  /** The customer pays a failed renewal from the portal (on-session, customer-initiated). */
  | 'on_session_recovery';

export interface SubscriptionChargeInput {
  subscriptionId: string;
  accountId: string;
  mode: 'test' | 'live';
  storeId: string;
  customerId: string;
  paymentMethodId: string;
  amount: number;
  currency: string;
  reason: SubscriptionChargeReason;
  /** Idempotency: one key per (subscription, cycle, attempt) so a retried activity never charges twice. */
  chargeKey: string;
  /** Customer present (switch from the portal) or merchant-initiated (renewals). */
  initiatedBy: 'customer' | 'merchant';
}

/** A renewal's payment: the child workflow's input, or a decline decided before any payment exists. */
export type RenewalPaymentPlan =
  | { kind: 'start'; payment: PaymentWorkflowInput; cardBrand: string | null }
  | { kind: 'declined'; result: SubscriptionChargeResult };
