import { dispatchEventsNow } from '../../events/dispatch';
import { requirePortalAction } from '../../portal/access';
import { setDefaultPaymentMethod, switchOption } from '../../portal/service';
import { redeemCredits } from '../../subscriptions/credits';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { portalIdempotency } from '../idempotency/register';
import { portalSessionOf, requirePortalSession } from '../portal-sessions/session';
import { registerPortalAccountRoutes } from './accountRoutes';
import { registerPortalPayDueRoutes } from './payDueRoutes';
import type { Routers } from '../routes';
import { presentMembership, presentSubscription } from '../subscriptions/present';
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
  registerPortalAccountRoutes(portalRouter, deps);
  registerPortalPayDueRoutes(portalRouter, deps);

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/switch',
      summary: 'Moves a subscription or the membership to another option now and charges the new price',
      description:
        'The customer moves a subscription or membership to another option now, and is charged the new price.',
      tags,
      security: 'cmsToken',
      // The action before the body; the link's target is checked once the body names one.
      authorize: ({ req }) => requirePortalAction(portalSessionOf(req), 'switch'),
      body: switchRequestSchema,
      example: {
        target: { type: 'subscription', subscriptionId: 'sub_8UjM3kIo6LpQ1wAz5SxE' },
        optionId: 'price_5JwK9pLm2XcV7bNq4RtY',
      },
      response: switchResponseSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const session = portalSessionOf(req);
      const targetId = body.target.type === 'subscription' ? body.target.subscriptionId : body.target.membershipId;
      requirePortalAction(session, 'switch', targetId);
      const { subscription, membership, answer } = await switchOption(deps, session, body);
      return {
        subscription: await presentSubscription(deps.db, subscription),
        membership: membership ? await presentMembership(deps.db, membership) : null,
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
      description: 'The customer spends membership credits on a product; answers the order it creates.',
      tags,
      security: 'cmsToken',
      authorize: ({ req }) => requirePortalAction(portalSessionOf(req), 'credits.redeem'),
      body: redeemRequestSchema,
      example: { productId: 'prod_6YhG3nBv8MqW2eRt5LcX', variantId: 'var_2MzQ8rTx5LwN1cVb7KpH', quantity: 1 },
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
      description:
        'The customer makes one of their cards the default, and the card every live subscription of theirs is billed on.',
      tags,
      security: 'cmsToken',
      authorize: ({ req }) => requirePortalAction(portalSessionOf(req), 'payment-methods.default'),
      body: defaultPaymentMethodRequestSchema,
      example: { paymentMethodId: 'pi_7GtN4cXz1RqW8eLp5VyB' },
      response: okResponseSchema,
      errors: [404, 503],
    },
    async ({ body, req }) => {
      const session = portalSessionOf(req);
      requirePortalAction(session, 'payment-methods.default');
      await setDefaultPaymentMethod(deps, session, body.paymentMethodId);
      return { ok: true as const };
    },
  );
}
