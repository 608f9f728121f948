import { randomUUID } from 'node:crypto';
import {
  createPaymentClient,
  verifyWebhook,
  webhookSignatureHeader,
  type PaymentClient,
} from '../../../clients/typescript/src';
import { createPartner } from '../../helpers/fixtures';
import { runCommand } from '../../helpers/runCommand';
import { useHarness } from '../../helpers/useHarness';
import { cards } from '../payments/paymentsFixtures';
import { startReceiver, until, type Receiver } from '../webhooks/webhookReceiver';

/** What an openapi-fetch call gives back, with the data a 2xx carries; anything else fails the test with the answer. */
function dataOf<T>(result: { data?: T; error?: unknown; response: Response }, status = 200): T {
  if (result.response.status !== status || result.data === undefined)
    throw new Error(`expected ${status}, got ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

/**
 * The typed client (clients/typescript) against the running engine, as an integrator uses it:
 * a partner key makes a merchant and its CRM key, which sets up a processor, a flow, a store, a
 * product, a customer and a card, pays a checkout with pay-v2, refunds it, and receives the signed
 * `payment/refunded` delivery on a loopback receiver that checks it with `verifyWebhook`.
 */
describe('the typed client, end to end', () => {
  const harness = useHarness();
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  it('is generated from the document the running engine serves', async () => {
    const served = await (await fetch(`${harness.url}/openapi.json`)).json();
    const offline = await runCommand('node', [
      '--import',
      'tsx',
      'clients/typescript/scripts/generate.ts',
      '--document',
    ]);
    expect(offline.stderr).toBe('');
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout)).toEqual(served);
  });

  it('creates a merchant, store, processor and flow, pays, refunds, and verifies the signed webhook', async () => {
    const partner = await createPartner(harness.db, { mode: 'test' });
    const asPartner = createPaymentClient({ baseUrl: harness.url, apiKey: partner.token });
    const merchant = dataOf(
      await asPartner.POST('/api/public/v1/partner/merchants', {
        body: { name: 'Typed Client Shop', plan: 'premium' },
      }),
      201,
    );
    const key = dataOf(
      await asPartner.POST('/api/public/v1/partner/merchants/{accountId}/keys', {
        params: { path: { accountId: merchant.id } },
        body: { name: 'integration', role: 'org:admin', mode: 'test' },
      }),
      201,
    );
    expect(key.token).toMatch(/^sk_crm_test_/);
    const client: PaymentClient = createPaymentClient({ baseUrl: harness.url, apiKey: key.token! });

    const processor = dataOf(
      await client.POST('/api/public/v1/processors', {
        body: {
          name: 'Sandbox',
          type: 'sandbox',
          credentials: { merchantId: `m_${randomUUID()}` },
          supportedCurrencies: ['EUR'],
          baseCurrency: 'EUR',
        },
      }),
    );
    const flow = dataOf(
      await client.POST('/api/public/v1/payment-flows', {
        body: {
          name: 'Single',
          strategy: 'cascade',
          processorConfigs: [{ processorId: processor.id, weight: 100 }],
        },
      }),
    );
    const store = dataOf(
      await client.POST('/api/public/v1/stores', {
        body: { name: 'Shop', baseCurrency: 'EUR', presentmentCurrencies: [], defaultPaymentFlowId: flow.id },
      }),
    );
    expect(store.defaultPaymentFlowId).toBe(flow.id);
    const endpoint = dataOf(
      await client.POST('/api/public/v1/webhooks', {
        body: { storeId: store.id, url: receiver.url, eventTypes: ['payment/refunded'] },
      }),
      201,
    );
    expect(endpoint.secret).toMatch(/^whsec_/);
    const secret = endpoint.secret ?? ''; // shown in the creation's answer (only a replay leaves it out)

    const product = dataOf(
      await client.POST('/api/public/v1/products', {
        body: {
          storeId: store.id,
          name: 'Socks',
          variants: [{ name: 'Default', prices: [{ unitAmount: 1999, currency: 'EUR', type: 'one_time' }] }],
        },
      }),
    );
    const customer = dataOf(
      await client.POST('/api/public/v1/customers', { body: { email: `typed-${randomUUID()}@example.com` } }),
    );
    const card = dataOf(
      await client.POST('/api/public/v1/payment-instruments', {
        body: {
          customerId: customer.id,
          card: { number: cards.approve, expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: '123' },
        },
      }),
    );
    const session = dataOf(
      await client.POST('/api/public/v1/checkout-sessions', {
        body: {
          storeId: store.id,
          customerId: customer.id,
          lineItems: [{ priceId: product.variants[0]!.prices[0]!.id, quantity: 1 }],
        },
      }),
    );
    expect(session.total).toBe(1999);

    const paid = dataOf(
      await client.POST('/api/public/v1/checkout/pay-v2', {
        body: { checkoutSessionId: session.id, paymentInstrumentId: card.id },
      }),
    );
    expect(paid.payment).toMatchObject({ status: 'succeeded', amount: 1999, currency: 'EUR' });
    const paymentId = paid.payment.id;

    // A refund above what was captured is a typed error answer, not an exception.
    const tooMuch = await client.POST('/api/public/v1/payments/refund', { body: { paymentId, amount: 5000 } });
    expect(tooMuch.response.status).toBe(409);
    expect(tooMuch.data).toBeUndefined();
    expect(tooMuch.error?.code).toBe('REFUND_EXCEEDS_CAPTURED');

    const refund = dataOf(
      await client.POST('/api/public/v1/payments/refund', {
        params: { header: { 'idempotency-key': randomUUID() } },
        body: { paymentId, amount: 500, reason: 'one pair was torn' },
      }),
    );
    expect(refund).toMatchObject({ paymentId, amount: 500, currency: 'EUR', status: 'succeeded' });
    const detail = dataOf(await client.GET('/api/public/v1/payments/{paymentId}', { params: { path: { paymentId } } }));
    expect(detail).toMatchObject({ status: 'partially_refunded', amountRefunded: 500 });
    expect(detail.refunds.map((r) => r.id)).toEqual([refund.id]);

    const delivery = await until(
      () => receiver.received.find((request) => request.headers['x-webhook-event-type'] === 'payment/refunded'),
      30_000,
    );
    const header = delivery.headers[webhookSignatureHeader];
    const verified = verifyWebhook(delivery.body, header, secret);
    expect(verified).toMatchObject({ valid: true });
    if (!verified.valid) return;
    expect(verified.event).toMatchObject({
      id: delivery.headers['x-webhook-event-id'],
      type: 'payment/refunded',
      mode: 'test',
      data: { eventType: 's_payment_refunded', storeId: store.id, properties: { paymentId } },
    });

    const tampered = delivery.body.replace('"amount":500', '"amount":1999');
    expect(tampered).not.toBe(delivery.body);
    expect(verifyWebhook(tampered, header, secret)).toEqual({ valid: false, reason: 'no_matching_signature' });
    expect(verifyWebhook(delivery.body, header, `whsec_${randomUUID()}`)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
  });
});

/** Compile-time only (never called): the generated types refuse what the engine would refuse. */
export function _typeChecks(client: PaymentClient): void {
  // @ts-expect-error amounts are integers in minor units, never strings
  void client.POST('/api/public/v1/payments/refund', { body: { paymentId: 'pay_1', amount: '5.00' } });
  // @ts-expect-error no such path
  void client.GET('/api/public/v1/payment');
  // @ts-expect-error the path parameter is required
  void client.GET('/api/public/v1/payments/{paymentId}', { params: { path: {} } });
}
