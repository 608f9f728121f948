import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/prisma';
import { createMerchant, type Merchant } from '../helpers/fixtures';
import { sendUntilAnswered } from './client';

/** The cards the chaos clients pay with (the sandbox acquirer's test cards). */
export const chaosCards = {
  approve: '4242424242424242',
  /** Held at the acquirer for CHAOS_HOLD_MS, then approved: a kill lands during the processor call. */
  hold: '4000000000000077',
  decline: '4000000000000002',
} as const;
export type ChaosCard = keyof typeof chaosCards;

export interface ChaosTenant {
  merchant: Merchant;
  /** Acquirer merchant ids of processors A and B (the ledger is read by them). */
  acquirerMerchantIds: [string, string];
  instruments: Record<ChaosCard, string>;
  checkout(): Promise<{ id: string; total: number }>;
}

/**
 * A merchant account paying through two sandbox processors in a cascade flow (A, then B), so a
 * wrong cascade after an unknown outcome shows as a second charge in the acquirer's ledger.
 * One account per client keeps each inside its plan's rate limit, as in `npm run bench`.
 */
export async function createChaosTenant(db: Db, apiUrl: string, holdMs: number): Promise<ChaosTenant> {
  const merchant = await createMerchant(db, { mode: 'test', plan: 'premium' });
  const post = async (path: string, body: unknown) => {
    const answer = await sendUntilAnswered(apiUrl, merchant.token, 'POST', path, body);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body as any;
  };
  const acquirerMerchantIds: [string, string] = [`chaos_a_${randomUUID()}`, `chaos_b_${randomUUID()}`];
  const processors = [];
  for (const [i, merchantId] of acquirerMerchantIds.entries()) {
    processors.push(
      await post('/processors', {
        name: `Chaos ${i === 0 ? 'A' : 'B'}`,
        type: 'sandbox',
        credentials: { merchantId, timeoutDelayMs: String(holdMs) },
        supportedCurrencies: ['EUR'],
        baseCurrency: 'EUR',
      }),
    );
  }
  const flow = await post('/payment-flows', {
    name: 'Chaos cascade',
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
  const store = await post('/stores', { name: 'Chaos shop', baseCurrency: 'EUR', defaultPaymentFlowId: flow.id });
  const product = await post('/products', {
    storeId: store.id,
    name: 'Tea',
    variants: [{ name: 'Pot', prices: [{ unitAmount: 1999, currency: 'EUR', type: 'one_time' }] }],
  });
  const customer = await post('/customers', { email: `chaos-${randomUUID()}@example.com` });
  const expYear = new Date().getUTCFullYear() + 2;
  const instruments = {} as Record<ChaosCard, string>;
  for (const [name, number] of Object.entries(chaosCards) as [ChaosCard, string][]) {
    instruments[name] = (
      await post('/payment-instruments', {
        customerId: customer.id,
        card: { number, expMonth: 12, expYear, cvc: '123' },
      })
    ).id;
  }
  return {
    merchant,
    acquirerMerchantIds,
    instruments,
    async checkout() {
      const session = await post('/checkout-sessions', {
        storeId: store.id,
        customerId: customer.id,
        lineItems: [{ priceId: product.variants[0].prices[0].id, quantity: 1 }],
      });
      return { id: session.id as string, total: session.total as number };
    },
  };
}
