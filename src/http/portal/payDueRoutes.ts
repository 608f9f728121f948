import type { Router } from 'express';
import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import { requirePortalAction } from '../../portal/access';
import { payDueRenewal } from '../../portal/payDue';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { portalSessionOf } from '../portal-sessions/session';
import { presentSubscription } from '../subscriptions/present';
import { subscriptionSchema } from '../subscriptions/validators';
import { portalOperationStatuses } from './validators';

const basePath = '/api/v1/portal';
const tags = ['portal'];

const payDueRequestSchema = z
  .object({ subscriptionId: idOf('sub') })
  .strict()
  .openapi('PortalPayDueRequest');

const payDueResponseSchema = z
  .object({
    subscription: subscriptionSchema,
    /** The order of the recovered renewal, when paid. */
    orderId: z.string().nullable(),
    paymentId: z.string().nullable(),
    status: z.enum(portalOperationStatuses),
    /** requires_action: where to send the customer's browser for the payment's 3-D Secure step. */
    redirectUrl: z.string().nullable(),
    /** Integer minor units charged: the renewal's amount when paid, else 0. */
    amountCharged: z.number().int(),
    declineCode: z.string().nullable(),
  })
  .openapi('PortalPayDueResponse');

/** The customer pays a failed renewal on-session (the dunning e-mail's portal link leads here). */
export function registerPortalPayDueRoutes(portalRouter: Router, deps: AppDeps): void {
  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/renewals/pay',
      summary:
        "Pays a past-due subscription's failed renewal now, on-session, with its card (customer-initiated; may answer requires_action)",
      description:
        'The customer pays a past-due renewal now with its card, in session; may answer requires_action with a 3-D Secure challenge.',
      tags,
      security: 'cmsToken',
      authorize: ({ req }) => requirePortalAction(portalSessionOf(req), 'renewals.pay'),
      body: payDueRequestSchema,
      example: { subscriptionId: 'sub_8UjM3kIo6LpQ1wAz5SxE' },
      response: payDueResponseSchema,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const session = portalSessionOf(req);
      requirePortalAction(session, 'renewals.pay', body.subscriptionId);
      const { subscription, answer } = await payDueRenewal(deps, session, body.subscriptionId);
      return {
        subscription: await presentSubscription(deps.db, subscription),
        orderId: answer.orderId,
        paymentId: answer.paymentId,
        status: answer.status,
        redirectUrl: answer.redirectUrl,
        amountCharged: answer.amountCharged,
        declineCode: answer.declineCode,
      };
    },
  );
}
