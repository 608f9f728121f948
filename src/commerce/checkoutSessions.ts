import { recordSessionExpired } from './lapsedSessions';
import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import { findCustomer, findOrCreateCustomerByEmail } from './customers';
import { computeCheckoutTotals, TotalsError } from '../domain/checkoutTotals';
import { newId } from '../domain/ids';
import { conflict, invalid, notFound, orNotFound } from '../errors';
import {
  assertFirstTimeEligible,
  redeemPromotionCodes,
  releasePromotionCodes,
  resolvePromotionCodes,
} from './promotionRedemption';
import type { Scope } from './scope';
import { findStore } from './stores';

type Tx = Prisma.TransactionClient;

export interface CreateCheckoutSessionInput {
  storeId: string;
  customerId?: string;
  customer?: { email: string; firstName?: string; lastName?: string; phone?: string };
  currency?: string;
  lineItems: { priceId: string; quantity: number; titleTrans?: Record<string, string> }[];
  promotionCodes?: string[];
  expiresInMinutes?: number;
  successUrl?: string;
  cancelUrl?: string;
  locale?: string;
  funnelSessionId?: string;
}

export const defaultExpiryMinutes = 24 * 60;

export const sessionInclude = {
  lineItems: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
  customer: true,
} satisfies Prisma.CheckoutSessionInclude;

/** A session with its line items (in position order) and customer. */
export type CheckoutSessionWithLines = Prisma.CheckoutSessionGetPayload<{ include: typeof sessionInclude }>;

