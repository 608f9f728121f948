import type { Client } from '@temporalio/client';
import type { Db } from '../db/prisma';
import { notFound } from '../errors';
import { runSubscriptionUpdate } from '../subscriptions/client';
import { payDueOnSessionUpdate } from '../../workflows/subscriptions/messages';
import { assertSameStore } from './access';
import type { CustomerPortalSession } from './session';

/**
 * The customer pays their subscription's failed renewal now, on-session, with the subscription's
 * card (portal). The subscription workflow runs it as a customer-initiated payment and answers
 * whatever the payment answers: paid, declined, or requires_action with the redirect URL of its
 * 3-D Secure step. One at a time: the workflow's update validator refuses a second while one runs
 * (409 SUBSCRIPTION_BUSY), and once paid there is nothing due (409 NOTHING_DUE).
 */
export async function payDueRenewal(
  { db, temporal }: { db: Db; temporal: Client },
  session: CustomerPortalSession,
  subscriptionId: string,
) {
  const subscription = await db.subscription.findFirst({
    where: { id: subscriptionId, accountId: session.accountId, mode: session.mode, customerId: session.customerId },
  });
  if (!subscription) throw notFound('Subscription');
  assertSameStore(session, subscription.storeId);
  const answer = await runSubscriptionUpdate(temporal, subscription.id, (handle, updateId) =>
    handle.executeUpdate(payDueOnSessionUpdate, { updateId, args: [{ atMs: Date.now() }] }),
  );
  const after = await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
  return { subscription: after, answer };
}
