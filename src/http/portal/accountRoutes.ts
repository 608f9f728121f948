import type { Request, Router } from 'express';
import type { z } from 'zod';
import { requireCustomerAccount } from '../../portal/access';
import { cancelOwnSubscription, resumeOwnSubscription } from '../../portal/cancellation';
import {
  findPortalCustomer,
  listPortalMemberships,
  listPortalOrders,
  listPortalPaymentMethods,
  listPortalSubscriptions,
} from '../../portal/views';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { pageInfo } from '../lists';
import { pageQuerySchema, type PageRequest, type pageInfoSchema } from '../lists/validators';
import { portalSessionOf } from '../portal-sessions/session';
import type { CustomerPortalSession } from '../../portal/session';
import {
  toPortalCustomer,
  toPortalMembership,
  toPortalOrder,
  toPortalPaymentMethod,
  toPortalSubscription,
} from './present';
import {
  portalCancelRequestSchema,
  portalCustomerSchema,
  portalMembershipListSchema,
  portalOrderListSchema,
  portalPaymentMethodListSchema,
  portalResumeRequestSchema,
  portalSubscriptionListSchema,
  portalSubscriptionSchema,
} from './accountValidators';

const basePath = '/api/v1/portal';
type PageInfo = z.input<typeof pageInfoSchema>;
const tags = ['portal'];

/** The session's customer, when the session opens their account (a verified customer session). */
function accountSessionOf(req: Request) {
  const session = portalSessionOf(req);
  requireCustomerAccount(session);
  return session;
}

/** Every account route's right: checked before its query or body is validated (authorize, then validate). */
const accountOnly = { authorize: ({ req }: { req: Request }) => void accountSessionOf(req) };

/**
 * The customer's own account in the portal: what they own (lists, newest first, paged) and cancel
 * or resume of their subscriptions. Only the session's customer in the session's store: any other
 * id is not found. Mounted behind the portal session (and Idempotency-Key) middleware.
 */
export function registerPortalAccountRoutes(portalRouter: Router, deps: AppDeps): void {
  const { db } = deps;

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'get',
      path: '/me',
      summary: 'The signed-in customer',
      description:
        "The customer the portal session (x-cms-token) belongs to, with their default card. The portal's other calls act for this customer only.",
      tags,
      security: 'cmsToken',
      ...accountOnly,
      response: portalCustomerSchema,
      errors: [404],
    },
    async ({ req }) => {
      const session = accountSessionOf(req);
      const { customer, defaultPaymentMethodId } = await findPortalCustomer(db, session);
      return toPortalCustomer(customer, session.storeId, defaultPaymentMethodId);
    },
  );

  /** A GET list of the session customer's own rows: one page of them, presented one by one. */
  function defineOwnList<Row, Item>(
    path: string,
    summary: string,
    description: string,
    response: z.ZodType<unknown, { data: Item[]; pagination: PageInfo }>,
    load: (session: CustomerPortalSession, page: PageRequest) => Promise<{ rows: Row[]; total: number }>,
    present: (row: Row, nowMs: number) => NoInfer<Item>,
  ): void {
    defineRoute(
      portalRouter,
      basePath,
      {
        method: 'get',
        path,
        summary,
        description,
        tags,
        security: 'cmsToken',
        ...accountOnly,
        query: pageQuerySchema,
        response,
      },
      async ({ query, req }) => {
        const { rows, total } = await load(accountSessionOf(req), query);
        const now = Date.now();
        return { data: rows.map((row) => present(row, now)), pagination: pageInfo(query, total) };
      },
    );
  }

  defineOwnList(
    '/orders',
    "The customer's orders in this store, newest first, with their lines",
    "The signed-in customer's orders in this store, newest first, paged; for an order history page.",
    portalOrderListSchema,
    (session, page) => listPortalOrders(db, session, page),
    toPortalOrder,
  );
  defineOwnList(
    '/subscriptions',
    "The customer's subscriptions in this store, newest first: status, option, price, current period",
    "The signed-in customer's subscriptions in this store, newest first, paged; for a manage-subscriptions page.",
    portalSubscriptionListSchema,
    (session, page) => listPortalSubscriptions(db, session, page),
    toPortalSubscription,
  );
  defineOwnList(
    '/memberships',
    "The customer's memberships in this store, newest first: program, status, credit balance, savings",
    "The signed-in customer's memberships in this store, newest first, paged, with credit balance and savings.",
    portalMembershipListSchema,
    (session, page) => listPortalMemberships(db, session, page),
    toPortalMembership,
  );
  defineOwnList(
    '/payment-methods',
    "The customer's cards, newest first: brand, last 4, expiry, default (never the number)",
    "The signed-in customer's stored cards, newest first, paged, marking the default (never the number).",
    portalPaymentMethodListSchema,
    (session, page) => listPortalPaymentMethods(db, session, page),
    toPortalPaymentMethod,
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/cancel',
      summary: 'Cancels a subscription at the end of its current period (default) or now',
      description:
        'The customer cancels their own subscription, at the end of the paid period unless they ask for now.',
      tags,
      security: 'cmsToken',
      ...accountOnly,
      body: portalCancelRequestSchema,
      example: { subscriptionId: 'sub_8UjM3kIo6LpQ1wAz5SxE', atPeriodEnd: true },
      response: portalSubscriptionSchema,
      errors: [409],
    },
    async ({ body, req }) =>
      toPortalSubscription(await cancelOwnSubscription(deps, accountSessionOf(req), body), Date.now()),
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/resume',
      summary: 'Withdraws a cancel at period end: the subscription renews at its next billing date',
      description:
        'The customer withdraws a cancel at period end: the subscription renews at its next billing date again.',
      tags,
      security: 'cmsToken',
      ...accountOnly,
      body: portalResumeRequestSchema,
      example: { subscriptionId: 'sub_8UjM3kIo6LpQ1wAz5SxE' },
      response: portalSubscriptionSchema,
      errors: [409],
    },
    async ({ body, req }) =>
      toPortalSubscription(await resumeOwnSubscription(deps, accountSessionOf(req), body.subscriptionId), Date.now()),
  );
}
