import type { Db } from '../../src/db/prisma';
import { createMerchant } from '../helpers/fixtures';

/** A merchant ready to take frictionless card payments: store (default flow), product, customer, card. */
export async function createBenchTenant(db: Db, apiUrl: string) {
  const merchant = await createMerchant(db, { mode: 'test', plan: 'premium' });
  const post = async (path: string, body: unknown) => {
    const answer = await fetch(`${apiUrl}/api/public/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as any;
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const processor = await post('/processors', {
    name: 'Bench acquirer',
    type: 'sandbox',
    credentials: { merchantId: `bench_${Date.now()}` },
    supportedCurrencies: ['EUR'],
    baseCurrency: 'EUR',
  });
  const flow = await post('/payment-flows', {
    name: 'Bench',
    strategy: 'cascade',
    pickProcessorStrategy: 'weighted',
    fallbackMode: true,
    maxFallbackRetries: 0,
    processorConfigs: [{ processorId: processor.id, weight: 100 }],
    fallbackProcessorConfigs: [],
  });
  const store = await post('/stores', { name: 'Bench shop', baseCurrency: 'EUR', defaultPaymentFlowId: flow.id });
  const product = await post('/products', {
    storeId: store.id,
    name: 'Coffee',
    variants: [{ name: 'Cup', prices: [{ unitAmount: 350, currency: 'EUR', type: 'one_time' }] }],
  });
  const customer = await post('/customers', { email: `bench-${Date.now()}@example.com` });
  const instrument = await post('/payment-instruments', {
    customerId: customer.id,
    card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' },
  });
  return {
    merchant,
    storeId: store.id as string,
    flowId: flow.id as string,
    customerId: customer.id as string,
    instrumentId: instrument.id as string,
    /** Open checkout sessions, made before timing starts. */
    async checkouts(count: number): Promise<{ id: string; total: number; currency: string }[]> {
      const sessions = [];
      for (let i = 0; i < count; i++) {
        const session = await post('/checkout-sessions', {
          storeId: store.id,
          customerId: customer.id,
          lineItems: [{ priceId: product.variants[0].prices[0].id, quantity: 1 }],
        });
        sessions.push({ id: session.id, total: session.total, currency: session.currency });
      }
      return sessions;
    },
  };
}

/**
 * Runs `jobs` with `concurrency` workers; returns the latency in ms of each job that succeeded
 * (`run` answers true), how many ran, and the wall time.
 */
export async function drive<T>(jobs: T[], concurrency: number, run: (job: T) => Promise<boolean>) {
  const latencies: number[] = [];
  let ran = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const t0 = performance.now();
        const succeeded = await run(job);
        ran++;
        if (succeeded) latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, ran, wallMs: performance.now() - started };
}

export function summary(label: string, result: { latencies: number[]; ran: number; wallMs: number }) {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
  return {
    label,
    count: result.ran,
    succeeded: sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    perSecond: (sorted.length / result.wallMs) * 1000,
  };
}
