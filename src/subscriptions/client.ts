import { randomUUID } from 'node:crypto';
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

/** The update's refusal (by validator or handler) as the domain error it is; anything else as it came. */
function refusalOf(error: unknown): unknown {
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
    const refusal = error.cause.type ? refusals[error.cause.type] : undefined;
    if (refusal) return refusal(error.cause.message);
  }
  return error;
}

const notRunning = () => conflict('This subscription is no longer running', 'SUBSCRIPTION_NOT_RUNNING');

/**
 * Sends an update (under an id of its own) to a subscription workflow and answers its result, with
 * refusals as domain errors. An update to a finished workflow is a conflict, except when it was
 * this very update that finished it: a cancel now ends the workflow in the task that completes the
 * update, and the answer to the request that won can come back as "not found". The server keeps an
 * update's outcome by its id, so the outcome is read back and answered as what it was.
 */
export async function runSubscriptionUpdate<T>(
  temporal: Client,
  subscriptionId: string,
  send: (handle: WorkflowHandle, updateId: string) => Promise<T>,
): Promise<T> {
  const handle = temporal.workflow.getHandle(subscriptionId);
  const updateId = randomUUID();
  try {
    return await send(handle, updateId);
  } catch (error) {
    if (!isWorkflowNotFound(error)) throw refusalOf(error);
    const outcome = await outcomeById<T>(temporal, handle, updateId);
    if (outcome.kind === 'completed') return outcome.value;
    if (outcome.kind === 'failed') throw refusalOf(outcome.error);
    throw notRunning();
  }
}

function isWorkflowNotFound(error: unknown): boolean {
  return error instanceof WorkflowNotFoundError || (error as { name?: string }).name === 'WorkflowNotFoundError';
}

type UpdateOutcome<T> = { kind: 'completed'; value: T } | { kind: 'failed'; error: unknown } | { kind: 'unknown' };

/** An update the server does not know (it never reached the workflow) is unknown: not ours. */
async function outcomeById<T>(temporal: Client, handle: WorkflowHandle, updateId: string): Promise<UpdateOutcome<T>> {
  try {
    const value = await temporal.connection.withDeadline(Date.now() + 5_000, () =>
      handle.getUpdateHandle<T>(updateId).result(),
    );
    return { kind: 'completed', value };
  } catch (error) {
    return error instanceof WorkflowUpdateFailedError ? { kind: 'failed', error } : { kind: 'unknown' };
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
  send: (handle: WorkflowHandle, updateId: string) => Promise<unknown>,
) {
  await findSubscription(deps.db, scope, subscriptionId);
  await runSubscriptionUpdate(deps.temporal, subscriptionId, send);
  return findSubscription(deps.db, scope, subscriptionId);
}
