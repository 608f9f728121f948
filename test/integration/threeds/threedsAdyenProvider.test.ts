import { randomBytes } from 'node:crypto';
import { openProcessorCredentials, sealProcessorCredentials } from '../../../src/processors/credentials';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';
import { createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, createProduct, ok } from '../commerce/commerceHelpers';
import { adyenLedger } from '../processors/kits/adyen';

/**
 * Engine-run 3-D Secure in live mode with a real provider: the flow names a live adyen processor
 * (threeDsProviderProcessorId) and the engine runs Adyen's authentication-only flow with its
 * credentials. The processor reaches the Adyen simulator only because the test writes an `endpoint`
 * into its sealed credentials (the API refuses one in live mode) on a loopback host of
 * PROCESSOR_ENDPOINT_ALLOW. Every request the provider sends is checked against Adyen's
 * CheckoutService-v71 document (afterEach).
 */
const cards = { frictionless: '4242424242424242', challenge: '4917610000000000' };

describe('engine-run 3DS in live mode through an Adyen authentication-only provider', () => {
  const harness = useHarness();
  let adyen: CheckedSimulator;
  let token: string;
  let accountId: string;
  let storeId: string;
  let flowId: string;
  let customerId: string;
  let processorId: string;
  let merchantAccount: string;
  const apiKey = `AQE_provider_${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    adyen = await startCheckedSimulator({ apiKeys: [apiKey] });
    const merchant = await createMerchant(harness.db, { mode: 'live', plan: 'premium' });
    token = merchant.token;
    accountId = merchant.accountId;
    merchantAccount = `LiveECOM_${randomBytes(6).toString('hex')}`;
    const processor = await ok(harness, 'POST', '/processors', token, {
      name: 'Adyen live',
      type: 'adyen',
      credentials: { apiKey, merchantAccount, liveUrlPrefix: '1797a841fbb37ca7-AcmeCom' },
      supportedCurrencies: ['EUR'],
      baseCurrency: 'EUR',
      enable3DS: true,
    });
    processorId = processor.id;
    // Test configuration only: the live processor's live URL is swapped for the simulator's origin.
    const row = await harness.db.processor.findUniqueOrThrow({ where: { id: processorId } });
    const credentials = openProcessorCredentials(row.encryptedCredentials, row.id, harness.config);
    await harness.db.processor.update({
      where: { id: processorId },
      data: {
        encryptedCredentials: sealProcessorCredentials(
          { ...credentials, endpoint: adyen.simulator.url },
          row.id,
          harness.config,
        ),
      },
    });
    const flow = await ok(harness, 'POST', '/payment-flows', token, {
      name: 'Live 3DS via Adyen',
      threeDsEnabled: true,
      threeDsProviderProcessorId: processorId,
      processorConfigs: [{ processorId, weight: 100 }],
    });
    flowId = flow.id;
    expect(flow.threeDsProviderProcessorId).toBe(processorId);
    storeId = (
      await ok(harness, 'POST', '/stores', token, { name: 'Live', baseCurrency: 'EUR', defaultPaymentFlowId: flowId })
    ).id;
    await createProduct(harness, token, storeId, [{ unitAmount: 1999, currency: 'EUR' }]);
    customerId = (await createCustomer(harness, token)).id;
  });
  afterEach(() => {
    expect(adyen.problems()).toEqual([]);
  });
  afterAll(async () => {
    await adyen?.simulator.stop();
  });

  const instrument = async (number: string) =>
    (
      await ok(harness, 'POST', '/payment-instruments', token, {
        customerId,
        card: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' },
      })
    ).id as string;

  const simulatorPayments = async (reference: string) => adyenLedger(adyen.simulator.url, merchantAccount, reference);

  /** Plays the cardholder on the simulator's authentication page and follows it back to the engine. */
  async function passChallenge(challengeUrl: string, outcome: 'approve' | 'fail') {
    expect((await fetch(challengeUrl)).status).toBe(200);
    const submitted = await fetch(challengeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome }).toString(),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(303);
    const back = new URL(submitted.headers.get('location')!);
    expect(back.searchParams.get('redirectResult')).toEqual(expect.any(String));
    const answer = await fetch(back, { redirect: 'manual' });
    return { status: answer.status, body: (await answer.json()) as any };
  }

  it('refuses a live flow naming a processor that is not adyen, and a live authentication without a provider', async () => {
    const stripe = await ok(harness, 'POST', '/processors', token, {
      name: 'Stripe live',
      type: 'stripe',
      credentials: { secretKey: 'sk_live_abcdefghijkl' },
      supportedCurrencies: ['EUR'],
      baseCurrency: 'EUR',
    });
    const refused = await call(harness, 'POST', `${api}/payment-flows`, {
      token,
      body: { name: 'x', threeDsProviderProcessorId: stripe.id, processorConfigs: [{ processorId, weight: 1 }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_THREEDS_PROVIDER');
    const bare = await ok(harness, 'POST', '/payment-flows', token, {
      name: 'No provider',
      threeDsEnabled: true,
      processorConfigs: [{ processorId, weight: 1 }],
    });
    const store = await ok(harness, 'POST', '/stores', token, {
      name: 'No provider',
      baseCurrency: 'EUR',
      defaultPaymentFlowId: bare.id,
    });
    const answer = await call(harness, 'POST', `${api}/threeds/authenticate`, {
      token,
      body: {
        paymentInstrumentId: await instrument(cards.frictionless),
        storeId: store.id,
        purchaseInfo: { amount: 1999, currency: 'EUR' },
      },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('THREEDS_PROVIDER_REQUIRED');
    const payment = await call(harness, 'POST', `${api}/payments/process`, {
      token,
      body: {
        storeId: store.id,
        amount: 500,
        currency: 'EUR',
        paymentInstrumentId: await instrument(cards.frictionless),
        customerId,
      },
    });
    expect(payment.status).toBe(409);
    expect(payment.body.code).toBe('THREEDS_PROVIDER_REQUIRED');
  });

  it('/threeds/authenticate: frictionless, with the values of Adyen threeDS2Result stored as sent and nothing authorised', async () => {
    const session = await ok(harness, 'POST', '/threeds/authenticate', token, {
      paymentInstrumentId: await instrument(cards.frictionless),
      storeId,
      purchaseInfo: { amount: 1999, currency: 'EUR' },
    });
    expect(session).toMatchObject({ status: 'authenticated', transStatus: 'Y', eci: '05' });
    const [authentication] = await simulatorPayments(session.id);
    expect(authentication).toMatchObject({ resultCode: 'AuthenticationFinished', captured: 0 });
    const request = adyen.requests.find((r) => (r.body as { reference?: string }).reference === session.id)!;
    expect(request.body).toMatchObject({
      authenticationData: { authenticationOnly: true },
      shopperInteraction: 'Ecommerce',
    });
    const row = await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.providerProcessorId).toBe(processorId);
    expect(row.authenticationValue).toEqual(expect.any(String));
  });

  it('/threeds/authenticate: a challenge sends the cardholder to Adyen, and the return fetches the result from /payments/details', async () => {
    const session = await ok(harness, 'POST', '/threeds/authenticate', token, {
      paymentInstrumentId: await instrument(cards.challenge),
      storeId,
      purchaseInfo: { amount: 1999, currency: 'EUR' },
    });
    expect(session.status).toBe('challenge_required');
    expect(session.redirectUrl).toContain(`${adyen.simulator.url}/simulator/redirect/`);
    const back = await passChallenge(session.redirectUrl, 'approve');
    expect(back.status).toBe(200);
    expect(back.body.threedsSession).toMatchObject({ id: session.id, status: 'authenticated', transStatus: 'Y' });
    expect(adyen.requests.some((r) => r.path.endsWith('/payments/details'))).toBe(true);

    const failing = await ok(harness, 'POST', '/threeds/authenticate', token, {
      paymentInstrumentId: await instrument(cards.challenge),
      storeId,
      purchaseInfo: { amount: 1999, currency: 'EUR' },
    });
    const failed = await passChallenge(failing.redirectUrl, 'fail');
    expect(failed.body.threedsSession).toMatchObject({ status: 'failed', transStatus: 'N' });
  });

  it('create-merchant-session authenticates 3RI through the provider (ContAuth, never challenged)', async () => {
    const session = await ok(harness, 'POST', '/threeds/create-merchant-session', token, {
      tokenId: 'tok_live_1',
      paymentInstrumentId: await instrument(cards.challenge),
      storeId,
    });
    expect(session).toMatchObject({ type: 'merchant', status: 'authenticated', transStatus: 'Y' });
    const request = adyen.requests.find((r) => (r.body as { reference?: string }).reference === session.id)!;
    expect(request.body).toMatchObject({
      shopperInteraction: 'ContAuth',
      authenticationData: { authenticationOnly: true },
    });
  });

  it.each([
    ['frictionless', cards.frictionless],
    ['challenged', cards.challenge],
  ])(
    'a %s live payment forwards the provider’s values unchanged to the forwarding processor, one charge',
    async (_, number) => {
      const answer = await call(harness, 'POST', `${api}/payments/process`, {
        token,
        body: { storeId, amount: 1999, currency: 'EUR', paymentInstrumentId: await instrument(number), customerId },
      });
      expect(answer.status).toBe(200);
      let paymentId: string = answer.body.payment.id;
      if (number === cards.challenge) {
        expect(answer.body.payment.status).toBe('requires_action');
        const back = await passChallenge(answer.body.redirectUrl, 'approve');
        expect(back.body.payment).toMatchObject({ status: 'succeeded' });
        paymentId = back.body.payment.id;
      } else {
        expect(answer.body.payment.status).toBe('succeeded');
      }
      const session = await harness.db.threeDsSession.findFirstOrThrow({ where: { paymentId, accountId } });
      expect(session).toMatchObject({ status: 'authenticated', providerProcessorId: processorId });
      const charges = (await simulatorPayments(paymentId)).filter((p) => p.resultCode === 'Authorised');
      expect(charges).toHaveLength(1);
      // Forwarded exactly as Adyen's threeDS2Result gave them (the provider's own answer, read back).
      const [authentication] = await simulatorPayments(session.id);
      expect(authentication!.resultCode).toBe('AuthenticationFinished');
      const provided = authentication!.threeDS2Result!;
      expect(provided).toMatchObject({
        authenticationValue: session.authenticationValue,
        eci: session.eci,
        dsTransID: session.dsTransID,
        messageVersion: session.messageVersion,
      });
      expect(charges[0]!.mpiData).toMatchObject({
        cavv: provided.authenticationValue,
        eci: provided.eci,
        dsTransID: provided.dsTransID,
        threeDSVersion: provided.messageVersion,
      });
    },
  );
});
