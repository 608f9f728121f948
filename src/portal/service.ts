import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Db } from '../db/prisma';
import { liveSubscriptionStatuses } from '../domain/billing';
import { notFound, unavailable } from '../errors';
import type { Logger } from '../logging/logger';
import { runSubscriptionUpdate } from '../subscriptions/client';
import { findRecurringPrice, periodAmount } from '../subscriptions/service';
import { paymentMethodChangedSignal, switchOptionUpdate } from '../../workflows/subscriptions/messages';
import { assertSameStore } from './access';
import type { CustomerPortalSession } from './session';

export interface PortalServiceDeps {
  db: Db;
  temporal: Client;
  logger: Logger;
}

export type SwitchTarget =
  { type: 'subscription'; subscriptionId: string } | { type: 'membership'; membershipId: string };

/**
 * Moves the session customer's subscription (or the one behind a membership) to another option
 * now, through the subscription workflow's switch update, and answers the rows it wrote. Same
 * option, or a switch already in flight: the workflow's update validator refuses it (conflict).
 */
export async function switchOption(
  { db, temporal }: Pick<PortalServiceDeps, 'db' | 'temporal'>,
  session: CustomerPortalSession,
  input: { target: SwitchTarget; optionId: string },
) {
  const scope = { accountId: session.accountId, mode: session.mode };
  let membership = null;
  let subscriptionId: string;
  if (input.target.type === 'membership') {
    membership = await db.membership.findFirst({
      where: { id: input.target.membershipId, ...scope, customerId: session.customerId },
    });
    if (!membership) throw notFound('Membership');
    assertSameStore(session, membership.storeId);
    const program = await db.membershipProgram.findFirst({
      where: { ...scope, storeId: membership.storeId, optionId: input.optionId },
    });
    if (!program) throw notFound('Membership program with this option');
    subscriptionId = membership.subscriptionId;
  } else {
    subscriptionId = input.target.subscriptionId;
  }
  const subscription = await db.subscription.findFirst({
    where: { id: subscriptionId, ...scope, customerId: session.customerId },
  });
  if (!subscription) throw notFound('Subscription');
  assertSameStore(session, subscription.storeId);
  const price = await findRecurringPrice(db, scope, input.optionId, subscription.storeId);

  const answer = await runSubscriptionUpdate(temporal, subscription.id, (handle, updateId) =>
    handle.executeUpdate(switchOptionUpdate, {
      updateId,
      args: [
        {
          optionId: price.id,
          productId: price.variant.productId,
          variantId: price.variantId,
          price: periodAmount(price.unitAmount, subscription.quantity),
          currency: price.currency,
          interval: price.interval,
          intervalCount: price.intervalCount,
          atMs: Date.now(),
        },
      ],
    }),
  );
  const after = await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
  const membershipAfter = membership ? await db.membership.findUniqueOrThrow({ where: { id: membership.id } }) : null;
  return { subscription: after, membership: membershipAfter, answer };
}

/**
 * Makes a card of the customer their default and the card of every live subscription (and its
 * membership) in the session's store, then tells each subscription workflow. A workflow that
 * could not be told leaves the call unavailable, to be retried (it is idempotent).
 */
export async function setDefaultPaymentMethod(
  { db, temporal, logger }: PortalServiceDeps,
  session: CustomerPortalSession,
  paymentMethodId: string,
): Promise<void> {
  const scope = { accountId: session.accountId, mode: session.mode };
  const instrument = await db.paymentInstrument.findFirst({
    where: { id: paymentMethodId, ...scope, customerId: session.customerId },
  });
  if (!instrument) throw notFound('Payment method');
  const live = await db.$transaction(async (tx) => {
    await tx.customerDefaultPaymentMethod.upsert({
      where: { customerId: session.customerId },
      create: { customerId: session.customerId, ...scope, paymentMethodId: instrument.id },
      update: { paymentMethodId: instrument.id },
    });
    // Only the session's store: a store-A session must never re-card the customer's store-B subscriptions.
    const where = {
      ...scope,
      storeId: session.storeId,
      customerId: session.customerId,
      status: { in: [...liveSubscriptionStatuses] },
    };
    const rows = await tx.subscription.findMany({ where, select: { id: true } });
    await tx.subscription.updateMany({ where, data: { paymentMethodId: instrument.id } });
    await tx.membership.updateMany({
      where: { subscriptionId: { in: rows.map((row) => row.id) } },
      data: { paymentMethodId: instrument.id },
    });
    return rows;
  });
  // The workflows carry the card in their state: tell each one; it reads the card from the row written
  // above (so signals taken out of order still end on the card committed last) and emits the change.
  // The row's card is written here only, never by a workflow's save. A workflow that has ended needs
  // no news; any other failure is the caller's to retry (the operation is idempotent), since a
  // workflow left on the old card would charge it.
  const failures = await Promise.all(
    live.map((row) =>
      temporal.workflow
        .getHandle(row.id)
        .signal(paymentMethodChangedSignal, { paymentMethodId: instrument.id })
        .then(() => null)
        .catch((error: unknown) => {
          if (error instanceof WorkflowNotFoundError) return null;
          logger.warn({ err: error, subscriptionId: row.id }, 'could not signal subscription workflow');
          return row.id;
        }),
    ),
  );
  const unsignalled = failures.filter((id): id is string => id !== null);
  if (unsignalled.length > 0) {
    throw unavailable(
      `The default card is saved but ${unsignalled.join(', ')} could not be told yet; retry the request`,
      'SUBSCRIPTION_UPDATE_PENDING',
    );
  }
}
