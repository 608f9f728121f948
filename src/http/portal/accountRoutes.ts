import type { Request, Router } from 'express';
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
import { pageQuerySchema } from '../lists/validators';
import { portalSessionOf } from '../portal-sessions/session';
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
const tags = ['portal'];

/** The session's customer, when the session opens their account (a verified customer session). */
function accountSessionOf(req: Request) {
  const session = portalSessionOf(req);
  requireCustomerAccount(session);
  return session;
}

/**
 * The customer's own account in the portal: what they own (lists, newest first, paged) and cancel
 * or resume of their subscriptions. Only the session's customer in the session's store: any other
 * id is not found. Mounted behind the portal session (and Idempotency-Key) middleware.
 */
export function registerPortalAccountRoutes(portalRouter: Router, deps: AppDeps): void {
  const { db } = deps;
  const list = { method: 'get' as const, tags, security: 'cmsToken' as const, query: pageQuerySchema };

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'get',
      path: '/me',
      summary: 'The signed-in customer',
      tags,
      security: 'cmsToken',
      response: portalCustomerSchema,
      errors: [404],
    },
    async ({ req }) => {
      const session = accountSessionOf(req);
      const { customer, defaultPaymentMethodId } = await findPortalCustomer(db, session);
      return toPortalCustomer(customer, session.storeId, defaultPaymentMethodId);
    },
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      ...list,
      path: '/orders',
      summary: "The customer's orders in this store, newest first, with their lines",
      response: portalOrderListSchema,
    },
    async ({ query, req }) => {
      const { rows, total } = await listPortalOrders(db, accountSessionOf(req), query);
      return { data: rows.map(toPortalOrder), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      ...list,
      path: '/subscriptions',
      summary: "The customer's subscriptions in this store, newest first: status, option, price, current period",
      response: portalSubscriptionListSchema,
    },
    async ({ query, req }) => {
      const { rows, total } = await listPortalSubscriptions(db, accountSessionOf(req), query);
      const now = Date.now();
      return { data: rows.map((row) => toPortalSubscription(row, now)), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      ...list,
      path: '/memberships',
      summary: "The customer's memberships in this store, newest first: program, status, credit balance, savings",
      response: portalMembershipListSchema,
    },
    async ({ query, req }) => {
      const { rows, total } = await listPortalMemberships(db, accountSessionOf(req), query);
      return { data: rows.map(toPortalMembership), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      ...list,
      path: '/payment-methods',
      summary: "The customer's cards, newest first: brand, last 4, expiry, default (never the number)",
      response: portalPaymentMethodListSchema,
    },
    async ({ query, req }) => {
      const { rows, total } = await listPortalPaymentMethods(db, accountSessionOf(req), query);
      return { data: rows.map(toPortalPaymentMethod), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    portalRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/cancel',
      summary: 'Cancels a subscription at the end of its current period (default) or now',
      tags,
      security: 'cmsToken',
      body: portalCancelRequestSchema,
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
      tags,
      security: 'cmsToken',
      body: portalResumeRequestSchema,
      response: portalSubscriptionSchema,
      errors: [409],
    },
    async ({ body, req }) =>
      toPortalSubscription(await resumeOwnSubscription(deps, accountSessionOf(req), body.subscriptionId), Date.now()),
  );
}
