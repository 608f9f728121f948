import { ApplicationFailure, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { paymentLocalStep } from '../shared/activityOptions';
import { planRoute, requiredCapabilities } from '../../src/domain/routing';
import {
  chargeOf,
  type AttemptRecord,
  noProcessorCode,
  type ChargeInput,
  type PaymentOutcome,
  type PaymentWorkflowInput,
  type PaymentContext,
} from '../../src/payments/workflowTypes';
import { runAttempts, type StepUpHooks } from './attempts';
import { defaultAuthenticationTimeoutMinutes } from './stepUp';
import { PaymentProgress } from './progress';
import { blockedPayment, failedPayment, finalOfAttempts, freePayment, recordPayment } from './recording';
import { runThreeDsStep, type ThreeDsStepResult } from './threeDs';
import { deterministicFraction } from '../shared/random';

export { awaitOutcomeUpdate, paymentStateQuery } from './messages';

// Short, idempotent database steps run as local activities: no round trip through the server per
// step (the payment answers faster); their results are still recorded in the history.
const { preparePayment, checkBlockRules } = proxyLocalActivities<Activities>(paymentLocalStep);

/**
 * One payment (workflow id = payment id): validate → block rules → 3-D Secure → route →
 * one attempt per processor → record payment, order and events in one transaction → dispatch.
 * A free checkout session (amount 0) goes from block rules straight to recording.
 * The API waits on `awaitOutcome` (update-with-start) for the answer.
 */
export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<PaymentOutcome> {
  const progress = new PaymentProgress(input);

  const prepared = await preparePayment(input);
  if (prepared.kind === 'rejected') {
    progress.answer(prepared, 'rejected');
    return progress.ended();
  }

  progress.state.step = 'block_rules';
  // Prepare's read tells whether any rule is enabled; most accounts have none. The recorded
  // prepare result decides on replay too, so a history from before the flag still runs the check.
  const block = prepared.noBlockRules
    ? { blocked: false as const }
    : await checkBlockRules({ paymentId: input.paymentId, accountId: input.accountId, mode: input.mode });
  if (block.blocked) return recordPayment(progress, input, blockedPayment(block));
  if (prepared.kind === 'free') return recordPayment(progress, input, freePayment);

  const { context } = prepared;
  const charge = chargeOf(input);
  // preparePayment already refused a payment of more than 0 without a card or a flow.
  if (!charge)
    throw ApplicationFailure.nonRetryable(
      'a payment of more than 0 names no card or no payment flow',
      'InvalidPaymentInput',
    );

  progress.state.step = 'three_ds';
  const threeDs = await authenticate(progress, charge, context);
  if (threeDs.kind === 'declined') return recordPayment(progress, input, failedPayment(threeDs.code, threeDs.message));
  if (progress.state.status === 'requires_action') progress.resumed();

  progress.state.step = 'routing';
  const plan = planRoute({
    flow: context.flow,
    processors: context.processors,
    currency: input.currency,
    stickyProcessorId: context.stickyProcessorId,
    random: deterministicFraction(),
    requiredCapabilities: requiredCapabilities(input.intent),
  });
  progress.state.routeOrder = plan.order;
  if (plan.order.length === 0) {
    const message = `No enabled processor of the flow takes ${input.currency} payments with intent ${input.intent}`;
    return recordPayment(progress, input, failedPayment(noProcessorCode, message));
  }

  progress.state.step = 'authorizing';
  const onAttempt = (attempt: AttemptRecord) => {
    progress.state.attempts.push(attempt);
  };
  const stepUp = stepUpHooksOf(progress, input, context.flow);
  const attempts = await runAttempts(charge, context.flow, plan.order, threeDs.values, onAttempt, stepUp);
  return recordPayment(progress, input, finalOfAttempts(input, attempts));
}

/** The 3-D Secure step; a challenge answers the API `requires_action` before it waits for the shopper. */
async function authenticate(
  progress: PaymentProgress,
  charge: ChargeInput,
  context: PaymentContext,
): Promise<ThreeDsStepResult> {
  const pendingWrites: Promise<void>[] = [];
  const threeDs = await runThreeDsStep(
    {
      paymentId: charge.paymentId,
      accountId: charge.accountId,
      mode: charge.mode,
      storeId: charge.storeId,
      customerId: charge.customerId,
      paymentInstrumentId: charge.paymentInstrumentId,
      threedsSessionId: charge.threedsSessionId,
      initiatedBy: charge.initiatedBy,
      flowThreeDsEnabled: context.flow.threeDsEnabled,
      processors: context.processors.map(({ id, enable3DS, type }) => ({ id, enable3DS, type })),
      amount: charge.amount,
      currency: charge.currency,
      returnBaseUrl: charge.returnBaseUrl ?? null,
    },
    {
      requiresAction(redirectUrl) {
        pendingWrites.push(progress.awaitingShopper(redirectUrl));
      },
    },
  );
  await Promise.all(pendingWrites);
  return threeDs;
}

/** Only a payment with a shopper present can send them to the processor's authentication page. */
function stepUpHooksOf(
  progress: PaymentProgress,
  input: PaymentWorkflowInput,
  flow: PaymentContext['flow'],
): StepUpHooks | undefined {
  if (input.initiatedBy !== 'customer') return undefined;
  return {
    timeoutMinutes: flow.authenticationTimeoutMinutes ?? defaultAuthenticationTimeoutMinutes,
    awaitingShopper: (start, attemptNumber) => {
      progress.state.step = 'authenticating';
      progress.state.stepUp = { attemptNumber, action: start.action };
      return progress.awaitingShopper(start.redirectUrl);
    },
    resumed: () => {
      progress.state.step = 'authorizing';
      progress.state.stepUp = null;
      progress.resumed();
    },
  };
}
