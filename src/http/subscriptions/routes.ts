import type { Prisma } from '../../db/prisma';
import { scopeOf } from '../auth/scope';
import { newId } from '../../domain/ids';
import {
  cancelSubscriptionUpdate,
  pauseSubscriptionUpdate,
  resumeSubscriptionUpdate,
  skipNextDateUpdate,
} from '../../../workflows/subscriptions/messages';
import type { AppDeps } from '../core/context';
import { badRequest, conflict, notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { toPublicMembership, toPublicProgram, toPublicSubscription } from './present';
import { createSubscription, findRecurringPrice } from '../../subscriptions/service';
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
import { runSubscriptionUpdate } from '../../subscriptions/client';

const basePath = '/api/public/v1';
const tags = ['subscriptions'];

export function registerSubscriptionRoutes({ publicRouter }: Routers, deps: AppDeps): void {
  const { db, temporal } = deps;

  async function findSubscription(scope: ReturnType<typeof scopeOf>, subscriptionId: string) {
    const row = await db.subscription.findFirst({ where: { id: subscriptionId, ...scope } });
    if (!row) throw notFound('Subscription');
    return row;
  }

  /** Runs a workflow update, then answers with the row the workflow wrote. */
  async function updateThenRead(
    scope: ReturnType<typeof scopeOf>,
    subscriptionId: string,
    update: (handle: ReturnType<typeof temporal.workflow.getHandle>) => Promise<unknown>,
  ) {
    await findSubscription(scope, subscriptionId);
    await runSubscriptionUpdate(() => update(temporal.workflow.getHandle(subscriptionId)));
    return toPublicSubscription(await findSubscription(scope, subscriptionId));
  }

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions',
      summary: 'Creates a subscription from a recurring price, a customer and a stored card, with an optional trial',
      tags,
      body: createSubscriptionSchema,
      response: subscriptionSchema,
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => toPublicSubscription((await createSubscription(deps, scopeOf(req), body)).subscription),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/list',
      summary: 'Lists subscriptions (simple pagination: page, per_page, sort, sort_order)',
      tags,
      body: listSubscriptionsSchema,
      response: subscriptionListSchema,
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const where: Prisma.SubscriptionWhereInput = {
        ...scope,
        ...(body.filters?.status ? { status: { in: body.filters.status } } : {}),
        ...(body.filters?.customerId ? { customerId: body.filters.customerId } : {}),
        ...(body.filters?.storeId ? { storeId: body.filters.storeId } : {}),
      };
      const [rows, total] = await Promise.all([
        db.subscription.findMany({
          where,
          orderBy: [{ [body.sort]: body.sort_order }, { id: body.sort_order }],
          skip: (body.page - 1) * body.per_page,
          take: body.per_page,
        }),
        db.subscription.count({ where }),
      ]);
      return {
        data: rows.map(toPublicSubscription),
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
      tags,
      params: subscriptionParams,
      response: subscriptionSchema,
    },
    async ({ params, req }) => toPublicSubscription(await findSubscription(scopeOf(req), params.subscriptionId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/:subscriptionId/cancel',
      summary: 'Cancels now, or at the end of the paid period',
      tags,
      params: subscriptionParams,
      body: cancelSubscriptionSchema,
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, body, req }) =>
      updateThenRead(scopeOf(req), params.subscriptionId, (handle) =>
        handle.executeUpdate(cancelSubscriptionUpdate, {
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
      tags,
      params: subscriptionParams,
      body: pauseSubscriptionSchema,
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, body, req }) => {
      const untilMs = Date.parse(body.until);
      if (untilMs <= Date.now()) throw badRequest('until must be in the future');
      return updateThenRead(scopeOf(req), params.subscriptionId, (handle) =>
        handle.executeUpdate(pauseSubscriptionUpdate, { args: [{ untilMs, atMs: Date.now() }] }),
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
      tags,
      params: subscriptionParams,
      body: emptyBodySchema,
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, req }) =>
      updateThenRead(scopeOf(req), params.subscriptionId, (handle) =>
        handle.executeUpdate(resumeSubscriptionUpdate, { args: [{ atMs: Date.now() }] }),
      ),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/subscriptions/:subscriptionId/skip-next',
      summary: 'Skips the next billing date (named by `date`: skipped once however often it is sent)',
      tags,
      params: subscriptionParams,
      body: skipNextSchema,
      response: subscriptionSchema,
      errors: [409],
    },
    async ({ params, body, req }) =>
      updateThenRead(scopeOf(req), params.subscriptionId, (handle) =>
        handle.executeUpdate(skipNextDateUpdate, {
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
      tags: ['memberships'],
      body: createMembershipProgramSchema,
      response: membershipProgramSchema,
      status: 201,
      errors: [404, 409],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const store = await db.store.findFirst({ where: { id: body.storeId, ...scope } });
      if (!store) throw notFound('Store');
      await findRecurringPrice(db, scope, body.optionId, store.id);
      // A price names one program: renewals and switches find the member's program by it.
      const taken = await db.membershipProgram.findFirst({
        where: { ...scope, optionId: body.optionId },
        select: { id: true },
      });
      if (taken)
        throw conflict(
          `Program ${taken.id} already bills this price; a price can belong to one program only`,
          'PROGRAM_OPTION_TAKEN',
        );
      const program = await db.membershipProgram.create({
        data: {
          id: newId('membershipProgram'),
          ...scope,
          storeId: store.id,
          name: body.name,
          optionId: body.optionId,
          creditsPerRenewal: body.creditsPerRenewal,
        },
      });
      return toPublicProgram(program);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/memberships',
      summary: 'Enrols a customer in a membership program (billed by a subscription)',
      tags: ['memberships'],
      body: createMembershipSchema,
      response: membershipSchema,
      status: 201,
      errors: [404],
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      const program = await db.membershipProgram.findFirst({ where: { id: body.programId, ...scope } });
      if (!program) throw notFound('Membership program');
      const { membership } = await createSubscription(deps, scope, {
        storeId: program.storeId,
        customerId: body.customerId,
        priceId: program.optionId,
        paymentMethodId: body.paymentMethodId,
        quantity: 1,
        trialDays: body.trialDays,
        membershipProgramId: program.id,
      });
      return toPublicMembership(membership!);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/memberships/:membershipId',
      summary: 'Returns a membership',
      tags: ['memberships'],
      params: membershipParams,
      response: membershipSchema,
    },
    async ({ params, req }) => {
      const row = await db.membership.findFirst({ where: { id: params.membershipId, ...scopeOf(req) } });
      if (!row) throw notFound('Membership');
      return toPublicMembership(row);
    },
  );
}
