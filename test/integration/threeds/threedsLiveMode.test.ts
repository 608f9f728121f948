import { createThreeDsActivities } from '../../../activities/threeds/authentication';
import { createLogger } from '../../../src/logging/logger';
import { sealProcessorCredentials } from '../../../src/processors/credentials';
import { createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, createProduct, ok } from '../commerce/commerceHelpers';
import { cards } from '../payments/paymentsFixtures';

/**
 * Live mode has no 3DS provider: the sandbox's 3DS server would authenticate any card and make up
 * a CAVV. Engine-run 3DS is refused there (409 THREEDS_PROVIDER_REQUIRED) before anything is written:
 * the 3DS routes, and a payment whose flow would authenticate the card itself.
 */
describe('engine-run 3-D Secure in live mode', () => {
  const harness = useHarness();
  let token: string;
  let accountId: string;
  let storeId: string;
  let priceId: string;
  let customerId: string;
  let instrumentId: string;
  beforeAll(async () => {
    const merchant = await createMerchant(harness.db, { mode: 'live', plan: 'premium' });
    token = merchant.token;
    accountId = merchant.accountId;
    // A real processor type with 3DS on, taking external values: the payment would authenticate itself.
    const processor = await ok(harness, 'POST', '/processors', token, {
      name: 'Stripe live',
      type: 'stripe',
      credentials: { secretKey: 'sk_live_abcdefghijkl' },
      supportedCurrencies: ['EUR'],
      baseCurrency: 'EUR',
      enable3DS: true,
    });
    const flow = await ok(harness, 'POST', '/payment-flows', token, {
      name: 'Live 3DS',
      threeDsEnabled: true,
      processorConfigs: [{ processorId: processor.id, weight: 100 }],
    });
    const store = await ok(harness, 'POST', '/stores', token, {
      name: 'Live shop',
      baseCurrency: 'EUR',
      defaultPaymentFlowId: flow.id,
    });
    storeId = store.id;
    priceId = (await createProduct(harness, token, storeId, [{ unitAmount: 1999, currency: 'EUR' }])).variants[0]
      .prices[0].id;
    customerId = (await createCustomer(harness, token)).id;
    const nextYear = new Date().getUTCFullYear() + 1;
    instrumentId = (
      await ok(harness, 'POST', '/payment-instruments', token, {
        customerId,
        card: { number: cards.approve, expMonth: 12, expYear: nextYear, cvc: '123' },
      })
    ).id;
  });

  const sessions = () => harness.db.threeDsSession.count({ where: { accountId } });
  const refusedForNoProvider = (answer: { status: number; body: any }) => {
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'THREEDS_PROVIDER_REQUIRED',
      message: expect.stringContaining('live 3DS server provider'),
    });
  };

  it('refuses /threeds/authenticate and /threeds/create-merchant-session, writing no session', async () => {
    refusedForNoProvider(
      await call(harness, 'POST', `${api}/threeds/authenticate`, {
        token,
        body: { paymentInstrumentId: instrumentId, storeId, purchaseInfo: { amount: 1999, currency: 'EUR' } },
      }),
    );
    refusedForNoProvider(
      await call(harness, 'POST', `${api}/threeds/create-merchant-session`, {
        token,
        body: { tokenId: 'tok_live', paymentInstrumentId: instrumentId, storeId },
      }),
    );
    expect(await sessions()).toBe(0);
  });

  it('refuses a payment whose flow would run 3DS itself, before a payment row, a session or a charge', async () => {
    const checkout = await ok(harness, 'POST', '/checkout-sessions', token, {
      storeId,
      customerId,
      lineItems: [{ priceId, quantity: 1 }],
    });
    refusedForNoProvider(
      await call(harness, 'POST', `${api}/checkout/pay-v2`, {
        token,
        body: { checkoutSessionId: checkout.id, paymentInstrumentId: instrumentId },
      }),
    );
    refusedForNoProvider(
      await call(harness, 'POST', `${api}/payments/process`, {
        token,
        body: { storeId, amount: 500, currency: 'EUR', paymentInstrumentId: instrumentId, customerId },
      }),
    );
    expect(await harness.db.payment.count({ where: { accountId } })).toBe(0);
    expect(await sessions()).toBe(0);
    expect((await ok(harness, 'GET', `/checkout-sessions/${checkout.id}`, token)).status).toBe('open');
  });

  it('fails a live session that reaches the 3DS activity (started before the refusal) without asking the simulator', async () => {
    const session = await harness.db.threeDsSession.create({
      data: {
        id: 'tds_livebeforetherule0001',
        accountId,
        mode: 'live',
        storeId,
        customerId,
        paymentInstrumentId: instrumentId,
        status: 'pending',
        source: 'authenticate',
      },
    });
    const activities = createThreeDsActivities({
      db: harness.db,
      config: harness.config,
      logger: createLogger('silent'),
      sandboxUrl: harness.sandboxUrl,
    });
    const decision = await activities.startThreeDsAuthentication({
      sessionId: session.id,
      workflowId: session.id,
      amount: 1999,
      currency: 'EUR',
      deviceChannel: 'browser',
    });
    expect(decision).toMatchObject({ kind: 'final', status: 'failed', failureReason: 'threeds_provider_required' });
    const row = await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row).toMatchObject({ status: 'failed', transStatus: null, authenticationValue: null });
  });

  it('never routes a live payment to a live sandbox processor stored before the rule', async () => {
    const merchantId = `m_live_${Date.now()}`;
    const processor = await harness.db.processor.create({
      data: {
        id: 'proc_livesandboxbeforerule',
        accountId,
        mode: 'live',
        name: 'Old live sandbox',
        type: 'sandbox',
        encryptedCredentials: sealProcessorCredentials({ merchantId }, 'proc_livesandboxbeforerule', harness.config),
        supportedCurrencies: ['EUR'],
        baseCurrency: 'EUR',
        enabled: true,
      },
    });
    const flow = await ok(harness, 'POST', '/payment-flows', token, {
      name: 'Old live sandbox flow',
      processorConfigs: [{ processorId: processor.id, weight: 100 }],
    });
    const answer = await call(harness, 'POST', `${api}/payments/process`, {
      token,
      body: {
        storeId,
        amount: 700,
        currency: 'EUR',
        paymentInstrumentId: instrumentId,
        customerId,
        paymentFlowId: flow.id,
      },
    });
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({
      code: 'no_eligible_processor',
      data: { status: 'failed', declineCode: 'no_eligible_processor' },
    });
    const ledger = await fetch(
      `${harness.sandboxUrl}/acquirer/ledger?${new URLSearchParams({ merchantId }).toString()}`,
    );
    expect(((await ledger.json()) as { entries: unknown[] }).entries).toEqual([]);
  });
});
