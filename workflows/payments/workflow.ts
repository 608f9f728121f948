import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { dispatch, paymentLocalStep } from '../shared/activityOptions';
import { planRoute, requiredCapabilities } from '../../src/domain/routing';
import { declineCategoryOf } from '../../src/processors/declineCodes';
import {
  blockedByRuleCode,
  chargeOf,
  noProcessorCode,
  outcomeUnknownCode,
  type AttemptRecord,
  type FinalizeInput,
  type PaymentOutcome,
  type PaymentSearchStatus,
  type PaymentStateView,
  type PaymentStatus,
  type PaymentWorkflowInput,
} from '../../src/payments/workflowTypes';
import { searchAttributes } from '../../temporal/searchAttributes';
import { runAttempts, type StepUpHooks } from './attempts';
import { defaultAuthenticationTimeoutMinutes } from './stepUp';
import { awaitOutcomeUpdate, paymentStateQuery } from './messages';
import { runThreeDsStep } from './threeDs';
import { deterministicFraction } from '../shared/random';

export { awaitOutcomeUpdate, paymentStateQuery } from './messages';

// Short, idempotent database steps run as local activities: no round trip through the server per
// step (the payment answers faster); their results are still recorded in the history.
const { preparePayment, checkBlockRules, finalizePayment, markRequiresAction } =
  proxyLocalActivities<Activities>(paymentLocalStep);
const { dispatchEvents } = proxyActivities<Activities>(dispatch);

/**
 * One payment (workflow id = payment id): validate → block rules → 3-D Secure → route →
 * one attempt per processor → record payment, order and events in one transaction → dispatch.
 * A free checkout session (amount 0) goes from block rules straight to recording.
 * The API waits on `awaitOutcome` (update-with-start) for the answer.
 */
