import { WithStartWorkflowOperation } from '@temporalio/client';
import { searchAttributes } from '../../../temporal/searchAttributes';
import { awaitThreeDsDecisionUpdate } from '../../../workflows/threeDsAuthentication';
import type { ThreeDsSessionRow } from '../../threeds/sessions';
import type { ThreeDsAuthenticationInput } from '../../threeds/workflowTypes';
import type { AppDeps } from '../core/context';

/**
 * Starts the session's authentication workflow (workflow id = session id) with update-with-start
 * and waits, at most PAYMENT_RESPONSE_TIMEOUT_MS, for its first decision: final or challenge. A
 * second call for the same session joins the running workflow instead of starting another.
 */
export async function runAuthentication(
  deps: Pick<AppDeps, 'db' | 'temporal' | 'taskQueue' | 'config'>,
  session: ThreeDsSessionRow,
  input: Omit<ThreeDsAuthenticationInput, 'sessionId' | 'workflowId'>,
): Promise<ThreeDsSessionRow> {
  const operation = new WithStartWorkflowOperation('threeDsAuthenticationWorkflow', {
    workflowId: session.id,
    taskQueue: deps.taskQueue,
    args: [{ ...input, sessionId: session.id, workflowId: session.id }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [
      { key: searchAttributes.AccountId, value: session.accountId },
      ...(session.storeId ? [{ key: searchAttributes.StoreId, value: session.storeId }] : []),
      ...(session.customerId ? [{ key: searchAttributes.CustomerId, value: session.customerId }] : []),
    ],
  });
  const waitMs = deps.config.PAYMENT_RESPONSE_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), waitMs + 2_000);
  });
  const update = deps.temporal.workflow.executeUpdateWithStart(awaitThreeDsDecisionUpdate, { args: [{ waitMs }], startWorkflowOperation: operation });
  try {
    const answer = await Promise.race([update, deadline]);
    if (answer === 'deadline') update.catch(() => undefined);
  } finally {
    clearTimeout(timer);
  }
  // The row is the answer: the activity recorded the decision before the update returned.
  return deps.db.threeDsSession.findUniqueOrThrow({ where: { id: session.id } });
}
