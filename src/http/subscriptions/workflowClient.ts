import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { searchAttributes } from '../../../temporal/searchAttributes';
import type { SubscriptionState } from '../../domain/billingState';
import { badRequest, conflict } from '../core/errors';

/** Starts the subscription's workflow (workflow id = subscription id). */
export async function startSubscriptionWorkflow(temporal: Client, taskQueue: string, state: SubscriptionState): Promise<void> {
  await temporal.workflow.start('subscriptionWorkflow', {
    workflowId: state.subscriptionId,
    taskQueue,
    args: [{ state }],
    typedSearchAttributes: [
      { key: searchAttributes.AccountId, value: state.accountId },
      { key: searchAttributes.StoreId, value: state.storeId },
      { key: searchAttributes.CustomerId, value: state.customerId },
    ],
  });
}

/**
 * Runs an update on a subscription workflow and turns its refusals into API errors: a move the
 * transition table forbids is 409, a bad request is 400, a finished workflow is 409.
 */
export async function runSubscriptionUpdate<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
      if (error.cause.type === 'SubscriptionTransitionError') throw conflict(error.cause.message, 'INVALID_SUBSCRIPTION_TRANSITION');
      if (error.cause.type === 'SubscriptionBusyError') throw conflict(error.cause.message, 'SUBSCRIPTION_BUSY');
      if (error.cause.type === 'InvalidRequest') throw badRequest(error.cause.message);
    }
    if (error instanceof WorkflowNotFoundError || (error as { name?: string }).name === 'WorkflowNotFoundError') {
      throw conflict('This subscription is no longer running', 'SUBSCRIPTION_NOT_RUNNING');
    }
    throw error;
  }
}
