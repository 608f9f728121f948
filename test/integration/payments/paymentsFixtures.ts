import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createPaymentAuthorizeActivities } from '../../../activities/payments/authorize';
import { newId } from '../../../src/domain/ids';
import type { PaymentWorkflowInput } from '../../../src/payments/workflowTypes';
import { call, type Harness } from '../../helpers/harness';
import { armHold, type AcquirerHold } from '../../helpers/acquirerHolds';
import { until } from '../../helpers/until';
import { createMerchant, type Merchant } from '../../helpers/fixtures';
import { api, createCustomer, createProduct, ok } from '../commerce/commerceHelpers';

export const cards = {
  approve: '4242424242424242',
  hardDecline: '4000000000000002',
  softDecline: '4000000000000101',
  technical: '4000000000000119',
  timeout: '4000000000000077',
  dispute: '4000000000000259',
  errorAfterCharge: '4000000000000515',
};

export interface PaymentTenant {
  merchant: Merchant;
  token: string;
  storeId: string;
  priceId: string;
  customerId: string;
  customerEmail: string;
  /** Acquirer merchant ids of the processors, by processor id (the ledger is filtered by them). */
  acquirerMerchant: Record<string, string>;
  processorIds: string[];
  flowId: string;
  instrument(card: string, customerId?: string): Promise<string>;
  checkout(customerId?: string): Promise<{ id: string; total: number; currency: string }>;
  ledger(processorId: string, query?: Record<string, string>): Promise<any[]>;
  outage(processorId: string, enabled: boolean): Promise<void>;
  /** Holds the processor's next authorization (matching `match`) at the acquirer until released. */
  hold(processorId: string, match?: { idempotencyKey?: string; cardLast4?: string }): Promise<AcquirerHold>;
}

/**
 * A merchant with a store (default flow set), one 19.99 EUR product, a customer, `processors`
 * sandbox processors (each its own acquirer merchant id) and a cascade flow over them in order.
 */
