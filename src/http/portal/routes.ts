import { WorkflowNotFoundError } from '@temporalio/client';
import { liveSubscriptionStatuses } from '../../domain/billing';
import { dispatchEventsNow } from '../../events/dispatch';
import { paymentMethodChangedSignal, switchOptionUpdate } from '../../../workflows/subscriptions/messages';
import type { AppDeps } from '../core/context';
import { ApiError, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import {
  assertSameStore,
  portalSessionOf,
  requirePortalAction,
  requirePortalSession,
} from '../portal-sessions/session';
import type { Routers } from '../routes';
import { toPublicMembership, toPublicSubscription } from '../subscriptions/present';
import { findRecurringPrice, periodAmount } from '../../subscriptions/service';
import { runSubscriptionUpdate } from '../../subscriptions/client';
import { portalIdempotency } from '../idempotency/register';
import { redeemCredits } from '../../subscriptions/credits';
import {
  defaultPaymentMethodRequestSchema,
  okResponseSchema,
  redeemRequestSchema,
  redeemResponseSchema,
  switchRequestSchema,
  switchResponseSchema,
} from './validators';

const basePath = '/api/v1/portal';
const tags = ['portal'];

/** Customer portal operations (x-cms-token). */
export function registerPortalRoutes({ portalRouter }: Routers, deps: AppDeps): void {
  const { db, temporal } = deps;
  // Authenticate first: an Idempotency-Key is scoped to the session's customer.
  portalRouter.use(requirePortalSession(db), portalIdempotency(deps));

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/switch',
      summary: 'Moves a subscription or the membership to another option now and charges the new price',
      tags,
      security: 'cmsToken',
      body: switchRequestSchema,
      response: switchResponseSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const session = portalSessionOf(req);
      const scope = { accountId: session.accountId, mode: session.mode };
      const targetId = body.target.type === 'subscription' ? body.target.subscriptionId : body.target.membershipId;
      requirePortalAction(session, 'switch', targetId);

      let membership = null;
      let subscriptionId: string;
      if (body.target.type === 'membership') {
        membership = await db.membership.findFirst({
          where: { id: body.target.membershipId, ...scope, customerId: session.customerId },
        });
        if (!membership) throw notFound('Membership');
        assertSameStore(session, membership.storeId);
        const program = await db.membershipProgram.findFirst({
          where: { ...scope, storeId: membership.storeId, optionId: body.optionId },
        });
        if (!program) throw notFound('Membership program with this option');
        subscriptionId = membership.subscriptionId;
      } else {
        subscriptionId = body.target.subscriptionId;
      }
      const subscription = await db.subscription.findFirst({
        where: { id: subscriptionId, ...scope, customerId: session.customerId },
      });
      if (!subscription) throw notFound('Subscription');
      assertSameStore(session, subscription.storeId);
      // Same option, or a switch already in flight: the workflow's update validator refuses it (409).
      const price = await findRecurringPrice(db, scope, body.optionId, subscription.storeId);

      const answer = await runSubscriptionUpdate(() =>
        temporal.workflow.getHandle(subscription.id).executeUpdate(switchOptionUpdate, {
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
      const membershipAfter = membership
        ? await db.membership.findUniqueOrThrow({ where: { id: membership.id } })
        : null;
      return {
        subscription: toPublicSubscription(after),
        membership: membershipAfter ? toPublicMembership(membershipAfter) : null,
        orderId: answer.orderId,
        status: answer.status,
        redirectUrl: answer.redirectUrl,
        amountCharged: answer.amountCharged,
        declineCode: answer.declineCode,
      };
    },
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/credits/redeem',
      summary: 'Spends membership credits on a product and creates an order',
      tags,
      security: 'cmsToken',
      body: redeemRequestSchema,
      response: redeemResponseSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const session = portalSessionOf(req);
      requirePortalAction(session, 'credits.redeem');
      const { orderId, balance, eventIds } = await redeemCredits(db, session, body);
      await dispatchEventsNow({ db, temporal, taskQueue: deps.taskQueue }, eventIds).catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'credit order event dispatch failed; the outbox sweep will retry'),
      );
      return { orderId, balance, status: 'paid' as const, redirectUrl: null };
    },
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/payment-methods/default',
      summary: 'Makes a card the default and the card of every live subscription',
      tags,
      security: 'cmsToken',
      body: defaultPaymentMethodRequestSchema,
      response: okResponseSchema,
      errors: [404, 503],
    },
    async ({ body, req }) => {
      const session = portalSessionOf(req);
      requirePortalAction(session, 'payment-methods.default');
      const scope = { accountId: session.accountId, mode: session.mode };
      const instrument = await db.paymentInstrument.findFirst({
        where: { id: body.paymentMethodId, ...scope, customerId: session.customerId },
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
      // The workflows carry the card in their state: tell each one (they persist and emit the change).
      // A workflow that has ended needs no news; any other failure is the caller's to retry (the
      // operation is idempotent), since a workflow left on the old card would write it back.
      const failures = await Promise.all(
        live.map((row) =>
          temporal.workflow
            .getHandle(row.id)
            .signal(paymentMethodChangedSignal, { paymentMethodId: instrument.id })
            .then(() => null)
            .catch((error: unknown) => {
              if (error instanceof WorkflowNotFoundError) return null;
              deps.logger.warn({ err: error, subscriptionId: row.id }, 'could not signal subscription workflow');
              return row.id;
            }),
        ),
      );
      const unsignalled = failures.filter((id): id is string => id !== null);
      if (unsignalled.length > 0) {
        throw new ApiError(
          503,
          'SUBSCRIPTION_UPDATE_PENDING',
          `The default card is saved but ${unsignalled.join(', ')} could not be told yet; retry the request`,
        );
      }
      return { ok: true as const };
    },
  );
}
