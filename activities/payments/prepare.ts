import { Context } from '@temporalio/activity';
import { checkBlockRules, markRequiresAction, preparePayment } from '../../src/payments/prepare';
import type { PaymentWorkflowInput, PrepareResult } from '../../src/payments/workflowTypes';
import type { ActivityDeps } from '../deps';

/** The run of the workflow this activity runs for; null when called outside a worker (the bench's steps-only row). */
function workflowRunId(): string | null {
  try {
    return Context.current().info.workflowExecution?.runId ?? null;
  } catch {
    return null;
  }
}

/** The payment's first steps; each is safe to repeat (src/payments/prepare.ts says how). */
export function createPaymentPrepareActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    /** Validates the request, claims the checkout session and writes the payment row; answers what routing needs. */
    async preparePayment(input: PaymentWorkflowInput): Promise<PrepareResult> {
      return preparePayment(db, input, workflowRunId());
    },

    /** The account's block rules against the payment's signals (IP, e-mail, card BIN and country). */
    async checkBlockRules(input: { paymentId: string; accountId: string; mode: 'test' | 'live' }) {
      return checkBlockRules(db, deps.config, input);
    },

    /** A 3DS challenge is waiting for the customer: the payment row shows it (GET answers requires_action). */
    async markRequiresAction(input: { paymentId: string; redirectUrl: string }): Promise<void> {
      return markRequiresAction(db, input);
    },
  };
}
