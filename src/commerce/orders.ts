import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { Mode } from '../domain/apiKeys';
import { maxAmount } from '../domain/checkoutTotals';
import { newId } from '../domain/ids';
import { assertMinorUnits, MoneyError } from '../domain/money';
import { conflict, DomainError, notFound } from '../errors';
import { paymentsOfOrder, type OrderPayment } from '../payments/orderPayments';
import type { Scope } from './scope';
import { rawRows } from '../db/rawRows';

type Tx = Prisma.TransactionClient;

/** Every status an order row can hold (see the Order model); list filters accept only these. */
export const orderStatuses = ['pending', 'paid', 'refunded', 'partially_refunded', 'canceled'] as const;

export const orderList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', totalAmount: 'totalAmount', status: 'status', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    status: { kind: 'enum', values: orderStatuses },
    currency: { kind: 'string' },
    storeId: { kind: 'id', prefix: 'store' },
    customerId: { kind: 'id', prefix: 'cus' },
    customerEmail: { kind: 'string', path: ['customer', 'email'], lowerCase: true },
    totalAmount: { kind: 'number' },
    source: { kind: 'string' },
    subscriptionId: { kind: 'id', prefix: 'sub' },
    createdAt: { kind: 'date' },
  },
};

const orderInclude = {
  customer: true,
  items: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.OrderInclude;

/** An order with its customer and its items in position order. */
export type OrderWithItems = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

export async function listOrders(db: Db, scope: Scope, query: ListQuery): Promise<Page<OrderWithItems>> {
  const args = scopedPageArgs<Prisma.OrderFindManyArgs>(scope, query);
  return readPage(db.order.findMany({ ...args, include: orderInclude }), db.order.count({ where: args.where }));
}

/** An order of the caller's account and mode with the payments that paid (or tried to pay) it; not_found otherwise. */
export async function findOrderWithPayments(
  db: Db,
  scope: Scope,
  orderId: string,
): Promise<{ order: OrderWithItems; payments: OrderPayment[] }> {
  const order = await db.order.findFirst({ where: { id: orderId, ...scope }, include: orderInclude });
  if (!order) throw notFound('Order');
  return { order, payments: await paymentsOfOrder(db, order) };
}

export interface OrderLineInput {
  productName: string;
  quantity: number;
  unitAmount: number;
  priceId?: string | null;
  productId?: string | null;
  variantId?: string | null;
}

export interface CreateOrderInput {
  accountId: string;
  mode: Mode;
  storeId: string;
  customerId: string;
  currency: string;
  /** Defaults to paid: orders are created when money has moved. */
  status?: string;
  items: OrderLineInput[];
  /** Defaults to the sum of the items; pass it when discounts apply. */
  subtotal?: number;
  discountTotal?: number;
  paymentId?: string | null;
  checkoutSessionId?: string | null;
  source?: string | null;
  /** The subscription charge it records (unique: one order per charge). */
  chargeKey?: string | null;
  subscriptionId?: string | null;
  /** A subscription charge's order id is derived from its charge key (its payment names it first). */
  id?: string;
}

/** Creates an order and its items (product names snapshotted), e.g. for subscriptions and credits. */
export async function createOrder(tx: Tx, input: CreateOrderInput) {
  if (input.items.length === 0) throw new MoneyError('an order needs at least one item');
  const itemTotals = input.items.map((item) => {
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1)
      throw new MoneyError(`quantity must be a positive integer, got ${item.quantity}`);
    return assertMinorUnits(assertMinorUnits(item.unitAmount) * item.quantity);
  });
  const subtotal = assertMinorUnits(input.subtotal ?? itemTotals.reduce((sum, amount) => sum + amount, 0));
  const discountTotal = assertMinorUnits(input.discountTotal ?? 0);
  if (discountTotal > subtotal || subtotal > maxAmount)
    throw new MoneyError(`order amounts out of range: subtotal ${subtotal}, discount ${discountTotal}`);
  // The order and its items in two INSERT … RETURNING statements (a nested create would re-read both).
  const order = await tx.order.create({
    data: {
      id: input.id ?? newId('order'),
      accountId: input.accountId,
      mode: input.mode,
      storeId: input.storeId,
      customerId: input.customerId,
      checkoutSessionId: input.checkoutSessionId ?? null,
      status: input.status ?? 'paid',
      subtotal,
      discountTotal,
      totalAmount: subtotal - discountTotal,
      currency: input.currency,
      paymentId: input.paymentId ?? null,
      source: input.source ?? null,
      chargeKey: input.chargeKey ?? null,
      subscriptionId: input.subscriptionId ?? null,
    },
  });
  const items = await tx.orderItem.createManyAndReturn({
    data: input.items.map((item, index) => ({
      id: newId('orderItem'),
      orderId: order.id,
      priceId: item.priceId ?? null,
      productId: item.productId ?? null,
      variantId: item.variantId ?? null,
      productName: item.productName,
      quantity: item.quantity,
      unitAmount: item.unitAmount,
      totalAmount: itemTotals[index]!,
      position: index,
    })),
  });
  return { ...order, items: items.sort((a, b) => a.position - b.position) };
}

