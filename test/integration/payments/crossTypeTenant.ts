import { createMerchant } from '../../helpers/fixtures';
import type { Harness } from '../../helpers/harness';
import { createCustomer, createProduct, ok } from '../commerce/commerceHelpers';
import { payV2, untilSettled } from './paymentsFixtures';

/** One processor of a cross-type cascade, created through `POST /processors`. */
export interface TypedProcessor {
  name: string;
  type: string;
  credentials: Record<string, string>;
}

/**
 * A merchant whose store pays through an ordered cascade over `processors` (each of its own type),
 * with one 19.99 product per currency, and `pay` running a checkout to its end. Every processor
 * gets every currency; routing still skips a type that does not take one (capabilities.currencies).
 */
export async function crossTypeTenant(
  harness: Harness,
  processors: TypedProcessor[],
  currencies: readonly string[] = ['EUR'],
): Promise<{ processorIds: string[]; pay(card: string, options?: PayOptions): Promise<any> }> {
  const merchant = await createMerchant(harness.db, { mode: 'test', plan: 'premium' });
  const token = merchant.token;
  const processorIds: string[] = [];
  for (const { name, type, credentials } of processors) {
    const created = await ok(harness, 'POST', '/processors', token, {
      name,
      type,
      credentials,
      supportedCurrencies: currencies,
      baseCurrency: 'EUR',
    });
    processorIds.push(created.id as string);
  }
  const flow = await ok(harness, 'POST', '/payment-flows', token, {
    name: processors.map((p) => p.name).join(' then '),
    strategy: 'cascade',
    threeDsEnabled: false,
    stickyProcessorEnabled: false,
    pickProcessorStrategy: 'ordered',
    fallbackMode: true,
    maxFallbackRetries: processorIds.length - 1,
    processorConfigs: processorIds.map((processorId, i) => ({ processorId, weight: i === 0 ? 100 : 0 })),
    fallbackProcessorConfigs: processorIds.slice(1).map((processorId, orderIndex) => ({ processorId, orderIndex })),
  });
  const store = await ok(harness, 'POST', '/stores', token, {
    name: 'Shop',
    baseCurrency: 'EUR',
    presentmentCurrencies: currencies.filter((currency) => currency !== 'EUR'),
    defaultPaymentFlowId: flow.id,
  });
  const product = await createProduct(
    harness,
    token,
    store.id,
    currencies.map((currency) => ({ unitAmount: 1999, currency })),
  );
  const customer = await createCustomer(harness, token);
  const nextYear = new Date().getUTCFullYear() + 1;
  return {
    processorIds,
    async pay(card, { currency = 'EUR', cardholderName } = {}) {
      const prices = product.variants[0].prices as { id: string; currency: string }[];
      const session = await ok(harness, 'POST', '/checkout-sessions', token, {
        storeId: store.id,
        customerId: customer.id,
        currency,
        lineItems: [{ priceId: prices.find((p) => p.currency === currency)!.id, quantity: 1 }],
      });
      const instrument = await ok(harness, 'POST', '/payment-instruments', token, {
        customerId: customer.id,
        card: {
          number: card,
          expMonth: 12,
          expYear: nextYear,
          cvc: '123',
          ...(cardholderName ? { cardholderName } : {}),
        },
      });
      const answer = await payV2(harness, token, { checkoutSessionId: session.id, paymentInstrumentId: instrument.id });
      expect([200, 202, 402]).toContain(answer.status);
      return untilSettled(harness, token, answer.body.payment?.id ?? answer.body.data?.paymentId, 40_000);
    },
  };
}

export interface PayOptions {
  currency?: string;
  cardholderName?: string;
}

/** A payment's attempts as [number, processor, outcome, error code]. */
export const attemptsOf = (detail: any): unknown[][] =>
  detail.attempts.map((a: any) => [a.attemptNumber, a.processorId, a.outcome, a.errorCode]);
