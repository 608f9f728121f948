import type { Prisma } from '../../db/prisma';
import { createCheckoutSession, expireCheckoutSession, sessionInclude } from '../../commerce/checkoutSessions';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import {
  checkoutSessionParams,
  checkoutSessionSchema,
  createCheckoutSessionSchema,
  expireCheckoutSessionSchema,
  toPublicCheckoutSession,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['checkout'];

const sessionList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', total: 'total', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    status: { kind: 'enum', values: ['open', 'paid', 'expired'] },
    currency: { kind: 'string' },
    storeId: { kind: 'id', prefix: 'store' },
    customerId: { kind: 'id', prefix: 'cus' },
    total: { kind: 'number' },
    createdAt: { kind: 'date' },
  },
};

type SessionWhere = Prisma.CheckoutSessionWhereInput;

/** The status a reader sees: an open session past its expiry counts as expired (as GET shows it). */
function effectiveStatus(status: string, now: Date): SessionWhere {
  if (status === 'open') return { status: 'open', expiresAt: { gt: now } };
  if (status === 'expired') return { OR: [{ status: 'expired' }, { status: 'open', expiresAt: { lte: now } }] };
  return { status: 'paid' };
}

/** Rewrites the validated status filter (equals / in / not-equals) to effective statuses. */
function withEffectiveStatus(clause: Record<string, unknown>, now: Date): SessionWhere {
  const predicate = clause.status as string | { in?: string[]; not?: string } | undefined;
  if (predicate === undefined) return clause as SessionWhere;
  if (typeof predicate === 'string') return effectiveStatus(predicate, now);
  if (predicate.in) return { OR: predicate.in.map((status) => effectiveStatus(status, now)) };
  return { NOT: effectiveStatus(predicate.not!, now) };
}

export function registerCheckoutSessionRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-sessions',
      summary:
        'Creates a checkout session; totals are computed server-side in minor units and promotion codes are redeemed',
      tags,
      body: createCheckoutSessionSchema,
      response: checkoutSessionSchema,
      errors: [409],
    },
    async ({ body, req }) => toPublicCheckoutSession(await createCheckoutSession(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-sessions/list',
      summary: 'Lists checkout sessions (filters status, currency, storeId, customerId, total, createdAt)',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(checkoutSessionSchema, 'CheckoutSessionList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, sessionList);
      const now = new Date();
      const where: SessionWhere = {
        ...scopeOf(req),
        AND: query.where.map((clause) => withEffectiveStatus(clause, now)),
      };
      const [rows, total] = await Promise.all([
        db.checkoutSession.findMany({
          where,
          orderBy: query.orderBy as Prisma.CheckoutSessionOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
          include: sessionInclude,
        }),
        db.checkoutSession.count({ where }),
      ]);
      return { data: rows.map(toPublicCheckoutSession), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/checkout-sessions/expire',
      summary: 'Expires an open checkout session and releases its promotion-code redemptions',
      tags,
      body: expireCheckoutSessionSchema,
      response: checkoutSessionSchema,
      errors: [409],
    },
    async ({ body, req }) => toPublicCheckoutSession(await expireCheckoutSession(db, scopeOf(req), body.id)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/checkout-sessions/:checkoutSessionId',
      summary: 'Retrieves a checkout session with its totals',
      tags,
      params: checkoutSessionParams,
      response: checkoutSessionSchema,
    },
    async ({ params, req }) => {
      const session = await db.checkoutSession.findFirst({
        where: { id: params.checkoutSessionId, ...scopeOf(req) },
        include: sessionInclude,
      });
      if (!session) throw notFound('Checkout session');
      return toPublicCheckoutSession(session);
    },
  );
}
