import type { Db } from '../db/prisma';
import type { Mode } from '../domain/apiKeys';
import type { RenewalPaymentPlan, SubscriptionChargeInput, SubscriptionChargeResult } from '../domain/billingState';
import { declinedCharge } from '../domain/subscriptionChargeResult';
import { preparePaymentRequest } from '../payments/paymentRequest';
import type { PaymentWorkflowInput } from '../payments/workflowTypes';
import { businessId } from '../payments/startPayment';

/**
 * The order a subscription charge records, derived from its charge key: the charge's payment names
 * it from its first row (so `payment/succeeded` carries it), and the order is written under this id
 * once the charge is paid. A declined charge never gets its order (the payment drops the id).
 */
export function subscriptionOrderId(accountId: string, mode: Mode, chargeKey: string): string {
  return businessId('order', `${accountId}:${mode}`, chargeKey);
}

export interface LatestChargeLinks {
  /** The order of the newest paid charge. */
  latestOrderId: string | null;
  /** The payment of the newest charge attempt, declined or not (a past-due subscription shows its failed one). */
  latestPaymentId: string | null;
}

/** The newest order and payment of each subscription, in two queries for the whole batch. */
export async function latestChargeLinks(db: Db, subscriptionIds: string[]): Promise<Map<string, LatestChargeLinks>> {
  const links = new Map<string, LatestChargeLinks>(
    subscriptionIds.map((id) => [id, { latestOrderId: null, latestPaymentId: null }]),
  );
  if (subscriptionIds.length === 0) return links;
  const [orders, payments] = await Promise.all([
    db.$queryRaw<{ subscription_id: string; id: string }[]>`
      SELECT DISTINCT ON (subscription_id) subscription_id, id FROM orders
      WHERE subscription_id = ANY(${subscriptionIds}::text[])
      ORDER BY subscription_id, created_at DESC, id DESC`,
    db.$queryRaw<{ subscription_id: string; id: string }[]>`
      SELECT DISTINCT ON (subscription_id) subscription_id, id FROM payments
      WHERE subscription_id = ANY(${subscriptionIds}::text[])
      ORDER BY subscription_id, created_at DESC, id DESC`,
  ]);
  for (const row of orders) links.get(row.subscription_id)!.latestOrderId = row.id;
  for (const row of payments) links.get(row.subscription_id)!.latestPaymentId = row.id;
  return links;
}

/** The payment input for a charge, or the decline that stops it before any payment exists. */
export async function renewalPaymentPlan(db: Db, input: SubscriptionChargeInput): Promise<RenewalPaymentPlan> {
  const [store, instrument] = await Promise.all([
    db.store.findFirst({ where: { id: input.storeId, accountId: input.accountId, mode: input.mode } }),
    db.paymentInstrument.findFirst({
      where: {
        id: input.paymentMethodId,
        accountId: input.accountId,
        mode: input.mode,
        customerId: input.customerId,
      },
    }),
  ]);
  const cardBrand = instrument?.brand ?? null;
  // A charge names no flow: its store's default pays it (paymentRequest.ts).
  const prepared = preparePaymentRequest({
    amount: input.amount,
    paymentInstrumentId: instrument?.id,
    store: { defaultPaymentFlowId: store?.defaultPaymentFlowId ?? null },
  });
  if (prepared.kind === 'rejected') return { kind: 'declined', result: declinedFor(prepared.missing, cardBrand) };
  const payment: PaymentWorkflowInput = {
    paymentId: businessId('payment', `${input.accountId}:${input.mode}`, input.chargeKey),
    accountId: input.accountId,
    mode: input.mode,
    storeId: input.storeId,
    customerId: input.customerId,
    ...prepared.means,
    amount: input.amount,
    currency: input.currency,
    intent: 'purchase',
    initiatedBy: input.initiatedBy,
    source: null,
    orderId: subscriptionOrderId(input.accountId, input.mode, input.chargeKey),
    subscriptionId: input.subscriptionId,
  };
  return { kind: 'start', payment, cardBrand };
}

/**
 * A charge that cannot start: a card that is gone is a hard decline; a store without a default
 * flow is merchant configuration, not the card, so soft (dunning retries once the merchant fixes it).
 */
function declinedFor(missing: 'card' | 'flow', cardBrand: string | null): SubscriptionChargeResult {
  return missing === 'card'
    ? declinedCharge(null, 'payment_method_missing', true, cardBrand)
    : declinedCharge(null, 'no_payment_flow', false, cardBrand);
}