export async function createPaymentTenant(
  harness: Harness,
  options: { processors?: number; credentials?: Record<string, string>; flow?: Record<string, unknown> } = {},
): Promise<PaymentTenant> {
  const merchant = await createMerchant(harness.db, { mode: 'test', plan: 'premium' });
  const token = merchant.token;
  const acquirerMerchant: Record<string, string> = {};
  const processorIds: string[] = [];
  for (let i = 0; i < (options.processors ?? 1); i++) {
    const merchantId = `m_${randomUUID()}`;
    const processor = await ok(harness, 'POST', '/processors', token, {
      name: `P${i}`,
      type: 'sandbox',
      credentials: { merchantId, ...options.credentials },
      supportedCurrencies: ['EUR', 'USD'],
      baseCurrency: 'EUR',
    });
    acquirerMerchant[processor.id] = merchantId;
    processorIds.push(processor.id);
  }
  const flow = await ok(harness, 'POST', '/payment-flows', token, {
    name: 'Cascade',
    strategy: 'cascade',
    threeDsEnabled: false,
    stickyProcessorEnabled: false,
    pickProcessorStrategy: 'ordered',
    fallbackMode: true,
    maxFallbackRetries: Math.max(0, processorIds.length - 1),
    processorConfigs: processorIds.map((processorId, i) => ({ processorId, weight: i === 0 ? 100 : 0 })),
    fallbackProcessorConfigs: processorIds.slice(1).map((processorId, orderIndex) => ({ processorId, orderIndex })),
    ...options.flow,
  });
  const store = await ok(harness, 'POST', '/stores', token, {
    name: 'Shop',
    baseCurrency: 'EUR',
    presentmentCurrencies: ['USD'],
    defaultPaymentFlowId: flow.id,
  });
  const product = await createProduct(harness, token, store.id, [{ unitAmount: 1999, currency: 'EUR' }]);
  const customerEmail = `buyer-${randomUUID()}@example.com`;
  const customer = await createCustomer(harness, token, customerEmail);
  const nextYear = new Date().getUTCFullYear() + 1;
  return {
    merchant,
    token,
    storeId: store.id,
    priceId: product.variants[0].prices[0].id,
    customerId: customer.id,
    customerEmail,
    acquirerMerchant,
    processorIds,
    flowId: flow.id,
    async instrument(card, customerId = customer.id) {
      const created = await ok(harness, 'POST', '/payment-instruments', token, {
        customerId,
        card: { number: card, expMonth: 12, expYear: nextYear, cvc: '123' },
      });
      return created.id as string;
    },
    async checkout(customerId = customer.id) {
      const session = await ok(harness, 'POST', '/checkout-sessions', token, {
        storeId: store.id,
        customerId,
        lineItems: [{ priceId: product.variants[0].prices[0].id, quantity: 1 }],
      });
      return { id: session.id, total: session.total, currency: session.currency };
    },
    async ledger(processorId, query = {}) {
      const params = new URLSearchParams({ merchantId: acquirerMerchant[processorId]!, ...query });
      const answer = await fetch(`${harness.sandboxUrl}/acquirer/ledger?${params.toString()}`);
      return ((await answer.json()) as { entries: any[] }).entries;
    },
    async outage(processorId, enabled) {
      await fetch(`${harness.sandboxUrl}/acquirer/outage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchantId: acquirerMerchant[processorId], enabled }),
      });
    },
    hold: (processorId, match = {}) =>
      armHold(harness.sandboxUrl, { merchantId: acquirerMerchant[processorId]!, ...match }),
  };
}

/** The payment workflow's input for a new checkout of the tenant, paid by the shopper with `card` (for starting the workflow directly). */
export async function checkoutPaymentInput(t: PaymentTenant, card: string): Promise<PaymentWorkflowInput> {
  const checkout = await t.checkout();
  return {
    paymentId: newId('payment'),
    accountId: t.merchant.accountId,
    mode: 'test',
    storeId: t.storeId,
    customerId: t.customerId,
    paymentInstrumentId: await t.instrument(card),
    amount: checkout.total,
    currency: checkout.currency,
    intent: 'purchase',
    initiatedBy: 'customer',
    source: 'checkout',
    paymentFlowId: t.flowId,
    checkoutSessionId: checkout.id,
  };
}

export function payV2(
  harness: Harness,
  token: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return call(harness, 'POST', `${api}/checkout/pay-v2`, { token, body, headers });
}

/** What stands charged in these acquirer ledger entries: approved authorizations minus reversals. */
export function netCharged(entries: { operation: string; outcome: string; amount: number }[]): number {
  const sum = (operation: string, outcome: string) =>
    entries.filter((e) => e.operation === operation && e.outcome === outcome).reduce((total, e) => total + e.amount, 0);
  return sum('authorize', 'approved') - sum('reversal', 'succeeded');
}

/** Polls GET /payments/{id} until the payment leaves `processing`. */
export async function untilSettled(
  harness: Harness,
  token: string,
  paymentId: string,
  timeoutMs = 30_000,
): Promise<any> {
  let last: { status: number; body: any } | undefined;
  try {
    return await until(async () => {
      last = await call(harness, 'GET', `${api}/payments/${paymentId}`, { token });
      return last.status === 200 && last.body.status !== 'processing' ? last.body : undefined;
    }, timeoutMs);
  } catch {
    throw new Error(`payment ${paymentId} still ${last?.body?.status ?? last?.status} after ${timeoutMs} ms`);
  }
}

/**
 * How many tries each processor call of the payment took, in attempt order: the claim rows the
 * authorization writes before each try goes out (counted across workers, local or not).
 */
export async function authorizeTries(harness: Harness, paymentId: string): Promise<number[]> {
  const claims = await harness.db.authorizationClaim.findMany({
    where: { paymentId },
    orderBy: { attemptNumber: 'asc' },
    select: { tries: true },
  });
  return claims.map((claim) => claim.tries);
}

/** The tenant's API with a fresh Idempotency-Key per call, and a card payment in EUR by `POST /payments/process`. */
export function tenantApi(harness: Harness, t: PaymentTenant) {
  const post = (path: string, body: Record<string, unknown>) =>
    call(harness, 'POST', `${api}${path}`, { token: t.token, body, headers: { 'idempotency-key': randomUUID() } });
  const process = async (card: string, amount: number, mode: 'purchase' | 'auth') =>
    post('/payments/process', {
      storeId: t.storeId,
      currency: 'EUR',
      customerId: t.customerId,
      amount,
      mode,
      paymentInstrumentId: await t.instrument(card),
    });
  return { post, process };
}

/** A tenant whose first processor is a `stripe` one on `credentials` (an account at the Stripe simulator). */
export async function createStripeTenant(
  harness: Harness,
  credentials: Record<string, string>,
): Promise<PaymentTenant> {
  const t = await createPaymentTenant(harness);
  await ok(harness, 'POST', '/processors/update', t.token, {
    processorId: t.processorIds[0],
    updatedData: { name: 'Stripe', type: 'stripe', credentials },
  });
  return t;
}

/**
 * The authorize activities on the harness's dependencies, and an environment to run one try of
 * them as a worker does (attempt 1). Failing is often the point: their failure logs stay out.
 */
export function authorizeActivitiesOn(harness: Harness) {
  const activities = createPaymentAuthorizeActivities({
    db: harness.db,
    logger: harness.logger,
    config: harness.config,
    sandboxUrl: harness.sandboxUrl,
  });
  const env = new MockActivityEnvironment({ attempt: 1 }, { logger: new DefaultLogger('ERROR') });
  return { activities, env };
}
