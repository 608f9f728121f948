import { readPage } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import type { SubscriptionStatus } from '../domain/billing';
import { orNotFound } from '../errors';

/** A subscription of the caller's account and mode, or not_found. */
export async function findSubscription(db: Db, scope: Scope, subscriptionId: string) {
  return orNotFound(await db.subscription.findFirst({ where: { id: subscriptionId, ...scope } }), 'Subscription');
}

export interface SubscriptionListRequest {
  page: number;
  perPage: number;
  sort: 'createdAt' | 'nextBillingAt' | 'startedAt' | 'status' | 'price';
  sortOrder: 'asc' | 'desc';
  filters?: { status?: SubscriptionStatus[]; customerId?: string; storeId?: string };
}

/** One page of the caller's subscriptions (ties broken by id) and how many there are in all. */
export async function listSubscriptions(db: Db, scope: Scope, request: SubscriptionListRequest) {
  const { filters } = request;
  const where: Prisma.SubscriptionWhereInput = {
    ...scope,
    ...(filters?.status ? { status: { in: filters.status } } : {}),
    ...(filters?.customerId ? { customerId: filters.customerId } : {}),
    ...(filters?.storeId ? { storeId: filters.storeId } : {}),
  };
  const orderBy = [{ [request.sort]: request.sortOrder }, { id: request.sortOrder }];
  const window = { skip: (request.page - 1) * request.perPage, take: request.perPage };
  return readPage(db.subscription.findMany({ where, orderBy, ...window }), db.subscription.count({ where }));
}

/** A membership of the caller's account and mode, or not_found. */
export async function findMembership(db: Db, scope: Scope, membershipId: string) {
  return orNotFound(await db.membership.findFirst({ where: { id: membershipId, ...scope } }), 'Membership');
}
