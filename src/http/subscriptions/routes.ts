import type { WorkflowHandle } from '@temporalio/client';
import type { Scope } from '../../commerce/scope';
import { scopeOf } from '../auth/scope';
import {
  cancelSubscriptionUpdate,
  pauseSubscriptionUpdate,
  resumeSubscriptionUpdate,
  skipNextDateUpdate,
} from '../../../workflows/subscriptions/messages';
import { updateSubscription } from '../../subscriptions/client';
import { createMembershipProgram, enrolMember } from '../../subscriptions/memberships';
import { findMembership, findSubscription, listSubscriptions } from '../../subscriptions/queries';
import { createSubscription } from '../../subscriptions/service';
import { invalid } from '../../errors';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { presentMembership, presentSubscription, presentSubscriptions, toPublicProgram } from './present';
import {
  cancelSubscriptionSchema,
  createMembershipProgramSchema,
  createMembershipSchema,
  createSubscriptionSchema,
  emptyBodySchema,
  listSubscriptionsSchema,
  membershipParams,
  membershipProgramSchema,
  membershipSchema,
  pauseSubscriptionSchema,
  skipNextSchema,
  subscriptionListSchema,
  subscriptionParams,
  subscriptionSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['subscriptions'];

export function registerSubscriptionRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const { db } = deps;

  /** Runs a workflow update, then answers with the row the workflow wrote. */
  const updateThenRead = async (
    scope: Scope,
    subscriptionId: string,
    send: (handle: WorkflowHandle, updateId: string) => Promise<unknown>,
  ) => presentSubscription(db, await updateSubscription(deps, scope, subscriptionId, send));

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions',
      summary: 'Creates a subscription from a recurring price, a customer and a stored card, with an optional trial',
      description:
        "Starts billing a customer's stored card on a recurring price, optionally after a trial. Renewals run as durable workflows and emit events.",
      tags,
      body: createSubscriptionSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        customerId: 'cus_3HdP0sVb6YkR2wQe9LmT',
        priceId: 'price_5JwK9pLm2XcV7bNq4RtY',
        paymentMethodId: 'pi_7GtN4cXz1RqW8eLp5VyB',
        quantity: 1,
        trialDays: 14,
      },
      response: subscriptionSchema,
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => presentSubscription(db, (await createSubscription(deps, scopeOf(req), body)).subscription),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/list',
      summary: 'Lists subscriptions (simple pagination: page, per_page, sort, sort_order)',
      description: "The account's subscriptions, paged by page and per_page, with sorting.",
      tags,
      body: listSubscriptionsSchema,
      example: {
        page: 1,
        per_page: 20,
        sort: 'nextBillingAt',
        sort_order: 'asc',
        filters: { status: ['active', 'past_due'], storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ' },
      },
      response: subscriptionListSchema,
    },
    async ({ body, req }) => {
      const { rows, total } = await listSubscriptions(db, scopeOf(req), {
        page: body.page,
        perPage: body.per_page,
        sort: body.sort,
        sortOrder: body.sort_order,
        filters: body.filters,
      });
      return {
        data: await presentSubscriptions(db, rows),
        page: body.page,
        per_page: body.per_page,
        total,
        total_pages: Math.ceil(total / body.per_page),
      };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/subscriptions/:subscriptionId',
      summary: 'Returns a subscription',
      description: 'One subscription with its status, price and current period.',
      tags,
      params: subscriptionParams,
      response: subscriptionSchema,
    },
    async ({ params, req }) => presentSubscription(db, await findSubscription(db, scopeOf(req), params.subscriptionId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/:subscriptionId/cancel',
      summary: 'Cancels now, or at the end of the paid period',
      description:
        'Ends a subscription now, or at the end of the period already paid so the customer keeps access until then.',
      tags,
      params: subscriptionParams,
      body: cancelSubscriptionSchema,
      example: { atPeriodEnd: true },
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, body, req }) =>
      updateThenRead(scopeOf(req), params.subscriptionId, (handle, updateId) =>
        handle.executeUpdate(cancelSubscriptionUpdate, {
          updateId,
          args: [{ atPeriodEnd: body.atPeriodEnd, reasonId: body.cancelReasonId ?? null, atMs: Date.now() }],
        }),
      ),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/:subscriptionId/pause',
      summary: 'Pauses billing until a date (resumes by itself then)',
      description: 'Stops billing until a date, when billing resumes by itself; use resume to restart earlier.',
      tags,
      params: subscriptionParams,
      body: pauseSubscriptionSchema,
      example: { until: '2027-01-15T00:00:00.000Z' },
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, body, req }) => {
      const untilMs = Date.parse(body.until);
      if (untilMs <= Date.now()) throw invalid('until must be in the future');
      return updateThenRead(scopeOf(req), params.subscriptionId, (handle, updateId) =>
        handle.executeUpdate(pauseSubscriptionUpdate, {
          updateId,
          args: [{ untilMs, atMs: Date.now() }],
        }),
      );
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/:subscriptionId/resume',
      summary: 'Resumes a paused subscription on its billing schedule',
      description: 'Restarts billing of a paused subscription on its schedule.',
      tags,
      params: subscriptionParams,
      body: emptyBodySchema,
      example: {},
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, req }) =>
      updateThenRead(scopeOf(req), params.subscriptionId, (handle, updateId) =>
        handle.executeUpdate(resumeSubscriptionUpdate, {
          updateId,
          args: [{ atMs: Date.now() }],
        }),
      ),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/:subscriptionId/skip-next',
      summary: 'Skips the next billing date (named by `date`: skipped once however often it is sent)',
      description: 'Skips one billing date without pausing; sending it again for the same date changes nothing.',
      tags,
      params: subscriptionParams,
      body: skipNextSchema,
      example: { date: '2026-12-28T00:00:00.000Z' },
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, body, req }) =>
      updateThenRead(scopeOf(req), params.subscriptionId, (handle, updateId) =>
        handle.executeUpdate(skipNextDateUpdate, {
          updateId,
          args: [{ atMs: Date.now(), dateMs: body.date === undefined ? null : Date.parse(body.date) }],
        }),
      ),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/membership-programs',
      summary: 'Creates a membership program: its recurring price and the credits each renewal adds',
      description:
        'Creates a membership program: its recurring price and the credits each renewal adds, which members spend in the portal.',
      tags: ['memberships'],
      body: createMembershipProgramSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        name: 'Coffee club',
        optionId: 'price_5JwK9pLm2XcV7bNq4RtY',
        creditsPerRenewal: 2,
      },
      response: membershipProgramSchema,
      status: 201,
      errors: [404, 409],
    },
    async ({ body, req }) => toPublicProgram(await createMembershipProgram(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/memberships',
      summary: 'Enrols a customer in a membership program (billed by a subscription)',
      description: "Enrols a customer in a membership program, billed by a subscription on the customer's stored card.",
      tags: ['memberships'],
      body: createMembershipSchema,
      example: {
        programId: 'mprog_2XsW5eDc8RfV1tGb4YhN',
        customerId: 'cus_3HdP0sVb6YkR2wQe9LmT',
        paymentMethodId: 'pi_7GtN4cXz1RqW8eLp5VyB',
        trialDays: 7,
      },
      response: membershipSchema,
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => presentMembership(db, await enrolMember(deps, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/memberships/:membershipId',
      summary: 'Returns a membership',
      description: 'One membership with its program, status and credit balance.',
      tags: ['memberships'],
      params: membershipParams,
      response: membershipSchema,
    },
    async ({ params, req }) => presentMembership(db, await findMembership(db, scopeOf(req), params.membershipId)),
  );
}
