import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { searchAttributesFor } from '../../temporal/client';
import type { Scope } from '../commerce/scope';
import type { Db } from '../db/prisma';
import type { SubscriptionState } from '../domain/billingState';
import { conflict, invalid, type DomainError } from '../errors';
import { findSubscription } from './queries';
import { subscriptionFailureTypes } from '../../workflows/subscriptions/messages';

/** Starts the subscription's workflow (workflow id = subscription id). */
export async function startSubscriptionWorkflow(
  temporal: Client,
  taskQueue: string,
  state: SubscriptionState,
): Promise<void> {
  await temporal.workflow.start('subscriptionWorkflow', {
    workflowId: state.subscriptionId,
    taskQueue,
    args: [{ state }],
    typedSearchAttributes: searchAttributesFor({
      accountId: state.accountId,
      storeId: state.storeId,
      customerId: state.customerId,
    }),
  });
}

/** Each refusal of the subscription workflow (by its ApplicationFailure type) as the domain error it is. */
const refusals: Record<string, (message: string) => DomainError> = {
  [subscriptionFailureTypes.transition]: (message) => conflict(message, 'INVALID_SUBSCRIPTION_TRANSITION'),
  [subscriptionFailureTypes.busy]: (message) => conflict(message, 'SUBSCRIPTION_BUSY'),
  [subscriptionFailureTypes.sameOption]: (message) => conflict(message, 'SAME_OPTION'),
  [subscriptionFailureTypes.dateAlreadySkipped]: (message) => conflict(message, 'DATE_ALREADY_SKIPPED'),
  [subscriptionFailureTypes.invalidRequest]: (message) => invalid(message),
  [subscriptionFailureTypes.noScheduledCancel]: (message) => conflict(message, 'NO_SCHEDULED_CANCEL'),
  [subscriptionFailureTypes.nothingDue]: (message) => conflict(message, 'NOTHING_DUE'),
};

/**
 * Runs an update on a subscription workflow and turns its refusals (by validator or handler) into
 * domain errors by failure type; an update to a finished workflow is a conflict.
 */
export async function runSubscriptionUpdate<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
      const refusal = error.cause.type ? refusals[error.cause.type] : undefined;
      if (refusal) throw refusal(error.cause.message);
    }
    if (error instanceof WorkflowNotFoundError || (error as { name?: string }).name === 'WorkflowNotFoundError') {
      throw conflict('This subscription is no longer running', 'SUBSCRIPTION_NOT_RUNNING');
    }
    throw error;
  }
}

/**
 * Runs an update on one of the caller's subscriptions (not_found for anyone else's), then answers
 * the row the workflow wrote.
 */
export async function updateSubscription(
  deps: { db: Db; temporal: Client },
  scope: Scope,
  subscriptionId: string,
  update: (handle: WorkflowHandle) => Promise<unknown>,
) {
  await findSubscription(deps.db, scope, subscriptionId);
  await runSubscriptionUpdate(() => update(deps.temporal.workflow.getHandle(subscriptionId)));
  return findSubscription(deps.db, scope, subscriptionId);
}
