import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { Activities } from '../../../activities';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { subscriptionWorkflow } from '../../../workflows/subscriptions/subscription';
import type { SwitchRequest } from '../../../workflows/subscriptions/messages';
import type {
  RenewalPaymentPlan,
  SubscriptionChargeInput,
  SubscriptionChargeResult,
  SubscriptionState,
} from '../../../src/domain/billingState';
import type { RetryDecision } from '../../../src/domain/billingRetry';
import { cascadeFlow, mockPaymentActivities, paymentInput, type MockAnswer } from '../payments/paymentMocks';

export const day = 24 * 3600 * 1000;

/** A promise the test opens when it wants a held activity to go on. */
export function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The failure type an update ended with (validator refusal or handler failure), or 'completed'. */
export async function outcomeOf(result: Promise<unknown>): Promise<string> {
  return result.then(
    () => 'completed',
    (error: unknown) =>
      error instanceof WorkflowUpdateFailedError
        ? ((error.cause as { type?: string } | undefined)?.type ?? 'failed')
        : 'other',
  );
}

/** A switch to a 3000-a-month option (`price_pro` unless named) at `atMs`. */
export function switchRequest(optionId: string, atMs: number): SwitchRequest {
  return {
    optionId,
    productId: 'prod_pro',
    variantId: 'var_pro',
    price: 3000,
    currency: 'USD',
    interval: 'month',
    intervalCount: 1,
    atMs,
  };
}

/** Starts the subscription workflow for `state` (workflow id = subscription id). */
export function startSubscription(env: TestWorkflowEnvironment, taskQueue: string, state: SubscriptionState) {
  return env.client.workflow.start(subscriptionWorkflow, {
    workflowId: state.subscriptionId,
    taskQueue,
    args: [{ state }],
  });
}

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

export type ChargeOutcome = 'paid' | 'declined' | 'hard_decline' | 'requires_action';

export interface RecordedCharge {
  input: SubscriptionChargeInput;
  atMs: number;
  result: SubscriptionChargeResult;
}

export interface SubscriptionMockOptions {
  /** The card budget's answer to each dunning reattempt (default: allowed). */
  reattempt?: (index: number) => RetryDecision;
  /** How a payment left waiting for its 3DS challenge (a switch) ends; resolve it when the test says so. */
  challengeResult?: (paymentId: string) => Promise<'paid' | 'declined'>;
}

/** What the mocked processor answers for a scripted outcome (a renewal has nobody to challenge: a soft decline). */
const processorAnswers: Record<ChargeOutcome, MockAnswer> = {
  paid: 'approve',
  declined: 'soft',
  hard_decline: 'hard',
  requires_action: 'soft',
};

function scriptedResult(outcome: ChargeOutcome, paymentId: string): SubscriptionChargeResult {
  return {
    status: outcome === 'hard_decline' ? 'declined' : outcome,
    paymentId: outcome === 'declined' || outcome === 'hard_decline' ? null : paymentId,
    hardDecline: outcome === 'hard_decline',
    declineCode: outcome === 'paid' || outcome === 'requires_action' ? null : 'card_declined',
    redirectUrl: outcome === 'requires_action' ? 'https://acs.example/challenge' : null,
    cardBrand: 'visa',
  };
}

/**
 * Mocked activities (time-skipping tests only): the clock is the test server's (skipped) time,
 * charges follow a script of outcomes, and every write is recorded for assertions. Renewals run the
 * real payment workflow as a child, against mocked payment activities whose one processor answers
 * the script; a switch's charge is the mocked `chargeSubscription` activity.
 */
