import type { Activities } from '../../../activities';
import { ApplicationFailure } from '@temporalio/common';
import type { RoutingFlow } from '../../../src/domain/routing';
import type {
  AttemptRecord,
  AuthorizeAttemptInput,
  AuthorizeAttemptResult,
  FinalizeInput,
  PaymentContext,
  PaymentWorkflowInput,
  PrepareResult,
  ReverseAttemptInput,
  ReverseAttemptResult,
} from '../../../src/payments/workflowTypes';

/**
 * What a mocked processor answers: approve, decline (hard/soft), refuse technically without
 * processing (`technical`, an outage), or never answer (`silent`: every try times out;
 * `charge_silently`: the same, but the processor did charge under the key).
 */
export type MockAnswer = 'approve' | 'hard' | 'soft' | 'technical' | 'silent' | 'charge_silently';

/** How a mocked processor takes a reversal by idempotency key. */
export type MockReversal = 'confirm' | 'unreachable' | 'refuse';

export const allCapabilities = ['externalThreeDs', 'capture:automatic', 'capture:manual'];

export interface MockLedgerEntry {
  idempotencyKey: string;
  processorId: string;
  amount: number;
}

let counter = 0;

export function paymentInput(overrides: Partial<PaymentWorkflowInput> = {}): PaymentWorkflowInput {
  counter += 1;
  return {
    paymentId: `pay_wftest${Date.now()}${counter}`,
    accountId: 'acc_test',
    mode: 'test',
    storeId: 'store_test',
    customerId: 'cus_test',
    paymentInstrumentId: 'pi_test',
    amount: 1999,
    currency: 'USD',
    intent: 'purchase',
    initiatedBy: 'customer',
    source: 'checkout',
    paymentFlowId: 'flow_test',
    ...overrides,
  };
}

export function cascadeFlow(processorIds: string[], overrides: Partial<RoutingFlow> = {}): PaymentContext['flow'] {
  return {
    id: 'flow_test',
    threeDsEnabled: false,
    strategy: 'cascade',
    stickyProcessorEnabled: false,
    pickProcessorStrategy: 'ordered',
    fallbackMode: true,
    maxFallbackRetries: processorIds.length - 1,
    processorConfigs: processorIds.map((processorId, i) => ({
      processorId,
      weight: i === 0 ? 100 : 0,
      disabled: false,
      nonStickable: false,
    })),
    fallbackProcessorConfigs: processorIds.slice(1).map((processorId, orderIndex) => ({ processorId, orderIndex })),
    ...overrides,
  };
}

/**
 * Mocked payment activities: processors answer from `answers` (per processor id, or a function of
 * the call count), a ledger keyed by idempotency key stands in for the acquirer's, and every
 * call is recorded for assertions.
 */
