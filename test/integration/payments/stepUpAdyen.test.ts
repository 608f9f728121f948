import { randomBytes } from 'node:crypto';
import { startHarness, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { ok } from '../commerce/commerceHelpers';
import { adyenKit, adyenLedger } from '../processors/kits/adyen';
import type { KitAccount } from '../processors/kits/types';
import { createPaymentTenant, tenantApi, type PaymentTenant } from './paymentsFixtures';
import {
  expectSettledOnce,
  landOnReturn,
  passAuthenticationPage,
  expectFailedAuthentication,
  returnTenTimesAtOnce,
} from './stepUpHelpers';

/**
 * Processor-hosted 3-D Secure (step-up) through an adyen processor (the Adyen simulator over real
 * HTTP, every request and answer checked against CheckoutService-v71.json): RedirectShopper becomes
 * requires_action with the engine's start link, the shopper passes (or fails) the simulator's
 * page, comes back to the engine's return link with a redirectResult, and /payments/details
 * settles the payment once.
 */
const adyen = adyenKit();
const redirectCard = '4917610000000000';
const merchantReturn = 'https://shop.example/return?order=7';

describe('step-up authentication at an adyen processor (Postgres, dev server, Adyen simulator)', () => {
  let harness: Harness;
  let t: PaymentTenant;
  let account: KitAccount;
  let simulatorUrl: string;
  beforeAll(async () => {
    await adyen.start();
    harness = await startHarness();
    t = await createPaymentTenant(harness);
    account = await adyen.account({ timeoutMs: 5000, holdMs: 0 });
    simulatorUrl = account.credentials.endpoint!;
    const hmacKey = randomBytes(32).toString('hex').toUpperCase();
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId: t.processorIds[0],
      updatedData: { name: 'Adyen', type: 'adyen', credentials: { ...account.credentials, hmacKey } },
    });
    const webhooks = await fetch(`${simulatorUrl}/simulator/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        merchantAccount: account.credentials.merchantAccount,
        url: `${harness.url}/api/public/v1/processor-webhooks/${t.processorIds[0]}`,
        hmacKey,
      }),
    });
    expect(webhooks.status).toBe(204);
  });
  afterAll(async () => {
    await harness?.stop();
    await adyen.stop();
  });
  afterEach(() => {
    expect(adyen.problems?.()).toEqual([]);
  });

  const pay = async (card: string, extra: Record<string, unknown> = {}) =>
    tenantApi(harness, t).post('/payments/process', {
      storeId: t.storeId,
      currency: 'EUR',
      customerId: t.customerId,
      amount: 2500,
      paymentInstrumentId: await t.instrument(card),
      ...extra,
    });

  const authenticate = (redirectUrl: string, outcome: 'approve' | 'fail') =>
    passAuthenticationPage(redirectUrl, outcome, '/simulator/redirect/');

  const paymentRow = (id: string) => harness.db.payment.findUniqueOrThrow({ where: { id } });
  const ledger = (paymentId: string) => adyenLedger(simulatorUrl, account.credentials.merchantAccount!, paymentId);

  it('answers requires_action; after the shopper authenticates the payment succeeds, charged once', async () => {
    const answer = await pay(redirectCard, { returnUrl: merchantReturn });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ status: 'requires_action' });
    const paymentId = answer.body.payment.id as string;
    const redirectUrl = answer.body.redirectUrl as string;
    expect(redirectUrl).toContain(`/api/public/v1/payments/${paymentId}/authentication?attempt=1&token=`);
    expect(await account.netCharged(paymentId)).toBe(0);

    const back = await authenticate(redirectUrl, 'approve');
    expect(back).toContain(`/api/public/v1/payments/${paymentId}/authentication/return`);
    expect(new URL(back).searchParams.get('redirectResult')).toBeTruthy();
    const landed = await fetch(back, { redirect: 'manual' });
    expect(landed.status).toBe(303);
    const target = new URL(landed.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/return');
    expect(Object.fromEntries(target.searchParams)).toEqual({ order: '7', paymentId, status: 'succeeded' });

    expect(await paymentRow(paymentId)).toMatchObject({ status: 'succeeded', redirectUrl: null });
    const payments = await ledger(paymentId);
    expect(payments).toEqual([expect.objectContaining({ resultCode: 'Authorised', captured: 2500 })]);
    expect(await account.netCharged(paymentId)).toBe(2500);
  });

  it('ten browsers returning at once settle the payment once: one charge, one success event, every answer the same', async () => {
    const answer = await pay(redirectCard);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'approve');
    await returnTenTimesAtOnce(back, paymentId);
    expect(await account.netCharged(paymentId)).toBe(2500);
    expect(await ledger(paymentId)).toHaveLength(1);
    await expectSettledOnce(harness, t.merchant.accountId, paymentId);
  });

  it('a shopper who fails authentication: the payment fails authentication_failed, is not cascaded, nothing charged', async () => {
    const answer = await pay(redirectCard);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'fail');
    await expectFailedAuthentication(harness, back, paymentId);
    expect(await account.netCharged(paymentId)).toBe(0);
  });

  it('an authorization (auth intent) approved after authentication is held, not captured', async () => {
    const answer = await pay(redirectCard, { mode: 'auth' });
    expect(answer.body.payment).toMatchObject({ status: 'requires_action' });
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'approve');
    expect(await landOnReturn(back)).toMatchObject({ settled: true, payment: { status: 'authorized' } });
    expect(await ledger(paymentId)).toEqual([
      expect.objectContaining({ resultCode: 'Authorised', manualCapture: true, captured: 0 }),
    ]);
  });

  it('a return before the shopper finished keeps the payment waiting; the payment can still finish', async () => {
    const answer = await pay(redirectCard);
    const paymentId = answer.body.payment.id as string;
    const redirectUrl = answer.body.redirectUrl as string;
    const early = redirectUrl.replace('/authentication?', '/authentication/return?');
    expect(await landOnReturn(early)).toMatchObject({
      settled: false,
      payment: { id: paymentId, status: 'requires_action' },
    });
    const back = await authenticate(redirectUrl, 'approve');
    expect(await landOnReturn(back)).toMatchObject({ settled: true, payment: { status: 'succeeded' } });
    expect(await account.netCharged(paymentId)).toBe(2500);
  });

  it("Adyen's AUTHORISATION webhook for a step-up payment reaches the engine as an authorization event", async () => {
    const answer = await pay(redirectCard);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'approve');
    await fetch(back, { headers: { accept: 'application/json' } });
    const recorded = await until(async () => {
      const rows = await harness.db.processorWebhookEvent.findMany({
        where: { paymentId, vendorType: 'AUTHORISATION' },
      });
      return rows.length > 0 ? rows : undefined;
    });
    expect(recorded[0]).toMatchObject({ kind: 'authorization' });
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'succeeded' });
  });

  // Abandoning (the timeout, then the cancel at Adyen) is proven by the adapter's own test
  // (test/integration/processors/adyenStepUp.test.ts) and, through the whole engine, by
  // stepUpSandbox.test.ts: waiting a real minute here again would add nothing.
  describe('a flow of adyen then sandbox', () => {
    let cascade: PaymentTenant;
    let cascadeAccount: KitAccount;
    beforeAll(async () => {
      cascade = await createPaymentTenant(harness, { processors: 2 });
      cascadeAccount = await adyen.account({ timeoutMs: 5000, holdMs: 0 });
      await ok(harness, 'POST', '/processors/update', cascade.token, {
        processorId: cascade.processorIds[0],
        updatedData: { name: 'Adyen', type: 'adyen', credentials: cascadeAccount.credentials },
      });
    });
    const payCascade = async () =>
      tenantApi(harness, cascade).post('/payments/process', {
        storeId: cascade.storeId,
        currency: 'EUR',
        customerId: cascade.customerId,
        amount: 2500,
        paymentInstrumentId: await cascade.instrument(redirectCard),
      });
    const attemptsOf = async (paymentId: string) =>
      (await harness.db.paymentAttempt.findMany({ where: { paymentId } })).map((attempt) => attempt.processorId);

    it('a failed authentication is not sent on to the sandbox, which would approve', async () => {
      const answer = await payCascade();
      const paymentId = answer.body.payment.id as string;
      const back = await authenticate(answer.body.redirectUrl, 'fail');
      const landed = await fetch(back, { headers: { accept: 'application/json' } });
      expect(await landed.json()).toMatchObject({
        settled: true,
        payment: { status: 'failed', declineCode: 'authentication_failed' },
      });
      expect(await attemptsOf(paymentId)).toEqual([cascade.processorIds[0]]);
    });
  });

  it('a merchant-initiated charge on a 3-D Secure card never steps up', async () => {
    const answer = await pay(redirectCard, { initiatedBy: 'merchant' });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ status: 'succeeded' });
    expect(answer.body.redirectUrl ?? null).toBeNull();
    const [charged] = await ledger(answer.body.payment.id as string);
    expect(charged).toMatchObject({ shopperInteraction: 'ContAuth', resultCode: 'Authorised' });
    expect(charged!.returnUrl).toBeUndefined();
  });
});
