import { formatAmount, lineTitle, shopperLanguage } from '../checkout/hostedPage/pageData';
import type { EventEmailRows } from './eventEmailRows';

/** The e-mails an event sends to the customer, by the store template's event type. */
export type EventEmailKind = 'order/paid' | 'subscription/renewed' | 'subscription/payment_failed';

/** Input of `eventEmailWorkflow` and of its `sendEventEmail` activity. */
export interface EventEmailInput {
  eventId: string;
  kind: EventEmailKind;
}

export type EventEmailOutcome =
  | { outcome: 'sent'; sentEmailId: string; templateId: string | null }
  | { outcome: 'already_sent'; sentEmailId: string }
  | { outcome: 'skipped'; reason: string };

/**
 * Which e-mail an event sends, if any. `order/paid` is a receipt only for an order paid by a card
 * payment: a subscription charge records it too, and its customer gets the renewal receipt
 * instead; an order paid with credits moved no money. Samples of the test trigger never mail a
 * customer.
 */
export function emailKindOfEvent(event: { eventType: string; properties?: unknown }): EventEmailKind | null {
  const properties = (event.properties ?? {}) as Record<string, unknown>;
  if (properties.sample === true) return null;
  switch (event.eventType) {
    case 's_order_paid':
      return typeof properties.paymentId === 'string' ? 'order/paid' : null;
    case 's_subscription_renewed':
      return 'subscription/renewed';
    case 's_subscription_payment_failed':
      return 'subscription/payment_failed';
    default:
      return null;
  }
}

/** One workflow per (event, e-mail): a repeated start is rejected, so a repeated dispatch is a no-op. */
export function eventEmailWorkflowId(eventId: string, kind: EventEmailKind): string {
  return `eml_${eventId}_${kind.replace('/', '_')}`;
}

/** The customer's name as templates get it: null when the customer gave none. */
export function customerName(customer: { firstName: string | null; lastName: string | null }): string | null {
  return [customer.firstName, customer.lastName].filter(Boolean).join(' ') || null;
}

interface ReceiptLine {
  productName: string;
  titleTrans?: unknown;
  quantity: number;
  amount: number;
}

/**
 * What an order receipt's template gets: amounts formatted for the shopper's language (the
 * checkout session's `locale`, else English), line titles in that language where the session's
 * lines have them.
 */
export function orderReceiptData(input: {
  store: { name: string };
  customer: { email: string; firstName: string | null; lastName: string | null };
  order: { id: string; totalAmount: number; subtotal: number; discountTotal: number; currency: string };
  locale: string | null;
  lines: ReceiptLine[];
}) {
  const language = shopperLanguage(input.locale, undefined);
  const money = (amount: number) => formatAmount(amount, input.order.currency, language);
  return {
    store: { name: input.store.name },
    customer: { email: input.customer.email, name: customerName(input.customer) },
    language,
    order: {
      id: input.order.id,
      total: money(input.order.totalAmount),
      subtotal: money(input.order.subtotal),
      discount: input.order.discountTotal > 0 ? money(input.order.discountTotal) : null,
      currency: input.order.currency,
      lines: input.lines.map((line) => ({
        title: lineTitle({ productName: line.productName, titleTrans: line.titleTrans ?? null }, language),
        quantity: line.quantity,
        amount: money(line.amount),
      })),
    },
  };
}

/**
 * What a renewal receipt's or failed-renewal notice's template gets. `payOnSessionLink` is the
 * failed renewal's signed portal offer link (its session may pay that renewal); the engine knows
 * no address of the store's portal page, so templates put it into theirs.
 */
export function subscriptionEmailData(input: {
  store: { name: string };
  customer: { email: string; firstName: string | null; lastName: string | null };
  subscription: { id: string; amount: number; currency: string; nextBillingAt: string | Date | null };
  locale: string | null;
  payOnSessionLink?: string | null;
  nextRetryAt?: string | null;
  /** What the charge was (`first_charge`, `renewal`, `trial_conversion`, `dunning_retry`, `on_session_recovery`). */
  reason?: string | null;
}) {
  const language = shopperLanguage(input.locale, undefined);
  const { subscription } = input;
  return {
    store: { name: input.store.name },
    customer: { email: input.customer.email, name: customerName(input.customer) },
    language,
    subscription: {
      id: subscription.id,
      amount: formatAmount(subscription.amount, subscription.currency, language),
      nextBillingDate: isoDay(subscription.nextBillingAt),
      nextRetryDate: isoDay(input.nextRetryAt ?? null),
      reason: input.reason ?? null,
    },
    payOnSessionLink: input.payOnSessionLink ?? null,
  };
}

function isoDay(value: string | Date | null): string | null {
  if (value === null) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

export interface BuiltEmail {
  storeId: string;
  recipient: string;
  data: Record<string, unknown>;
}

/** The recipient and the template data of an event's e-mail, from the rows it names. */
export function emailOfRows(kind: EventEmailKind, rows: EventEmailRows): BuiltEmail | null {
  const { store, customer } = rows;
  if (!store || !customer?.email) return null;
  if (kind === 'order/paid') return rows.order ? orderReceipt(rows.order, store, customer) : null;
  const { subscription } = rows;
  if (!subscription) return null;
  const properties = rows.event?.properties ?? {};
  const data = subscriptionEmailData({
    store,
    customer,
    locale: rows.lastLocale,
    subscription: {
      id: subscription.id,
      amount: typeof properties.amount === 'number' ? properties.amount : subscription.price,
      currency: typeof properties.currency === 'string' ? properties.currency : subscription.currency,
      nextBillingAt:
        typeof properties.nextBillingAt === 'string' ? properties.nextBillingAt : subscription.nextBillingAt,
    },
    payOnSessionLink: typeof properties.payOnSessionLink === 'string' ? properties.payOnSessionLink : null,
    nextRetryAt: typeof properties.nextRetryAt === 'string' ? properties.nextRetryAt : null,
    reason: typeof properties.reason === 'string' ? properties.reason : null,
  });
  return { storeId: store.id, recipient: customer.email, data };
}

function orderReceipt(
  order: NonNullable<EventEmailRows['order']>,
  store: NonNullable<EventEmailRows['store']>,
  customer: NonNullable<EventEmailRows['customer']>,
): BuiltEmail {
  const { sessionLines } = order;
  const data = orderReceiptData({
    store,
    customer,
    order,
    locale: order.locale,
    // An order's items are its session's lines in the same order: their translated titles carry over.
    lines: order.items.map((item, index) => ({
      productName: item.productName,
      titleTrans: sessionLines[index]?.productName === item.productName ? sessionLines[index].titleTrans : null,
      quantity: item.quantity,
      amount: item.totalAmount,
    })),
  });
  return { storeId: store.id, recipient: customer.email, data };
}