export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<PaymentOutcome> {
  const state: PaymentStateView = { step: 'validating', status: 'processing', attempts: [], routeOrder: [] };
  let outcome: PaymentOutcome | undefined;

  setHandler(paymentStateQuery, () => state);
  setHandler(awaitOutcomeUpdate, async ({ waitMs }) => {
    await condition(() => outcome !== undefined, Math.max(0, waitMs));
    return outcome ?? paymentOutcome(input, 'processing');
  });
  const tracksStatus = workflowInfo().typedSearchAttributes.get(searchAttributes.PaymentStatus) !== undefined;
  const setStatus = (status: PaymentSearchStatus) => {
    state.status = status;
    if (tracksStatus) upsertSearchAttributes([{ key: searchAttributes.PaymentStatus, value: status }]);
  };

  const prepared = await preparePayment(input);
  if (prepared.kind === 'rejected') {
    outcome = prepared;
    setStatus('rejected');
    state.step = 'done';
    await condition(allHandlersFinished);
    return outcome;
  }

  async function finish(final: Omit<FinalizeInput, 'paymentId'>): Promise<PaymentOutcome> {
    state.step = 'recording';
    const recorded = await finalizePayment({ paymentId: input.paymentId, ...final });
    setStatus(final.review ? 'needs_review' : final.status);
    outcome = {
      ...paymentOutcome(input, final.status),
      declineCode: final.declineCode,
      declineMessage: final.declineMessage,
      order: recorded.order,
    };
    state.step = 'done';
    if (recorded.eventIds.length > 0) await dispatchEvents(recorded.eventIds);
    await condition(allHandlersFinished);
    return outcome;
  }
  const failed = (
    code: string,
    message: string,
    processorId: string | null = null,
    review: FinalizeInput['review'] = null,
  ) =>
    finish({
      status: 'failed',
      processorId,
      processorReference: null,
      captured: false,
      declineCode: code,
      declineCategory: declineCategoryOf(code),
      declineMessage: message,
      review,
    });

  state.step = 'block_rules';
  // Prepare's read tells whether any rule is enabled; most accounts have none. The recorded
  // prepare result decides on replay too, so a history from before the flag still runs the check.
  const block = prepared.noBlockRules
    ? { blocked: false as const }
    : await checkBlockRules({ paymentId: input.paymentId, accountId: input.accountId, mode: input.mode });
  if (block.blocked) {
    return finish({
      status: 'failed',
      processorId: null,
      processorReference: null,
      captured: false,
      declineCode: blockedByRuleCode,
      declineCategory: declineCategoryOf(blockedByRuleCode),
      declineMessage: `Blocked by rule ${block.ruleName}`,
      blockedByRuleId: block.ruleId,
    });
  }

  if (prepared.kind === 'free') {
    // Nothing to charge (a discount took the whole total): no 3DS, no processor; the same recording
    // step pays the session, writes its order and events, exactly once under the session's claim.
    return finish({
      status: 'succeeded',
      processorId: null,
      processorReference: null,
      captured: true,
      declineCode: null,
      declineCategory: null,
      declineMessage: null,
    });
  }
  const { context } = prepared;
  const charge = chargeOf(input);
  // preparePayment already refused a payment of more than 0 without a card or a flow.
  if (!charge)
    throw ApplicationFailure.nonRetryable(
      'a payment of more than 0 names no card or no payment flow',
      'InvalidPaymentInput',
    );

  // The API is answered `requires_action` while the shopper authenticates (engine-run 3DS challenge
  // or the processor's own page); later polls wait for the real result again.
  const awaitingShopper = (redirectUrl: string) => {
    outcome = { ...paymentOutcome(input, 'requires_action'), redirectUrl };
    setStatus('requires_action');
    return markRequiresAction({ paymentId: input.paymentId, redirectUrl });
  };
  const resumed = () => {
    outcome = undefined;
    setStatus('processing');
  };

  state.step = 'three_ds';
  const pendingWrites: Promise<void>[] = [];
  const threeDs = await runThreeDsStep(
    {
      paymentId: input.paymentId,
      accountId: input.accountId,
      mode: input.mode,
      storeId: input.storeId,
      customerId: input.customerId,
      paymentInstrumentId: charge.paymentInstrumentId,
      threedsSessionId: input.threedsSessionId,
      initiatedBy: input.initiatedBy,
      flowThreeDsEnabled: context.flow.threeDsEnabled,
      processors: context.processors.map(({ id, enable3DS, type }) => ({ id, enable3DS, type })),
      amount: input.amount,
      currency: input.currency,
      returnBaseUrl: input.returnBaseUrl ?? null,
    },
    {
      requiresAction(redirectUrl) {
        pendingWrites.push(awaitingShopper(redirectUrl));
      },
    },
  );
  await Promise.all(pendingWrites);
  if (threeDs.kind === 'declined') return failed(threeDs.code, threeDs.message);
  if (state.status === 'requires_action') resumed();

  state.step = 'routing';
  const plan = planRoute({
    flow: context.flow,
    processors: context.processors,
    currency: input.currency,
    stickyProcessorId: context.stickyProcessorId,
    random: deterministicFraction(),
    requiredCapabilities: requiredCapabilities(input.intent),
  });
  state.routeOrder = plan.order;
  if (plan.order.length === 0)
    return failed(
      noProcessorCode,
      `No enabled processor of the flow takes ${input.currency} payments with intent ${input.intent}`,
    );

  state.step = 'authorizing';
  const onAttempt = (attempt: AttemptRecord) => {
    state.attempts.push(attempt);
  };
  // Only a payment with a shopper present can send them to the processor's authentication page.
  const stepUp: StepUpHooks | undefined =
    input.initiatedBy === 'customer'
      ? {
          timeoutMinutes: context.flow.authenticationTimeoutMinutes ?? defaultAuthenticationTimeoutMinutes,
          awaitingShopper: (start, attemptNumber) => {
            state.step = 'authenticating';
            state.stepUp = { attemptNumber, action: start.action };
            return awaitingShopper(start.redirectUrl);
          },
          resumed: () => {
            state.step = 'authorizing';
            state.stepUp = null;
            resumed();
          },
        }
      : undefined;
  const attempts = await runAttempts(charge, context.flow, plan.order, threeDs.values, onAttempt, stepUp);
  if (attempts.approved) {
    const approved = attempts.approved;
    return finish({
      status: input.intent === 'auth' ? 'authorized' : 'succeeded',
      processorId: approved.processorId,
      processorReference: approved.processorReference,
      captured: approved.captured,
      declineCode: null,
      declineCategory: null,
      declineMessage: null,
      dispute: approved.dispute,
    });
  }
  const last = attempts.lastFailure!;
  if (attempts.unresolved) {
    const { processorId, attemptNumber } = attempts.unresolved;
    const review = { reason: 'reversal_unconfirmed' as const, processorId, attemptNumber };
    return failed(
      outcomeUnknownCode,
      'The processor never answered and its reversal was not confirmed; the payment needs review',
      processorId,
      review,
    );
  }
  const code = last.outcome === 'requires_3ds' ? 'authentication_required' : (last.errorCode ?? 'processor_error');
  return failed(code, last.message ?? 'The payment was declined', last.processorId);
}

function paymentOutcome(
  input: PaymentWorkflowInput,
  status: PaymentStatus,
): Extract<PaymentOutcome, { kind: 'payment' }> {
  return {
    kind: 'payment',
    paymentId: input.paymentId,
    status,
    amount: input.amount,
    currency: input.currency,
    declineCode: null,
    declineMessage: null,
    redirectUrl: null,
    order: null,
  };
}
