import { randomUUID } from 'node:crypto';
import { createMerchant } from '../../helpers/fixtures';
import { startHarness, type Harness } from '../../helpers/harness';
import { createCustomer, createProduct, ok } from '../commerce/commerceHelpers';
import { stripeKit } from '../processors/kits/stripe';
import type { KitAccount } from '../processors/kits/types';
import { netCharged, payV2, untilSettled } from './paymentsFixtures';

/**
 * A cascade across processor types, through the engine: a flow of stripe (the Stripe simulator)
 * then sandbox (the sandbox acquirer) falls back on soft declines and technical failures exactly
 * as between two sandboxes, with at most one charge standing in the end.
 */
const stripe = stripeKit();

describe('cascade stripe → sandbox (Postgres, dev server, Stripe simulator, sandbox acquirer)', () => {
  let harness: Harness;
  beforeAll(async () => {
    await stripe.start();
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.stop();
    await stripe.stop();
  });

  async function tenant() {
    const merchant = await createMerchant(harness.db, { mode: 'test', plan: 'premium' });
    const token = merchant.token;
    const stripeAccount: KitAccount = await stripe.account({ timeoutMs: 5000, holdMs: 0 });
    const acquirerMerchant = `m_${randomUUID()}`;
    const processor = (name: string, type: string, credentials: Record<string, string>) =>
      ok(harness, 'POST', '/processors', token, {
        name,
        type,
        credentials,
        // The merchant enables KWD on both; only the sandbox's type takes it.
        supportedCurrencies: ['EUR', 'KWD'],
        baseCurrency: 'EUR',
      });
    const stripeProcessor = await processor('Stripe', 'stripe', stripeAccount.credentials);
    const sandboxProcessor = await processor('Sandbox', 'sandbox', { merchantId: acquirerMerchant });
    const flow = await ok(harness, 'POST', '/payment-flows', token, {
      name: 'Stripe then sandbox',
      strategy: 'cascade',
      threeDsEnabled: false,
      stickyProcessorEnabled: false,
      pickProcessorStrategy: 'ordered',
      fallbackMode: true,
      maxFallbackRetries: 1,
      processorConfigs: [
        { processorId: stripeProcessor.id, weight: 100 },
        { processorId: sandboxProcessor.id, weight: 0 },
      ],
      fallbackProcessorConfigs: [{ processorId: sandboxProcessor.id, orderIndex: 0 }],
    });
    const store = await ok(harness, 'POST', '/stores', token, {
      name: 'Shop',
      baseCurrency: 'EUR',
      presentmentCurrencies: ['KWD'],
      defaultPaymentFlowId: flow.id,
    });
    const product = await createProduct(harness, token, store.id, [
      { unitAmount: 1999, currency: 'EUR' },
      { unitAmount: 1999, currency: 'KWD' },
    ]);
    const customer = await createCustomer(harness, token);
    const sandboxLedger = async (reference: string) => {
      const query = new URLSearchParams({ merchantId: acquirerMerchant, reference });
      return ((await (await fetch(`${harness.sandboxUrl}/acquirer/ledger?${query.toString()}`)).json()) as any).entries;
    };
    return {
      stripeId: stripeProcessor.id as string,
      sandboxId: sandboxProcessor.id as string,
      stripeAccount,
      sandboxLedger,
      async pay(card: string, currency = 'EUR') {
        const prices = product.variants[0].prices as { id: string; currency: string }[];
        const session = await ok(harness, 'POST', '/checkout-sessions', token, {
          storeId: store.id,
          customerId: customer.id,
          currency,
          lineItems: [{ priceId: prices.find((p) => p.currency === currency)!.id, quantity: 1 }],
        });
        const nextYear = new Date().getUTCFullYear() + 1;
        const instrument = await ok(harness, 'POST', '/payment-instruments', token, {
          customerId: customer.id,
          card: { number: card, expMonth: 12, expYear: nextYear, cvc: '123' },
        });
        const answer = await payV2(harness, token, {
          checkoutSessionId: session.id,
          paymentInstrumentId: instrument.id,
        });
        expect([200, 202, 402]).toContain(answer.status);
        return untilSettled(harness, token, answer.body.payment?.id ?? answer.body.data?.paymentId, 40_000);
      },
    };
  }

  const attemptsOf = (detail: any) =>
    detail.attempts.map((a: any) => [a.attemptNumber, a.processorId, a.outcome, a.errorCode]);

  it('falls back to the sandbox on a soft decline at Stripe; one charge in the end', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000005100');
    expect(detail).toMatchObject({ status: 'succeeded', processorId: t.sandboxId, amountCaptured: 1999 });
    expect(attemptsOf(detail)).toEqual([
      [1, t.stripeId, 'declined', 'do_not_honor'],
      [2, t.sandboxId, 'approved', null],
    ]);
    expect(await t.stripeAccount.netCharged(detail.id)).toBe(0);
    expect(netCharged(await t.sandboxLedger(detail.id))).toBe(1999);
  });

  it('Stripe charged but answered 500: the lookup finds the charge, it is reversed, then the sandbox charges', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000005001');
    expect(detail).toMatchObject({ status: 'succeeded', processorId: t.sandboxId });
    expect(attemptsOf(detail)).toEqual([
      [1, t.stripeId, 'error', 'processor_error'],
      [2, t.sandboxId, 'approved', null],
    ]);
    expect(detail.attempts[0].message).toContain('reversed by idempotency key (1999 reversed)');
    expect(await t.stripeAccount.netCharged(detail.id)).toBe(0);
    expect(netCharged(await t.sandboxLedger(detail.id))).toBe(1999);
  });

  it('Stripe answered 500 before charging: the lookup finds nothing, nothing is reversed, the sandbox charges', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000005019');
    expect(detail).toMatchObject({ status: 'succeeded', processorId: t.sandboxId });
    expect(detail.attempts[0]).toMatchObject({ outcome: 'error', errorCode: 'processor_error' });
    expect(detail.attempts[0].message).toContain('confirmed nothing stands');
    const secretKey = t.stripeAccount.credentials.secretKey!;
    const requests = await stripeRequests(t.stripeAccount.credentials.endpoint!, secretKey);
    expect(requests.filter((r) => r.path === '/v1/refunds' || r.path.endsWith('/cancel'))).toEqual([]);
    expect(await t.stripeAccount.netCharged(detail.id)).toBe(0);
    expect(netCharged(await t.sandboxLedger(detail.id))).toBe(1999);
  });

  it('stops on a hard decline at Stripe: the sandbox is never called', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000000002');
    expect(detail).toMatchObject({ status: 'failed', declineCode: 'card_declined', declineCategory: 'hard_decline' });
    expect(attemptsOf(detail)).toEqual([[1, t.stripeId, 'declined', 'card_declined']]);
    expect(await t.sandboxLedger(detail.id)).toEqual([]);
  });

  it('skips Stripe for a currency its type does not take (capabilities.currencies), even when the merchant enabled it', async () => {
    const t = await tenant();
    const detail = await t.pay('4242424242424242', 'KWD');
    expect(detail).toMatchObject({ status: 'succeeded', currency: 'KWD', processorId: t.sandboxId });
    expect(attemptsOf(detail)).toEqual([[1, t.sandboxId, 'approved', null]]);
    const requests = await stripeRequests(
      t.stripeAccount.credentials.endpoint!,
      t.stripeAccount.credentials.secretKey!,
    );
    expect(requests).toEqual([]);
  });
});

async function stripeRequests(endpoint: string, secretKey: string): Promise<{ path: string }[]> {
  const answer = await fetch(`${endpoint}/_simulator/requests?${new URLSearchParams({ secretKey }).toString()}`);
  return ((await answer.json()) as { requests: { path: string }[] }).requests;
}
