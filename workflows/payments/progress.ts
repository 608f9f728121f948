import {
  allHandlersFinished,
  condition,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { paymentLocalStep } from '../shared/activityOptions';
import type {
  PaymentOutcome,
  PaymentSearchStatus,
  PaymentStateView,
  PaymentStatus,
  PaymentWorkflowInput,
} from '../../src/payments/workflowTypes';
import { searchAttributes } from '../../temporal/searchAttributes';
import { awaitOutcomeUpdate, paymentStateQuery } from './messages';

const { markRequiresAction } = proxyLocalActivities<Activities>(paymentLocalStep);

/**
 * What the outside sees of a running payment: its step and status (the state query, the
 * `PaymentStatus` search attribute) and, once known, the outcome the API waits for on `awaitOutcome`.
 * Created first thing, so no query or update finds the handlers missing.
 */
export class PaymentProgress {
  readonly state: PaymentStateView = { step: 'validating', status: 'processing', attempts: [], routeOrder: [] };
  private outcome: PaymentOutcome | undefined;
  private readonly tracksStatus: boolean;

  constructor(private readonly input: PaymentWorkflowInput) {
    setHandler(paymentStateQuery, () => this.state);
    setHandler(awaitOutcomeUpdate, async ({ waitMs }) => {
      await condition(() => this.outcome !== undefined, Math.max(0, waitMs));
      return this.outcome ?? paymentOutcome(input, 'processing');
    });
    this.tracksStatus = workflowInfo().typedSearchAttributes.get(searchAttributes.PaymentStatus) !== undefined;
  }

  setStatus(status: PaymentSearchStatus): void {
    this.state.status = status;
    if (this.tracksStatus) upsertSearchAttributes([{ key: searchAttributes.PaymentStatus, value: status }]);
  }

  /** Answers the API; the payment may still have work to do (dispatching its events) before it ends. */
  answer(outcome: PaymentOutcome, status: PaymentSearchStatus): void {
    this.setStatus(status);
    this.outcome = outcome;
    this.state.step = 'done';
  }

  /** The last thing before returning: an update still being answered finishes first. */
  async ended(): Promise<PaymentOutcome> {
    await condition(allHandlersFinished);
    return this.outcome!;
  }

  /**
   * The API is answered `requires_action` while the shopper authenticates (engine-run 3DS challenge
   * or the processor's own page); later polls wait for the real result again (`resumed`).
   */
  awaitingShopper(redirectUrl: string): Promise<void> {
    this.outcome = { ...paymentOutcome(this.input, 'requires_action'), redirectUrl };
    this.setStatus('requires_action');
    return markRequiresAction({ paymentId: this.input.paymentId, redirectUrl });
  }

  resumed(): void {
    this.outcome = undefined;
    this.setStatus('processing');
  }
}

export function paymentOutcome(
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
