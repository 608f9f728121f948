import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { SubscriptionChargeInput, SubscriptionChargeResult, SubscriptionState } from '../../src/domain/billingState';

export const day = 24 * 3600 * 1000;

/** A subscription state for workflow tests; override what a test cares about. */
export function subscriptionState(overrides: Partial<SubscriptionState> = {}): SubscriptionState {
  const now = overrides.startedAtMs ?? Date.parse('2027-01-01T00:00:00.000Z');
  return {
    subscriptionId: `sub_wf${Math.random().toString(36).slice(2, 12)}`,
    accountId: 'acc_test',
    mode: 'test',
    storeId: 'store_test',
    customerId: 'cus_test',
    status: 'active',
    productId: 'prod_basic',
    variantId: 'var_basic',
    optionId: 'price_basic',
    currency: 'USD',
    quantity: 1,
    price: 1000,
    interval: 'month',
    intervalCount: 1,
    anchorAtMs: now,
    cycle: 0,
    startedAtMs: now,
    trialEndsAtMs: null,
    pausedUntilMs: null,
    canceledAtMs: null,
    cancelAtPeriodEnd: false,
    cancelReasonId: null,
    skippedDatesMs: [],
    lastPaymentFailedAtMs: null,
    paymentMethodId: 'pi_card1',
    paidOrdersCount: 0,
    dunning: null,
    chargesThisRun: 0,
    run: 1,
    ...overrides,
  };
}

export interface RecordedCharge {
  input: SubscriptionChargeInput;
  atMs: number;
  result: SubscriptionChargeResult;
}

/**
 * Mocked activities (time-skipping tests only): the clock is the test server's (skipped) time,
 * charges follow a script of outcomes, and every write is recorded for assertions.
 */
export function mockSubscriptionActivities(env: TestWorkflowEnvironment, outcomes: (charge: SubscriptionChargeInput, index: number) => 'paid' | 'declined' | 'hard_decline' | 'requires_action' = () => 'paid') {
  const charges: RecordedCharge[] = [];
  const orders: { orderId: string; amount: number; reason: string; atMs: number; state: SubscriptionState; properties: Record<string, unknown> }[] = [];
  const events: { eventType: string; atMs: number; state: SubscriptionState; properties: Record<string, unknown> }[] = [];
  const reattempts: number[] = [];
  const clock = async () => Number(await env.currentTimeMs());
  const activities = {
    readClock: clock,
    async chargeSubscription(input: SubscriptionChargeInput): Promise<SubscriptionChargeResult> {
      const outcome = outcomes(input, charges.length);
      const result: SubscriptionChargeResult = {
        status: outcome === 'hard_decline' ? 'declined' : outcome,
        paymentId: outcome === 'paid' ? `pay_${charges.length}` : null,
        hardDecline: outcome === 'hard_decline',
        declineCode: outcome === 'paid' || outcome === 'requires_action' ? null : 'card_declined',
        redirectUrl: outcome === 'requires_action' ? 'https://acs.example/challenge' : null,
        cardBrand: 'visa',
      };
      charges.push({ input, atMs: await clock(), result });
      return result;
    },
    async recordSubscriptionCharge(input: { state: SubscriptionState; amount: number; reason: string; eventType: string; properties: Record<string, unknown> }) {
      const orderId = `ord_${orders.length + 1}`;
      const atMs = await clock();
      orders.push({ orderId, amount: input.amount, reason: input.reason, atMs, state: input.state, properties: input.properties });
      events.push({ eventType: input.eventType, atMs, state: input.state, properties: input.properties });
      return { orderId };
    },
    async saveSubscriptionState(input: { state: SubscriptionState; eventType: string | null; properties: Record<string, unknown> }) {
      if (input.eventType) events.push({ eventType: input.eventType, atMs: await clock(), state: input.state, properties: input.properties });
    },
    async reserveCardReattempt(input: { atMs: number }) {
      reattempts.push(input.atMs);
      return { allowed: true };
    },
  };
  return { activities, charges, orders, events, reattempts };
}
