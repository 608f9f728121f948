import { listOrders } from '../commerce/orders';
import { newestFirstPage, readPage, type NumberedPage } from '../db/pageQuery';
import type { Db } from '../db/prisma';
import { notFound, orNotFound } from '../errors';
import type { CustomerPortalSession } from './session';

/** A page of a portal list: `page` from 1, at most `pageSize` rows. */
export type PortalPageRequest = NumberedPage;

function scopeOf(session: CustomerPortalSession) {
  return { accountId: session.accountId, mode: session.mode };
}

/** What a session may see: its customer's rows in its store (and account and mode); nothing else exists for it. */
function ownedBy(session: CustomerPortalSession) {
  return { ...scopeOf(session), customerId: session.customerId, storeId: session.storeId };
}

/** The session's customer and their default card. */
export async function findPortalCustomer(db: Db, session: CustomerPortalSession) {
  const [customer, defaultCard] = await Promise.all([
    db.customer.findFirst({ where: { id: session.customerId, ...scopeOf(session) } }),
    db.customerDefaultPaymentMethod.findUnique({ where: { customerId: session.customerId } }),
  ]);
  if (!customer) throw notFound('Customer');
  return { customer, defaultPaymentMethodId: defaultCard?.paymentMethodId ?? null };
}

/** The customer's orders in the session's store, newest first, with their lines. */
export function listPortalOrders(db: Db, session: CustomerPortalSession, request: PortalPageRequest) {
  const { customerId, storeId } = ownedBy(session);
  return listOrders(db, scopeOf(session), {
    where: [{ customerId, storeId }],
    ...newestFirstPage(request),
    ...request,
  });
}

/** One of the session customer's subscriptions in its store; anyone else's (or none) is not_found. */
export async function findOwnSubscription(db: Db, session: CustomerPortalSession, subscriptionId: string) {
  return orNotFound(
    await db.subscription.findFirst({ where: { id: subscriptionId, ...ownedBy(session) } }),
    'Subscription',
  );
}

type SubscriptionRow = Awaited<ReturnType<typeof findOwnSubscription>>;

/** Each subscription with the names of what it bills (product title, variant name) and its membership id. */
export async function describeSubscriptions(db: Db, session: CustomerPortalSession, rows: SubscriptionRow[]) {
  const unique = (ids: string[]) => [...new Set(ids)];
  const [products, variants, memberships] = await Promise.all([
    db.product.findMany({
      where: { id: { in: unique(rows.map((row) => row.productId)) }, ...scopeOf(session) },
      select: { id: true, name: true },
    }),
    db.variant.findMany({
      where: { id: { in: unique(rows.map((row) => row.variantId)) } },
      select: { id: true, name: true },
    }),
    db.membership.findMany({
      where: { subscriptionId: { in: rows.map((row) => row.id) } },
      select: { id: true, subscriptionId: true },
    }),
  ]);
  const productTitles = new Map(products.map((product) => [product.id, product.name]));
  const variantNames = new Map(variants.map((variant) => [variant.id, variant.name]));
  const membershipIds = new Map(memberships.map((membership) => [membership.subscriptionId, membership.id]));
  return rows.map((row) => ({
    row,
    productTitle: productTitles.get(row.productId) ?? null,
    variantName: variantNames.get(row.variantId) ?? null,
    membershipId: membershipIds.get(row.id) ?? null,
  }));
}

export type DescribedSubscription = Awaited<ReturnType<typeof describeSubscriptions>>[number];

/** The customer's subscriptions in the session's store, newest first. */
export async function listPortalSubscriptions(db: Db, session: CustomerPortalSession, request: PortalPageRequest) {
  const where = ownedBy(session);
  const { rows, total } = await readPage(
    db.subscription.findMany({ where, ...newestFirstPage(request) }),
    db.subscription.count({ where }),
  );
  return { rows: await describeSubscriptions(db, session, rows), total };
}

/** The customer's memberships in the session's store, newest first, with their program and currency. */
export async function listPortalMemberships(db: Db, session: CustomerPortalSession, request: PortalPageRequest) {
  const where = ownedBy(session);
  const include = {
    program: { select: { id: true, name: true, creditsPerRenewal: true } },
    subscription: { select: { currency: true, cancelAtPeriodEnd: true } },
  };
  return readPage(
    db.membership.findMany({ where, ...newestFirstPage(request), include }),
    db.membership.count({ where }),
  );
}

/** The customer's cards, newest first, with which is the default. Never the number (nor its BIN). */
export async function listPortalPaymentMethods(db: Db, session: CustomerPortalSession, request: PortalPageRequest) {
  const where = { ...scopeOf(session), customerId: session.customerId };
  const [rows, total, defaultCard] = await Promise.all([
    db.paymentInstrument.findMany({
      where,
      ...newestFirstPage(request),
      select: { id: true, brand: true, last4: true, expMonth: true, expYear: true, createdAt: true },
    }),
    db.paymentInstrument.count({ where }),
    db.customerDefaultPaymentMethod.findUnique({ where: { customerId: session.customerId } }),
  ]);
  return { rows: rows.map((row) => ({ ...row, isDefault: row.id === defaultCard?.paymentMethodId })), total };
}
