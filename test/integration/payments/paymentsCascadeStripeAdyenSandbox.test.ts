import { randomUUID } from 'node:crypto';
import { attemptIdempotencyKey } from '../../../src/payments/attemptRows';
import { startHarness, type Harness } from '../../helpers/harness';
import { adyenKit, adyenLedger } from '../processors/kits/adyen';
import { stripeKit } from '../processors/kits/stripe';
import { attemptsOf, crossTypeTenant } from './crossTypeTenant';
import { netCharged } from './paymentsFixtures';

/**
 * A cascade over three processor types through the engine (real Postgres, the Temporal dev server,
 * the Stripe and Adyen simulators and the sandbox acquirer, all over HTTP): stripe → adyen →
 * sandbox. Each simulator's own ledger is read at the end: one charge stands across the three.
 * Every request the engine's Adyen adapter sends is checked against CheckoutService-v71.json.
 */
const stripe = stripeKit();
const adyen = adyenKit();

describe('cascade stripe → adyen → sandbox', () => {
  let harness: Harness;
  beforeAll(async () => {
    await Promise.all([stripe.start(), adyen.start()]);
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.stop();
    await Promise.all([stripe.stop(), adyen.stop()]);
  });
  afterEach(() => {
    expect(adyen.problems?.() ?? []).toEqual([]);
  });

  async function tenant() {
    const stripeAccount = await stripe.account({ timeoutMs: 5000, holdMs: 0 });
    const adyenAccount = await adyen.account({ timeoutMs: 5000, holdMs: 0 });
    const acquirerMerchant = `m_${randomUUID()}`;
    const { processorIds, pay } = await crossTypeTenant(harness, [
      { name: 'Stripe', type: 'stripe', credentials: stripeAccount.credentials },
      { name: 'Adyen', type: 'adyen', credentials: adyenAccount.credentials },
      { name: 'Sandbox', type: 'sandbox', credentials: { merchantId: acquirerMerchant } },
    ]);
    const [stripeId, adyenId, sandboxId] = processorIds as [string, string, string];
    const { endpoint, merchantAccount } = adyenAccount.credentials as { endpoint: string; merchantAccount: string };
    return {
      stripeId,
      adyenId,
      sandboxId,
      stripeAccount,
      pay,
      /** Stripe then Adyen failed as given, the sandbox charged: 19.99 stands at the sandbox and nowhere else. */
      async expectChargedAtSandboxOnly(detail: any, failures: [string, string][]) {
        expect(detail).toMatchObject({ status: 'succeeded', processorId: sandboxId, amountCaptured: 1999 });
        expect(attemptsOf(detail)).toEqual([
          [1, stripeId, ...failures[0]!],
          [2, adyenId, ...failures[1]!],
          [3, sandboxId, 'approved', null],
        ]);
        expect(await this.ledgers(detail.id)).toMatchObject({ stripe: 0, adyen: 0, sandbox: 1999 });
      },
      adyenPayments: (paymentId: string) => adyenLedger(endpoint, merchantAccount, paymentId),
      /** A /payments request straight to the simulator, as the engine's adapter would send it. */
      async authorizeAtAdyen(idempotencyKey: string, card: string) {
        const answer = await fetch(`${endpoint}/v71/payments`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': adyenAccount.credentials.apiKey!,
            'idempotency-key': idempotencyKey,
          },
          body: JSON.stringify({
            amount: { value: 1999, currency: 'EUR' },
            merchantAccount,
            reference: idempotencyKey.split(':')[0],
            returnUrl: 'https://checkout.invalid/adyen-redirect-unused',
            paymentMethod: { type: 'scheme', number: card, expiryMonth: '12', expiryYear: '2099' },
            shopperInteraction: 'Ecommerce',
          }),
        });
        return { status: answer.status, body: (await answer.json()) as unknown };
      },
      async ledgers(paymentId: string) {
        const query = new URLSearchParams({ merchantId: acquirerMerchant, reference: paymentId });
        const sandbox = (
          (await (await fetch(`${harness.sandboxUrl}/acquirer/ledger?${query.toString()}`)).json()) as any
        ).entries;
        return {
          stripe: await stripeAccount.netCharged(paymentId),
          adyen: await adyenAccount.netCharged(paymentId),
          sandbox: netCharged(sandbox),
          sandboxEntries: sandbox as unknown[],
        };
      },
    };
  }

  it('Stripe charged then answered 500 (found, reversed), Adyen soft-declines, the sandbox charges: one charge', async () => {
    const t = await tenant();
    // Adyen's own test trigger: holderName DECLINED is refused with reason 2 (Refused) whatever the card.
    const detail = await t.pay('4000000000005001', { cardholderName: 'DECLINED' });
    await t.expectChargedAtSandboxOnly(detail, [
      ['error', 'processor_error'],
      ['declined', 'do_not_honor'],
    ]);
    expect(detail.attempts[0].message).toContain('reversed by idempotency key (1999 reversed)');
    expect(detail.attempts[1]).toMatchObject({ category: 'soft_decline' });
    const adyenPayments = await t.adyenPayments(detail.id);
    expect(adyenPayments.map((p) => [p.resultCode, p.amount.value])).toEqual([['Refused', 1999]]);
  });

  it('Stripe is down and Adyen answers 500 (looked up, nothing stands, key closed), the sandbox charges: one charge', async () => {
    const t = await tenant();
    await t.stripeAccount.outage(true);
    try {
      const detail = await t.pay('4000000000000200');
      await t.expectChargedAtSandboxOnly(detail, [
        ['error', 'processor_unavailable'],
        ['error', 'processor_error'],
      ]);
      expect(detail.attempts[1].message).toContain('confirmed nothing stands');
      expect(await t.adyenPayments(detail.id)).toEqual([]);
      // The lookup closed Adyen's key: the original authorization, arriving only now, is not processed.
      const late = await t.authorizeAtAdyen(attemptIdempotencyKey(detail.id, 2), '4000000000000200');
      expect(late.status).toBe(200);
      expect(late.body).toHaveProperty('paymentMethods');
      expect(await t.adyenPayments(detail.id)).toEqual([]);
    } finally {
      await t.stripeAccount.outage(false);
    }
  });

  it('a hard decline at Stripe stops the cascade: Adyen and the sandbox are never called', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000000002');
    expect(detail).toMatchObject({ status: 'failed', declineCode: 'card_declined', declineCategory: 'hard_decline' });
    expect(attemptsOf(detail)).toEqual([[1, t.stripeId, 'declined', 'card_declined']]);
    const ledgers = await t.ledgers(detail.id);
    expect(ledgers).toMatchObject({ stripe: 0, adyen: 0, sandbox: 0, sandboxEntries: [] });
    expect(await t.adyenPayments(detail.id)).toEqual([]);
  });
});