export function mockSubscriptionActivities(
  env: TestWorkflowEnvironment,
  outcomes: (charge: SubscriptionChargeInput, index: number) => ChargeOutcome = () => 'paid',
  options: SubscriptionMockOptions = {},
) {
  const charges: RecordedCharge[] = [];
  const orders: {
    orderId: string;
    amount: number;
    reason: string;
    atMs: number;
    state: SubscriptionState;
    properties: Record<string, unknown>;
  }[] = [];
  const events: { eventType: string; atMs: number; state: SubscriptionState; properties: Record<string, unknown> }[] =
    [];
  const reattempts: number[] = [];
  const awaited: string[] = [];
  const renewalOutcomes: ChargeOutcome[] = [];
  const clock = async () => Number(await env.currentTimeMs());
  /** The card on the mocked subscription row (the portal's write); null: no row, the signalled card is taken. */
  const row: { card: string | null } = { card: null };
  const payments = mockPaymentActivities({
    flow: cascadeFlow(['proc_sub']),
    answers: { proc_sub: (call) => processorAnswers[renewalOutcomes[call - 1] ?? 'paid'] },
  });

  async function script(input: SubscriptionChargeInput, paymentId: string): Promise<ChargeOutcome> {
    const outcome = outcomes(input, charges.length);
    charges.push({ input, atMs: await clock(), result: scriptedResult(outcome, paymentId) });
    return outcome;
  }

  const activities = {
    ...payments.activities,
    readClock: clock,
    async readSubscriptionCard() {
      return row.card;
    },
    async prepareRenewalPayment(input: SubscriptionChargeInput): Promise<RenewalPaymentPlan> {
      const paymentId = `pay_${input.chargeKey.replace(/[^A-Za-z0-9]/g, '_')}`;
      renewalOutcomes.push(await script(input, paymentId));
      return {
        kind: 'start',
        payment: paymentInput({
          paymentId,
          accountId: input.accountId,
          storeId: input.storeId,
          customerId: input.customerId,
          amount: input.amount,
          currency: input.currency,
          initiatedBy: input.initiatedBy,
          paymentInstrumentId: input.paymentMethodId,
          source: null,
        }),
        cardBrand: 'visa',
      };
    },
    async chargeSubscription(input: SubscriptionChargeInput): Promise<SubscriptionChargeResult> {
      const paymentId = `pay_${charges.length}`;
      return scriptedResult(await script(input, paymentId), paymentId);
    },
    async awaitSubscriptionPayment(input: {
      paymentId: string;
      cardBrand: string | null;
    }): Promise<SubscriptionChargeResult> {
      awaited.push(input.paymentId);
      const ended = options.challengeResult ? await options.challengeResult(input.paymentId) : 'paid';
      return {
        ...scriptedResult(ended, input.paymentId),
        paymentId: input.paymentId,
        declineCode: ended === 'declined' ? 'threeds_authentication_failed' : null,
      };
    },
    async recordSubscriptionCharge(input: {
      state: SubscriptionState;
      amount: number;
      reason: string;
      eventType: string;
      properties: Record<string, unknown>;
    }) {
      const orderId = `ord_${orders.length + 1}`;
      const atMs = await clock();
      orders.push({
        orderId,
        amount: input.amount,
        reason: input.reason,
        atMs,
        state: input.state,
        properties: input.properties,
      });
      events.push({ eventType: input.eventType, atMs, state: input.state, properties: input.properties });
      return { orderId };
    },
    async saveSubscriptionState(input: {
      state: SubscriptionState;
      eventType: string | null;
      properties: Record<string, unknown>;
    }) {
      if (input.eventType)
        events.push({
          eventType: input.eventType,
          atMs: await clock(),
          state: input.state,
          properties: input.properties,
        });
    },
    async reserveCardReattempt(input: { atMs: number }): Promise<RetryDecision> {
      reattempts.push(input.atMs);
      return options.reattempt?.(reattempts.length - 1) ?? { allowed: true };
    },
  } satisfies Partial<Activities>;
  return { activities, charges, orders, events, reattempts, awaited, payments, row };
}

/**
 * Mocks whose renewal charge (prepareRenewalPayment) and switch charge (chargeSubscription) wait
 * until the test opens `held`; `started` lists the reason of each charge that began.
 */
export function heldCharges(env: TestWorkflowEnvironment) {
  const mocks = mockSubscriptionActivities(env);
  const held = gate();
  const started: string[] = [];
  const activities: Partial<Activities> = {
    ...mocks.activities,
    async prepareRenewalPayment(input: SubscriptionChargeInput) {
      started.push(input.reason);
      await held.opened;
      return mocks.activities.prepareRenewalPayment(input);
    },
    async chargeSubscription(input: SubscriptionChargeInput): Promise<SubscriptionChargeResult> {
      started.push(input.reason);
      await held.opened;
      return mocks.activities.chargeSubscription(input);
    },
  };
  return { mocks, held, started, activities };
}