export function mockPaymentActivities(options: {
  flow: PaymentContext['flow'];
  answers: Record<string, MockAnswer | ((call: number) => MockAnswer | 'charge_then_timeout')>;
  stickyProcessorId?: string | null;
  blocked?: boolean;
  /** Prepare answers that the account has no enabled block rule (checkBlockRules is then not needed). */
  noBlockRules?: boolean;
  rejected?: boolean;
  /** Processors ask for 3DS (enable3DS); the 3DS step only runs when the flow and a processor ask. */
  processorsEnable3DS?: boolean;
  /** Per processor: how it takes a reversal (default confirm). */
  reversals?: Record<string, MockReversal>;
  /** Per processor: enabled flag and capabilities other than the defaults (enabled, every capability). */
  processors?: Record<string, { enabled?: boolean; capabilities?: string[] }>;
}) {
  const authorizeCalls: AuthorizeAttemptInput[] = [];
  const attempts = new Map<string, AttemptRecord>();
  const ledger = new Map<string, MockLedgerEntry>();
  const finalized: FinalizeInput[] = [];
  const dispatched: string[][] = [];
  const callsPerProcessor = new Map<string, number>();
  const reverseCalls: ReverseAttemptInput[] = [];
  /** Every processor call in order (`authorize proc_a#1`, `reverse proc_a#1`), to check what came before what. */
  const calls: string[] = [];
  let blockRuleChecks = 0;
  const noBlockRules = options.noBlockRules ? { noBlockRules: true as const } : {};

  const activities: Partial<Activities> = {
    async preparePayment(input: PaymentWorkflowInput): Promise<PrepareResult> {
      if (options.rejected)
        return {
          kind: 'rejected',
          error: { kind: 'not_found', code: 'NOT_FOUND', message: 'Payment instrument not found' },
        };
      // What the real activity answers for a validated payment of 0 (a free checkout session).
      if (input.amount === 0) return { kind: 'free', ...noBlockRules };
      const ids = options.flow.processorConfigs.map((c) => c.processorId);
      return {
        kind: 'ready',
        context: {
          flow: options.flow,
          processors: [...new Set([...ids, ...options.flow.fallbackProcessorConfigs.map((c) => c.processorId)])].map(
            (id) => ({
              id,
              type: 'sandbox',
              enabled: options.processors?.[id]?.enabled ?? true,
              enable3DS: options.processorsEnable3DS ?? false,
              supportedCurrencies: ['USD', 'EUR'],
              capabilities: options.processors?.[id]?.capabilities ?? allCapabilities,
            }),
          ),
          stickyProcessorId: options.stickyProcessorId ?? null,
        },
        ...noBlockRules,
      };
    },
    async checkBlockRules() {
      blockRuleChecks += 1;
      return options.blocked
        ? { blocked: true as const, ruleId: 'br_test', ruleName: 'block test' }
        : { blocked: false as const };
    },
    async markRequiresAction() {},
    /** The 3DS step's planner (workflows/payments/threeDs.ts): these payments carry no 3DS. */
    async planPaymentThreeDs() {
      return { kind: 'skip' as const };
    },
    async authorizeAttempt(input: AuthorizeAttemptInput): Promise<AuthorizeAttemptResult> {
      authorizeCalls.push(input);
      calls.push(`authorize ${input.processorId}#${input.attemptNumber}`);
      const call = (callsPerProcessor.get(input.processorId) ?? 0) + 1;
      callsPerProcessor.set(input.processorId, call);
      const configured = options.answers[input.processorId] ?? 'approve';
      const answer = typeof configured === 'function' ? configured(call) : configured;
      const key = `${input.paymentId}:${input.attemptNumber}`;
      const base = {
        attemptNumber: input.attemptNumber,
        processorId: input.processorId,
        processorReference: null,
        captured: false,
        dispute: null,
      };
      // No answer at all, not even a stored one: what the activity reports after a timeout.
      if (answer === 'silent' || answer === 'charge_silently') {
        if (answer === 'charge_silently')
          ledger.set(key, { idempotencyKey: key, processorId: input.processorId, amount: input.amount });
        throw ApplicationFailure.retryable('processor did not answer', 'ProcessorTechnicalError', {
          code: 'timeout',
          mayHaveCharged: true,
        });
      }
      // The acquirer's idempotency: a key it has seen answers the stored result, never charges again.
      if (ledger.has(key))
        return record({
          ...base,
          outcome: 'approved',
          errorCode: null,
          category: null,
          message: null,
          processorReference: `ref_${key}`,
          captured: input.capture,
        });
      switch (answer) {
        case 'technical':
          throw ApplicationFailure.retryable('processor unavailable', 'ProcessorTechnicalError', {
            code: 'processor_unavailable',
          });
        case 'charge_then_timeout':
          ledger.set(key, { idempotencyKey: key, processorId: input.processorId, amount: input.amount });
          throw ApplicationFailure.retryable('processor timed out', 'ProcessorTechnicalError', { code: 'timeout' });
        case 'hard':
          return record({
            ...base,
            outcome: 'declined',
            errorCode: 'card_declined',
            category: 'hard_decline',
            message: 'Card declined',
          });
        case 'soft':
          return record({
            ...base,
            outcome: 'declined',
            errorCode: 'do_not_honor',
            category: 'soft_decline',
            message: 'Do not honor',
          });
        case 'approve':
          ledger.set(key, { idempotencyKey: key, processorId: input.processorId, amount: input.amount });
          return record({
            ...base,
            outcome: 'approved',
            errorCode: null,
            category: null,
            message: null,
            processorReference: `ref_${key}`,
            captured: input.capture,
          });
      }
    },
    async reverseAttempt(input: ReverseAttemptInput): Promise<ReverseAttemptResult> {
      reverseCalls.push(input);
      calls.push(`reverse ${input.processorId}#${input.attemptNumber}`);
      const key = `${input.paymentId}:${input.attemptNumber}`;
      switch (options.reversals?.[input.processorId] ?? 'confirm') {
        case 'unreachable':
          throw ApplicationFailure.retryable('processor unavailable', 'ProcessorTechnicalError', {
            code: 'processor_unavailable',
          });
        case 'refuse':
          return { outcome: 'refused', code: 'currency_mismatch', message: 'The authorization is in another currency' };
        case 'confirm': {
          const charged = ledger.get(key);
          if (!charged) return { outcome: 'nothing_to_reverse' };
          ledger.delete(key);
          return { outcome: 'reversed', processorReference: `ref_${key}`, amount: charged.amount };
        }
      }
    },
    async recordAttempt(input: { paymentId: string; attempt: AttemptRecord }) {
      attempts.set(`${input.paymentId}:${input.attempt.attemptNumber}`, input.attempt);
    },
    async finalizePayment(input: FinalizeInput) {
      finalized.push(input);
      return { eventIds: ['evt_test'], order: null };
    },
    async dispatchEvents(eventIds: string[]) {
      dispatched.push(eventIds);
      return { started: 0 };
    },
  };

  function record(result: AuthorizeAttemptResult): AuthorizeAttemptResult {
    const { captured: _c, dispute: _d, ...row } = result;
    attempts.set(`${authorizeCalls[authorizeCalls.length - 1]!.paymentId}:${result.attemptNumber}`, row);
    return result;
  }

  return {
    activities,
    authorizeCalls,
    reverseCalls,
    calls,
    attempts,
    ledger,
    finalized,
    dispatched,
    blockRuleChecks: () => blockRuleChecks,
  };
}
