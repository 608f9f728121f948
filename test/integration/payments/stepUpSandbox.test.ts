import { call, startHarness, type Harness } from '../../helpers/harness';
import { ok } from '../commerce/commerceHelpers';
import { createPaymentTenant, netCharged, tenantApi, type PaymentTenant } from './paymentsFixtures';
import {
  expectSettledOnce,
  landOnReturn,
  passAuthenticationPage,
  expectFailedAuthentication,
  returnTenTimesAtOnce,
} from './stepUpHelpers';

/**
 * Processor-hosted 3-D Secure (step-up) through a `sandbox_hosted3ds` processor: the engine's own
 * sandbox acquirer keeps the authorization pending at its authentication page
 * (simulators/acquirer/authentication.ts), the shopper passes or fails it, comes back to the
 * engine's return link, and the payment settles once. Each tenant has two processors, the
 * hosted one first, so a cascade after a step-up would show at the second.
 */
const challengeCard = '4000000000003220';
const merchantReturn = 'https://shop.example/return?order=42';

describe('step-up authentication at a sandbox_hosted3ds processor (Postgres, dev server, sandbox acquirer)', () => {
  let harness: Harness;
  let t: PaymentTenant;
  let hosted: string;
  let fallback: string;

  const hostedTenant = async (flow: Record<string, unknown> = {}) => {
    const tenant = await createPaymentTenant(harness, { processors: 2, flow });
    await ok(harness, 'POST', '/processors/update', tenant.token, {
      processorId: tenant.processorIds[0],
      updatedData: { type: 'sandbox_hosted3ds' },
    });
    return tenant;
  };

  beforeAll(async () => {
    harness = await startHarness();
    t = await hostedTenant();
    [hosted, fallback] = t.processorIds as [string, string];
  });
  afterAll(async () => {
    await harness?.stop();
  });

  async function pay(tenant: PaymentTenant, card: string, extra: Record<string, unknown> = {}) {
    return tenantApi(harness, tenant).post('/payments/process', {
      storeId: tenant.storeId,
      currency: 'EUR',
      customerId: tenant.customerId,
      amount: 2500,
      paymentInstrumentId: await tenant.instrument(card),
      ...extra,
    });
  }

  const authenticate = (redirectUrl: string, outcome: 'approve' | 'fail') =>
    passAuthenticationPage(redirectUrl, outcome, `${harness.sandboxUrl}/acquirer/authenticate/`);

  const paymentRow = (id: string) => harness.db.payment.findUniqueOrThrow({ where: { id } });
  const charged = async (tenant: PaymentTenant, processorId: string, paymentId: string) =>
    netCharged(await tenant.ledger(processorId, { reference: paymentId }));

  it('answers requires_action; after the shopper authenticates the payment succeeds, charged once', async () => {
    const answer = await pay(t, challengeCard, { returnUrl: merchantReturn });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ status: 'requires_action' });
    const paymentId = answer.body.payment.id as string;
    expect(answer.body.redirectUrl).toContain(`/api/public/v1/payments/${paymentId}/authentication?attempt=1&token=`);
    expect(await charged(t, hosted, paymentId)).toBe(0);

    const back = await authenticate(answer.body.redirectUrl, 'approve');
    expect(back).toContain(`/api/public/v1/payments/${paymentId}/authentication/return`);
    const landed = await fetch(back, { redirect: 'manual' });
    expect(landed.status).toBe(303);
    const target = new URL(landed.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/return');
    expect(Object.fromEntries(target.searchParams)).toEqual({ order: '42', paymentId, status: 'succeeded' });

    expect(await paymentRow(paymentId)).toMatchObject({ status: 'succeeded', redirectUrl: null });
    const authorizations = await t.ledger(hosted, { reference: paymentId, operation: 'authorize' });
    expect(authorizations.map((entry) => entry.outcome)).toEqual(['requires_action', 'approved']);
    expect(await charged(t, hosted, paymentId)).toBe(2500);
    expect(await t.ledger(fallback, { reference: paymentId })).toEqual([]);
    const got = await call(harness, 'GET', `/api/public/v1/payments/${paymentId}`, { token: t.token });
    expect(got.body).toMatchObject({ status: 'succeeded' });
  });

  it('a shopper who fails authentication: the payment fails authentication_failed, is not cascaded, nothing charged', async () => {
    const answer = await pay(t, challengeCard);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'fail');
    await expectFailedAuthentication(harness, back, paymentId);
    expect(await charged(t, hosted, paymentId)).toBe(0);
    expect(await t.ledger(fallback, { reference: paymentId })).toEqual([]);
  });

  it('ten browsers returning at once settle the payment once: one charge, one success event', async () => {
    const answer = await pay(t, challengeCard);
    const paymentId = answer.body.payment.id as string;
    const back = await authenticate(answer.body.redirectUrl, 'approve');
    await returnTenTimesAtOnce(back, paymentId);
    expect(await charged(t, hosted, paymentId)).toBe(2500);
    await expectSettledOnce(harness, t.merchant.accountId, paymentId);
  });

  it('a return before the shopper finished keeps the payment waiting; it can still finish', async () => {
    const answer = await pay(t, challengeCard);
    const paymentId = answer.body.payment.id as string;
    const redirectUrl = answer.body.redirectUrl as string;
    const early = await fetch(redirectUrl.replace('/authentication?', '/authentication/return?'), {
      headers: { accept: 'application/json' },
    });
    expect(await early.json()).toMatchObject({ settled: false, payment: { id: paymentId, status: 'requires_action' } });
    const back = await authenticate(redirectUrl, 'approve');
    expect(await landOnReturn(back)).toMatchObject({ settled: true, payment: { status: 'succeeded' } });
    expect(await charged(t, hosted, paymentId)).toBe(2500);
  });

  it('a merchant-initiated charge on the 3DS card never steps up: authentication_required', async () => {
    const answer = await pay(t, challengeCard, { initiatedBy: 'merchant' });
    expect(answer.body).toMatchObject({ code: 'authentication_required', data: { status: 'failed' } });
  });
});
