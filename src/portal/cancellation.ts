import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Db } from '../db/prisma';
import { conflict } from '../errors';
import { runSubscriptionUpdate } from '../subscriptions/client';
import { customerCancelUpdate, withdrawCancelUpdate } from '../../workflows/subscriptions/messages';
import type { CustomerPortalSession } from './session';
import { describeSubscriptions, findOwnSubscription } from './views';

interface CancellationDeps {
  db: Db;
  temporal: Client;
}

/**
 * Runs a customer's change on one of their own subscriptions (anyone else's is not_found), through
 * the subscription workflow's update, whose validator decides (busy, transition), and answers the
 * row it wrote. A subscription that has ended is answered from its row: nothing is left to change.
 */
async function changeOwnSubscription(
  { db, temporal }: CancellationDeps,
  session: CustomerPortalSession,
  subscriptionId: string,
  send: (handle: WorkflowHandle, updateId: string) => Promise<unknown>,
) {
  const row = await findOwnSubscription(db, session, subscriptionId);
  if (row.status === 'canceled') throw conflict('This subscription is canceled', 'INVALID_SUBSCRIPTION_TRANSITION');
  await runSubscriptionUpdate(temporal, row.id, send);
  const after = await findOwnSubscription(db, session, subscriptionId);
  const [described] = await describeSubscriptions(db, session, [after]);
  return described!;
}

/**
 * Cancels now (the workflow ends) or at the end of the current period (not billed again). Asking
 * for a cancel at period end that is already set changes nothing and records nothing.
 */
export function cancelOwnSubscription(
  deps: CancellationDeps,
  session: CustomerPortalSession,
  input: { subscriptionId: string; atPeriodEnd: boolean },
) {
  return changeOwnSubscription(deps, session, input.subscriptionId, (handle, updateId) =>
    handle.executeUpdate(customerCancelUpdate, {
      args: [{ atPeriodEnd: input.atPeriodEnd, atMs: Date.now() }],
      updateId,
    }),
  );
}

/** Withdraws a cancel at period end: the subscription renews at its next billing date as before. */
export function resumeOwnSubscription(deps: CancellationDeps, session: CustomerPortalSession, subscriptionId: string) {
  return changeOwnSubscription(deps, session, subscriptionId, (handle, updateId) =>
    handle.executeUpdate(withdrawCancelUpdate, { args: [{ atMs: Date.now() }], updateId }),
  );
}
