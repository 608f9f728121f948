import { randomBytes } from 'node:crypto';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { stripeKit } from '../processors/kits/stripe';
import type { KitAccount } from '../processors/kits/types';
import { createStripeTenant, tenantApi, type PaymentTenant } from './paymentsFixtures';
import {
  expectSettledOnce,
  landOnReturn,
  passAuthenticationPage,
  expectFailedAuthentication,
  returnTenTimesAtOnce,
} from './stepUpHelpers';

/**
 * Processor-hosted 3-D Secure (step-up) through a stripe processor (the Stripe simulator over real
 * HTTP): the payment answers requires_action with the engine's start link, the shopper passes (or
 * fails) the simulator's authentication page, comes back to the engine's return link, and the
 * payment settles once, with the processor's outcome.
 */
const stripe = stripeKit();
const challengeCard = '4000002760003184';
const declinesAfterAuthentication = '4000008260003178';
const merchantReturn = 'https://shop.example/return?order=42';

describe('step-up authentication at a stripe processor (Postgres, dev server, Stripe simulator)', () => {
  let harness: Harness;
  let t: PaymentTenant;
  let account: KitAccount;
  beforeAll(async () => {
    await stripe.start();
    harness = await startHarness();
    account = await stripe.account({ timeoutMs: 5000, holdMs: 0 });
    const webhookSecret = `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'A')}`;
    t = await createStripeTenant(harness, { ...account.credentials, webhookSecret });
    // The simulator's signed events go to the engine's processor-webhook route.
    const events = await fetch(`${account.credentials.endpoint}/_simulator/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        secretKey: account.credentials.secretKey,
        webhookSecret,
        url: `${harness.url}/api/public/v1/processor-webhooks/${t.processorIds[0]}`,
      }),
    });
    expect(events.status).toBe(204);
  });
  afterAll(async () => {
    await harness?.stop();
    await stripe.stop();
  });

  const api = () => tenantApi(harness, t);
  async function pay(card: string, extra: Record<string, unknown> = {}) {
    const answer = await api().post('/payments/process', {
      storeId: t.storeId,
      currency: 'EUR',
      customerId: t.customerId,
      amount: 2500,
      paymentInstrumentId: await t.instrument(card),
      ...extra,
    });
    return answer;
  }

  const authenticate = (redirectUrl: string, outcome: 'approve' | 'fail') =>
    passAuthenticationPage(redirectUrl, outcome, '/_simulator/authenticate/');

  const paymentRow = (id: string) => harness.db.payment.findUniqueOrThrow({ where: { id } });

  it('answers requires_action with a signed engine link; after the shopper authenticates the payment succeeds, charged once', async () => {
    const answer = await pay(challengeCard, { returnUrl: merchantReturn });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ status: 'requires_action' });
    const paymentId = answer.body.payment.id as string;
    const redirectUrl = answer.body.redirectUrl as string;
    expect(redirectUrl).toContain(`/api/public/v1/payments/${paymentId}/authentication?attempt=1&token=`);
    expect(await account.netCharged(paymentId)).toBe(0);

    const back = await authenticate(redirectUrl, 'approve');
    expect(back).toContain(`/api/public/v1/payments/${paymentId}/authentication/return`);
    const landed = await fetch(back, { redirect: 'manual' });
    expect(landed.status).toBe(303);
    const target = new URL(landed.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/return');
    expect(Object.fromEntries(target.searchParams)).toEqual({ order: '42', paymentId, status: 'succeeded' });

    expect(await paymentRow(paymentId)).toMatchObject({ status: 'succeeded', redirectUrl: null });
    expect(await account.netCharged(paymentId)).toBe(2500);
    const got = await call(harness, 'GET', `/api/public/v1/payments/${paymentId}`, { token: t.token });
    expect(got.body).toMatchObject({ status: 'succeeded' });
  });

  it('ten browsers returning at once settle the payment once: one charge, one success event, every answer the same', async () => {
    const answer = await pay(challengeCard);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'approve');
    await returnTenTimesAtOnce(back, paymentId);
    expect(await account.netCharged(paymentId)).toBe(2500);
    await expectSettledOnce(harness, t.merchant.accountId, paymentId);
  });

  it('a shopper who fails authentication: the payment fails authentication_failed, is not cascaded, nothing charged', async () => {
    const answer = await pay(challengeCard);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'fail');
    await expectFailedAuthentication(harness, back, paymentId);
    expect(await account.netCharged(paymentId)).toBe(0);
  });

  it('an issuer decline after authentication fails the payment with the decline code; the result page says so', async () => {
    const answer = await pay(declinesAfterAuthentication);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'approve');
    const page = await fetch(back, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('Payment not completed');
    expect(html).toContain(paymentId);
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'failed', declineCode: 'insufficient_funds' });
  });

  it('a return before the shopper finished keeps the payment waiting and offers the way back', async () => {
    const answer = await pay(challengeCard);
    const paymentId = answer.body.payment.id as string;
    const redirectUrl = answer.body.redirectUrl as string;
    const early = redirectUrl.replace('/authentication?', '/authentication/return?');
    expect(await landOnReturn(early)).toMatchObject({
      settled: false,
      payment: { id: paymentId, status: 'requires_action' },
    });
    // The start link still leads to the processor's page, and the payment can still finish.
    const back = await authenticate(redirectUrl, 'approve');
    expect(await landOnReturn(back)).toMatchObject({ settled: true, payment: { status: 'succeeded' } });
  });

  it("the processor's webhook settles the payment when the browser never comes back; a late return shows the result", async () => {
    const answer = await pay(challengeCard, { returnUrl: merchantReturn });
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'approve');
    const settled = await until(async () => {
      const row = await paymentRow(paymentId);
      return row.status === 'succeeded' ? row : undefined;
    });
    expect(settled).toMatchObject({ status: 'succeeded', amount: 2500 });
    const received = await harness.db.processorWebhookEvent.findMany({ where: { paymentId, effect: 'nudged' } });
    expect(received).toHaveLength(1);
    const late = await fetch(back, { redirect: 'manual' });
    expect(late.status).toBe(303);
    expect(new URL(late.headers.get('location')!).searchParams.get('status')).toBe('succeeded');
    expect(await account.netCharged(paymentId)).toBe(2500);
  });

  it('refuses a link whose token does not match the payment and attempt (401), changing nothing', async () => {
    const answer = await pay(challengeCard);
    const paymentId = answer.body.payment.id as string;
    const link = new URL(answer.body.redirectUrl as string);
    link.searchParams.set('attempt', '2');
    const wrongAttempt = await fetch(link, { redirect: 'manual' });
    expect(wrongAttempt.status).toBe(401);
    const forged = new URL(answer.body.redirectUrl as string);
    forged.pathname = forged.pathname.replace(paymentId, 'pay_00000000000000000000') + '/return';
    const other = await fetch(forged, { redirect: 'manual' });
    expect(other.status).toBe(401);
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'requires_action' });
  });

  it.each([
    ['a returnUrl that is not http(s)', { returnUrl: 'ftp://shop.example/return' }, 'returnUrl'],
    ['a returnUrl over 2048 characters', { returnUrl: `https://shop.example/${'a'.repeat(2040)}` }, 'returnUrl'],
    ['browserInfo without acceptHeader', { browserInfo: { userAgent: 'Mozilla/5.0' } }, 'browserInfo.acceptHeader'],
    [
      'a time zone offset beyond 14 hours',
      { browserInfo: { userAgent: 'Mozilla/5.0', acceptHeader: 'text/html', timeZoneOffset: 900 } },
      'browserInfo.timeZoneOffset',
    ],
    [
      'a colour depth no screen has',
      { browserInfo: { userAgent: 'Mozilla/5.0', acceptHeader: 'text/html', colorDepth: 7 } },
      'browserInfo.colorDepth',
    ],
  ])('refuses %s with 400 naming the field, and writes no payment', async (_case, extra, field) => {
    const before = await harness.db.payment.count({ where: { accountId: t.merchant.accountId } });
    const answer = await pay(challengeCard, extra);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(field);
    expect(await harness.db.payment.count({ where: { accountId: t.merchant.accountId } })).toBe(before);
  });

  it('takes a full browserInfo and still steps up', async () => {
    const answer = await pay(challengeCard, {
      browserInfo: {
        userAgent: 'Mozilla/5.0',
        acceptHeader: 'text/html',
        language: 'de-DE',
        colorDepth: 24,
        screenHeight: 1080,
        screenWidth: 1920,
        timeZoneOffset: -60,
        javaEnabled: false,
        javaScriptEnabled: true,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ status: 'requires_action' });
  });

  it('a merchant-initiated charge on a card that asks for authentication never steps up: authentication_required', async () => {
    const answer = await pay(challengeCard, { initiatedBy: 'merchant' });
    expect(answer.body).toMatchObject({ code: 'authentication_required', data: { status: 'failed' } });
  });
});
