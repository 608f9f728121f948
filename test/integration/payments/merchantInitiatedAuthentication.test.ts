import { randomBytes, randomUUID } from 'node:crypto';
import { startStripeSimulator, type RunningStripeSimulator } from '../../../simulators/vendors/stripe/server';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { api, ok } from '../commerce/commerceHelpers';
import { adyenLedger, standing } from '../processors/kits/adyen';
import { createPaymentTenant, type PaymentTenant } from './paymentsFixtures';

/**
 * A merchant-initiated charge (a renewal, an upsell on the card on file) has no cardholder to
 * authenticate: when the issuer demands authentication, the charge fails `authentication_required`
 * and nothing is charged; it never steps up. Through the Stripe and Adyen simulators with their
 * documented 3-D Secure test cards.
 */
describe('merchant-initiated charges never step up (Stripe and Adyen simulators)', () => {
  let harness: Harness;
  let stripe: RunningStripeSimulator;
  let adyen: CheckedSimulator;
  let stripeTenant: PaymentTenant;
  let adyenTenant: PaymentTenant;
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const apiKey = `AQE_mit_${randomBytes(8).toString('hex')}`;
  const merchantAccount = `MitECOM_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    stripe = await startStripeSimulator();
    adyen = await startCheckedSimulator({ apiKeys: [apiKey] });
    harness = await startHarness();
    stripeTenant = await createPaymentTenant(harness);
    await ok(harness, 'POST', '/processors/update', stripeTenant.token, {
      processorId: stripeTenant.processorIds[0],
      updatedData: { name: 'Stripe', type: 'stripe', credentials: { secretKey, endpoint: stripe.url } },
    });
    adyenTenant = await createPaymentTenant(harness);
    await ok(harness, 'POST', '/processors/update', adyenTenant.token, {
      processorId: adyenTenant.processorIds[0],
      updatedData: {
        name: 'Adyen',
        type: 'adyen',
        credentials: { apiKey, merchantAccount, endpoint: adyen.simulator.url },
      },
    });
  });
  afterEach(() => {
    expect(adyen.problems()).toEqual([]);
  });
  afterAll(async () => {
    await harness?.stop();
    await stripe?.stop();
    await adyen?.simulator.stop();
  });

  const merchantCharge = async (t: PaymentTenant, card: string) =>
    call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        storeId: t.storeId,
        currency: 'EUR',
        customerId: t.customerId,
        amount: 1500,
        initiatedBy: 'merchant',
        paymentInstrumentId: await t.instrument(card),
      },
    });

  const expectAuthenticationRequired = async (answer: Awaited<ReturnType<typeof merchantCharge>>) => {
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({ code: 'authentication_required', data: { status: 'failed' } });
    const payment = await harness.db.payment.findUniqueOrThrow({ where: { id: answer.body.data.paymentId } });
    expect(payment).toMatchObject({
      status: 'failed',
      declineCode: 'authentication_required',
      initiatedBy: 'merchant',
    });
    return payment;
  };

  it.each([
    ['4000002760003184', 'always authenticates'],
    ['4000000000003220', 'authenticates with a challenge'],
    ['4000008260003178', 'authenticates, then declines for insufficient funds'],
  ])('Stripe %s (%s) fails a merchant-initiated charge authentication_required', async (card) => {
    await expectAuthenticationRequired(await merchantCharge(stripeTenant, card));
  });

  it.each([
    ['4000002760003184', 'redirect'],
    ['4000000000003220', 'challenge'],
  ])('Adyen %s (%s) fails a merchant-initiated charge authentication_required, nothing charged', async (card) => {
    const payment = await expectAuthenticationRequired(await merchantCharge(adyenTenant, card));
    const ledger = await adyenLedger(adyen.simulator.url, merchantAccount, payment.id);
    expect(ledger.length).toBeGreaterThan(0);
    expect(ledger.reduce((sum, entry) => sum + standing(entry), 0)).toBe(0);
    expect(ledger.every((entry) => entry.shopperInteraction === 'ContAuth')).toBe(true);
  });
});