/** A conflict (CHECKOUT_ALREADY_PAID); in an activity, mark it non-retryable by this name (a retry can never succeed). */
export class CheckoutAlreadyPaidError extends DomainError {
  constructor(readonly checkoutSessionId: string) {
    super(
      'conflict',
      'CHECKOUT_ALREADY_PAID',
      `Checkout session ${checkoutSessionId} is not open (already paid or expired)`,
      { checkoutSessionId },
    );
    this.name = 'CheckoutAlreadyPaidError';
  }
}

/**
 * Marks an open checkout session paid and creates its order, inside the caller's transaction.
 * The status flip is a conditional UPDATE (`WHERE status = 'open'`), so of two concurrent payers
 * exactly one succeeds; the other gets CheckoutAlreadyPaidError (and should roll back/refund).
 */
export async function createOrderForPaidCheckout(
  tx: Tx,
  input: { checkoutSessionId: string; paymentId: string; source?: string },
) {
  const [session] = await tx.checkoutSession.updateManyAndReturn({
    where: { id: input.checkoutSessionId, status: 'open' },
    data: { status: 'paid', paymentId: input.paymentId, paidAt: new Date() },
  });
  if (!session) throw new CheckoutAlreadyPaidError(input.checkoutSessionId);
  const lineItems = await tx.checkoutSessionLineItem.findMany({
    where: { checkoutSessionId: session.id },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
  return createOrder(tx, {
    accountId: session.accountId,
    mode: session.mode,
    storeId: session.storeId,
    customerId: session.customerId,
    currency: session.currency,
    status: 'paid',
    subtotal: session.subtotal,
    discountTotal: session.discountTotal,
    paymentId: input.paymentId,
    checkoutSessionId: session.id,
    source: input.source ?? 'checkout',
    items: lineItems.map((line) => ({
      productName: line.productName,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      priceId: line.priceId,
      productId: line.productId,
      variantId: line.variantId,
    })),
  });
}

export interface CheckoutForPayment {
  checkoutSessionId: string;
  status: 'open' | 'paid' | 'expired';
  /** Amount to charge, minor units. */
  amount: number;
  currency: string;
  subtotal: number;
  discountTotal: number;
  expiresAt: Date;
  store: {
    id: string;
    name: string;
    baseCurrency: string;
    presentmentCurrencies: string[];
    defaultPaymentFlowId: string | null;
  };
  customer: { id: string; email: string; firstName: string | null; lastName: string | null };
}

interface CheckoutSessionRow {
  id: string;
  status: CheckoutForPayment['status'];
  total: number;
  currency: string;
  subtotal: number;
  discountTotal: number;
  expiresAtMs: number;
  store: CheckoutForPayment['store'];
  customer: CheckoutForPayment['customer'];
}

/**
 * What a payment needs to charge a checkout session, scoped to the caller's account and mode
 * (not_found otherwise). A conflict when the session is already paid or expired (`requireOpen`, default).
 */
export async function loadCheckoutForPayment(
  db: Db | Tx,
  input: { accountId: string; mode: Mode; checkoutSessionId: string; requireOpen?: boolean },
): Promise<CheckoutForPayment> {
  // One statement with its store and customer (an include would be three).
  const [session] = await rawRows<CheckoutSessionRow>(db)`
    SELECT s.id, s.status::text AS status, s.total, s.currency, s.subtotal, s.discount_total AS "discountTotal",
           extract(epoch FROM s.expires_at)::float8 * 1000 AS "expiresAtMs",
           jsonb_build_object('id', st.id, 'name', st.name, 'baseCurrency', st.base_currency,
             'presentmentCurrencies', st.presentment_currencies, 'defaultPaymentFlowId', st.default_payment_flow_id) AS store,
           jsonb_build_object('id', c.id, 'email', c.email, 'firstName', c.first_name, 'lastName', c.last_name) AS customer
      FROM checkout_sessions s
      JOIN stores st ON st.id = s.store_id
      JOIN customers c ON c.id = s.customer_id
     WHERE s.id = ${input.checkoutSessionId} AND s.account_id = ${input.accountId} AND s.mode = ${input.mode}::"Mode"`;
  if (!session) throw notFound('Checkout session');
  const expiresAt = new Date(Math.round(session.expiresAtMs));
  const expired = session.status === 'open' && expiresAt.getTime() <= Date.now();
  const status = expired ? 'expired' : session.status;
  if (input.requireOpen !== false && status !== 'open') {
    throw conflict(
      `Checkout session is ${status} and cannot be paid`,
      status === 'paid' ? 'CHECKOUT_ALREADY_PAID' : 'CHECKOUT_EXPIRED',
    );
  }
  return {
    checkoutSessionId: session.id,
    status,
    amount: session.total,
    currency: session.currency,
    subtotal: session.subtotal,
    discountTotal: session.discountTotal,
    expiresAt,
    store: {
      id: session.store.id,
      name: session.store.name,
      baseCurrency: session.store.baseCurrency,
      presentmentCurrencies: session.store.presentmentCurrencies,
      defaultPaymentFlowId: session.store.defaultPaymentFlowId,
    },
    customer: {
      id: session.customer.id,
      email: session.customer.email,
      firstName: session.customer.firstName,
      lastName: session.customer.lastName,
    },
  };
}
