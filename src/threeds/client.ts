import { searchAttributesFor, startAndAwait } from '../../temporal/client';
import { awaitThreeDsDecisionUpdate } from '../../workflows/threeds/messages';
import type { ThreeDsSessionRow } from './sessions';
import type { ThreeDsAuthenticationInput } from './workflowTypes';
import type { AppDeps } from '../runtime/appDeps';

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
  const waitMs = deps.config.PAYMENT_RESPONSE_TIMEOUT_MS;
  await startAndAwait(deps.temporal, {
    start: {
      type: 'threeDsAuthenticationWorkflow',
      workflowId: session.id,
      taskQueue: deps.taskQueue,
      args: [{ ...input, sessionId: session.id, workflowId: session.id }],
      searchAttributes: searchAttributesFor({
        accountId: session.accountId,
        storeId: session.storeId,
        customerId: session.customerId,
      }),
    },
    answer: { update: awaitThreeDsDecisionUpdate, args: [{ waitMs }] },
    deadlineMs: waitMs + 2_000,
    onDeadline: () => undefined,
  });
  // The row is the answer: the activity recorded the decision before the update returned.
  return deps.db.threeDsSession.findUniqueOrThrow({ where: { id: session.id } });
}
