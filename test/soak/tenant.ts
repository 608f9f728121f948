import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/prisma';
import { createMerchant } from '../helpers/fixtures';

/** The sandbox cards of the mix: frictionless 3DS (any other card), and the challenge card. */
export const soakCards = { frictionless: '4242424242424242', challenge: '4000000000003220' } as const;

export interface Answer {
  status: number;
  body: any;
}

/**
 * One merchant account of the soak: processor A (held in an acquirer outage, so every payment of
 * the cascade flow falls back to B) and B; a 3DS flow on B (the default) and a cascade flow A → B;
 * a customer with both cards; a monthly price to subscribe to; a webhook endpoint at the local receiver.
 */
export async function createSoakTenant(db: Db, apiUrl: string, sandboxUrl: string, receiverUrl: string) {
  const merchant = await createMerchant(db, { mode: 'test', plan: 'premium' });
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    for (;;) {
      const answer = await fetch(`${apiUrl}/api/public/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      if (answer.status === 429) {
        // The account's quota: wait as told, the way a well-behaved client does.
        await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      return { status: answer.status, body: text ? JSON.parse(text) : undefined };
    }
  };
  const post = async (path: string, body: unknown) => {
    const answer = await call('POST', path, body);
    if (answer.status !== 200 && answer.status !== 201)
      throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const acquirerIds = [`soak_a_${randomUUID()}`, `soak_b_${randomUUID()}`];
  const processors = [];
  for (const [i, merchantId] of acquirerIds.entries())
    processors.push(
      await post('/processors', {
        name: `Soak ${i === 0 ? 'A' : 'B'}`,
        type: 'sandbox',
        credentials: { merchantId },
        supportedCurrencies: ['EUR'],
        baseCurrency: 'EUR',
        enable3DS: true,
      }),
    );
  const outage = await fetch(`${sandboxUrl}/acquirer/outage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ merchantId: acquirerIds[0], enabled: true }),
  });
  if (outage.status !== 200) throw new Error(`acquirer outage answered ${outage.status}`);
  const threeDsFlow = await post('/payment-flows', {
    name: 'Soak 3DS',
    strategy: 'single',
    threeDsEnabled: true,
    pickProcessorStrategy: 'ordered',
    fallbackMode: false,
    maxFallbackRetries: 0,
    processorConfigs: [{ processorId: processors[1].id, weight: 100 }],
    fallbackProcessorConfigs: [],
  });
  const cascadeFlow = await post('/payment-flows', {
    name: 'Soak cascade',
    strategy: 'cascade',
    threeDsEnabled: false,
    stickyProcessorEnabled: false,
    pickProcessorStrategy: 'ordered',
    fallbackMode: true,
    maxFallbackRetries: 1,
    processorConfigs: [
      { processorId: processors[0].id, weight: 100 },
      { processorId: processors[1].id, weight: 0 },
    ],
    fallbackProcessorConfigs: [{ processorId: processors[1].id, orderIndex: 0 }],
  });
  const store = await post('/stores', { name: 'Soak shop', baseCurrency: 'EUR', defaultPaymentFlowId: threeDsFlow.id });
  await post('/webhooks', {
    storeId: store.id,
    url: receiverUrl,
    eventTypes: ['payment/succeeded', 'payment/refunded'],
  });
  const customer = await post('/customers', { email: `soak-${randomUUID()}@example.com` });
  const expYear = new Date().getUTCFullYear() + 2;
  const instruments: Record<keyof typeof soakCards, string> = { frictionless: '', challenge: '' };
  for (const [name, number] of Object.entries(soakCards) as [keyof typeof soakCards, string][])
    instruments[name] = (
      await post('/payment-instruments', {
        customerId: customer.id,
        card: { number, expMonth: 12, expYear, cvc: '123' },
      })
    ).id;
  const monthly = await post('/products', {
    storeId: store.id,
    name: 'Soak club',
    variants: [
      { name: 'Monthly', prices: [{ unitAmount: 900, currency: 'EUR', type: 'recurring', interval: 'month' }] },
    ],
  });
  const monthlyPriceId: string = monthly.variants[0].prices[0].id;
  return {
    call,
    /** POST /subscriptions: its first period is charged at once, then its workflow waits a month (stays open). */
    subscribe: () =>
      call('POST', '/subscriptions', {
        storeId: store.id,
        customerId: customer.id,
        priceId: monthlyPriceId,
        paymentMethodId: instruments.frictionless,
      }),
    /** POST /payments/process: a purchase of `amount` EUR cents with a card, through a flow. */
    pay: (card: keyof typeof soakCards, flow: 'threeDs' | 'cascade', amount: number) =>
      call('POST', '/payments/process', {
        storeId: store.id,
        customerId: customer.id,
        paymentInstrumentId: instruments[card],
        amount,
        currency: 'EUR',
        paymentFlowId: flow === 'cascade' ? cascadeFlow.id : threeDsFlow.id,
      }),
  };
}

export type SoakTenant = Awaited<ReturnType<typeof createSoakTenant>>;
