import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { databaseStep } from '../shared/activityOptions';
import type { ThreeDsValues } from '../../src/processors/types';
import type { PaymentThreeDsInput } from '../../src/threeds/workflowTypes';
import { authenticateDurably } from '../threeds/authentication';

/**
 * The 3-D Secure step of the payment workflow (between block rules and routing). A state, never
 * an exception: a stored session is used or declines the payment before any processor is called;
 * with no session, when the flow and a processor ask for 3DS, the payment authenticates itself and
 * on a challenge answers the API early (`hooks.requiresAction`) and waits, at most 15 minutes, for
 * the cardholder. A merchant-initiated payment (a renewal on the card on file) authenticates with
 * a 3RI merchant session instead: no browser, no challenge. The result is computed once, so every
 * cascade attempt reuses it: the cardholder is never challenged twice.
 */
export type ThreeDsStepResult =
  { kind: 'proceed'; values?: ThreeDsValues } | { kind: 'declined'; code: string; message: string };

/** The planning activity's input (declared in src beside the activity's own types). */
export type ThreeDsStepInput = PaymentThreeDsInput;

export interface ThreeDsStepHooks {
  /** Answers the waiting API call with `requires_action` and this redirect URL; the workflow goes on waiting. */
  requiresAction(redirectUrl: string): void;
}

const { planPaymentThreeDs } = proxyActivities<Activities>(databaseStep);

export async function runThreeDsStep(input: ThreeDsStepInput, hooks: ThreeDsStepHooks): Promise<ThreeDsStepResult> {
  if (!input.threedsSessionId) {
    // Most payments carry no session and ask for no 3DS: decided here, without an activity round trip
    // (a strict subset of planThreeDs's `skip`).
    const nobodyAsks = !input.flowThreeDsEnabled || !input.processors.some((processor) => processor.enable3DS);
    if (nobodyAsks) return { kind: 'proceed' };
  }
  const plan = await planPaymentThreeDs(input);
  switch (plan.kind) {
    case 'skip':
      return { kind: 'proceed' };
    case 'declined':
      return plan;
    case 'use':
      return plan.values ? { kind: 'proceed', values: plan.values } : { kind: 'proceed' };
    case 'authenticate': {
      const final = await authenticateDurably(
        {
          sessionId: plan.sessionId,
          workflowId: input.paymentId,
          returnBaseUrl: input.returnBaseUrl ?? null,
          amount: input.amount,
          currency: input.currency,
          deviceChannel: plan.deviceChannel ?? 'browser',
        },
        // 3RI never challenges (the activity fails a session whose server asks for one): nobody to redirect.
        (challenge) => {
          if (plan.deviceChannel !== '3ri') hooks.requiresAction(challenge.challengeUrl);
        },
      );
      if (final.status === 'authenticated' && final.values) return { kind: 'proceed', values: final.values };
      if (final.failureReason === 'challenge_timeout') {
        return {
          kind: 'declined',
          code: 'threeds_challenge_timeout',
          message: 'The 3-D Secure challenge was not completed in time',
        };
      }
      return {
        kind: 'declined',
        code: 'threeds_authentication_failed',
        message: `3-D Secure authentication failed (transStatus ${final.transStatus ?? 'unknown'})`,
      };
    }
  }
}