export const checkoutSessionList: ListDefinition = {
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

// Redeemers of one hot code queue on its row lock; give them longer than Prisma's 2 s/5 s defaults.
const transactionOptions = { maxWait: 15_000, timeout: 15_000 };

/**
 * Creates a checkout session: resolves store, customer and prices in the caller's scope,
 * computes totals in minor units, and redeems promotion codes, all in one transaction
 * (a failed redemption leaves nothing behind).
 */
export async function createCheckoutSession(db: Db, scope: Scope, input: CreateCheckoutSessionInput) {
  return db.$transaction(async (tx) => {
    const store = await findStore(tx, scope, input.storeId);
    const currency = input.currency ?? store.baseCurrency;
    if (currency !== store.baseCurrency && !store.presentmentCurrencies.includes(currency)) {
      throw invalid(
        `Store does not sell in ${currency}; its currencies are ${store.presentmentCurrencies.join(', ')}`,
        'CURRENCY_NOT_SUPPORTED',
      );
    }
    const customer = await resolveCustomer(tx, scope, store.id, input);
    if (input.funnelSessionId) await assertFunnelOfCheckout(tx, scope, input.funnelSessionId, store.id, customer.id);
    const lines = await resolveLines(tx, scope, store.id, currency, input.lineItems);
    const codes = await resolvePromotionCodes(tx, scope, store.id, input.promotionCodes ?? []);
    await assertFirstTimeEligible(tx, customer.id, codes);
    let totals;
    try {
      totals = computeCheckoutTotals(
        currency,
        lines,
        codes.map((code) => code.promotion),
      );
    } catch (error) {
      if (error instanceof TotalsError) throw invalid(error.message, 'INVALID_CHECKOUT_TOTALS');
      throw error;
    }
    const id = newId('checkoutSession');
    await tx.checkoutSession.create({
      data: {
        id,
        ...scope,
        storeId: store.id,
        customerId: customer.id,
        currency,
        subtotal: totals.subtotal,
        discountTotal: totals.discountTotal,
        total: totals.total,
        promotionCodeIds: codes.map((code) => code.id),
        expiresAt: new Date(Date.now() + (input.expiresInMinutes ?? defaultExpiryMinutes) * 60_000),
        successUrl: input.successUrl ?? null,
        cancelUrl: input.cancelUrl ?? null,
        locale: input.locale ?? null,
        funnelSessionId: input.funnelSessionId ?? null,
        lineItems: {
          create: lines.map((line, index) => ({
            id: newId('checkoutLineItem'),
            priceId: line.priceId,
            productId: line.productId,
            variantId: line.variantId,
            productName: line.productName,
            quantity: line.quantity,
            unitAmount: line.unitAmount,
            amountSubtotal: totals.lineSubtotals[index]!,
            position: index,
            ...(input.lineItems[index]!.titleTrans ? { titleTrans: input.lineItems[index]!.titleTrans } : {}),
          })),
        },
      },
    });
    await redeemPromotionCodes(tx, { checkoutSessionId: id, customerId: customer.id, codes });
    return tx.checkoutSession.findUniqueOrThrow({ where: { id }, include: sessionInclude });
  }, transactionOptions);
}

/** A funnel session a checkout may belong to: the caller's, active, of the same store and (when it has one) customer. */
async function assertFunnelOfCheckout(
  tx: Tx,
  scope: Scope,
  funnelSessionId: string,
  storeId: string,
  customerId: string,
) {
  const funnel = await tx.funnelSession.findFirst({ where: { id: funnelSessionId, ...scope } });
  if (!funnel) throw notFound('Funnel session');
  if (funnel.storeId !== storeId)
    throw invalid('The funnel session is of another store', 'FUNNEL_SESSION_STORE_MISMATCH');
  if (funnel.customerId && funnel.customerId !== customerId)
    throw invalid("The funnel session is another customer's", 'CUSTOMER_MISMATCH');
  if (funnel.status !== 'active') throw conflict(`Funnel session is ${funnel.status}`, 'FUNNEL_SESSION_ENDED');
}

async function resolveCustomer(tx: Tx, scope: Scope, storeId: string, input: CreateCheckoutSessionInput) {
  if (input.customerId) return findCustomer(tx, scope, input.customerId);
  return findOrCreateCustomerByEmail(tx, scope, storeId, input.customer!);
}

async function resolveLines(
  tx: Tx,
  scope: Scope,
  storeId: string,
  currency: string,
  items: { priceId: string; quantity: number }[],
) {
  const prices = await tx.price.findMany({
    where: { ...scope, id: { in: items.map((item) => item.priceId) } },
    include: { variant: { include: { product: true } } },
  });
  return items.map((item) => {
    const price = prices.find((candidate) => candidate.id === item.priceId);
    if (!price || price.variant.product.storeId !== storeId)
      throw invalid(`Price ${item.priceId} does not exist in this store`, 'PRICE_NOT_FOUND');
    if (!price.active || !price.variant.product.active)
      throw invalid(`Price ${item.priceId} is not active`, 'PRICE_INACTIVE');
    if (price.currency !== currency)
      throw invalid(`Price ${item.priceId} is in ${price.currency}, the session in ${currency}`, 'CURRENCY_MISMATCH');
    return {
      priceId: price.id,
      productId: price.variant.productId,
      variantId: price.variantId,
      productName: price.variant.product.name,
      quantity: item.quantity,
      unitAmount: price.unitAmount,
    };
  });
}

/** Ends an open session unpaid and gives its promotion-code redemptions back. */
export async function expireCheckoutSession(db: Db, scope: Scope, checkoutSessionId: string) {
  return db.$transaction(async (tx) => {
    const session = await tx.checkoutSession.findFirst({ where: { id: checkoutSessionId, ...scope } });
    if (!session) throw notFound('Checkout session');
    const flipped = await tx.checkoutSession.updateMany({
      where: { id: session.id, status: 'open' },
      data: { status: 'expired' },
    });
    if (flipped.count !== 1)
      throw conflict(`Checkout session is ${session.status} and cannot be expired`, 'CHECKOUT_NOT_OPEN');
    await releasePromotionCodes(tx, session.id);
    // Delivered by the outbox sweep (workflows/events/outbox.ts), like any event recorded outside a workflow.
    await recordSessionExpired(tx, session, 'requested');
    return tx.checkoutSession.findUniqueOrThrow({ where: { id: session.id }, include: sessionInclude });
  }, transactionOptions);
}

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

/** Lists sessions; a status filter matches the status a reader sees (open past expiry is expired). */
export async function listCheckoutSessions(
  db: Db,
  scope: Scope,
  query: ListQuery,
): Promise<Page<CheckoutSessionWithLines>> {
  const now = new Date();
  const where = query.where.map((clause) => withEffectiveStatus(clause, now));
  const args = scopedPageArgs<Prisma.CheckoutSessionFindManyArgs>(scope, { ...query, where });
  return readPage(
    db.checkoutSession.findMany({ ...args, include: sessionInclude }),
    db.checkoutSession.count({ where: args.where }),
  );
}

/** A checkout session of the caller's account and mode, or not_found. */
export async function findCheckoutSession(
  db: Db,
  scope: Scope,
  checkoutSessionId: string,
): Promise<CheckoutSessionWithLines> {
  return orNotFound(
    await db.checkoutSession.findFirst({
      where: { id: checkoutSessionId, ...scope },
      include: sessionInclude,
    }),
    'Checkout session',
  );
}
