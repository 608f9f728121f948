import { startHarness, type Harness } from '../../helpers/harness';
import { stripeKit } from '../processors/kits/stripe';
import type { KitAccount } from '../processors/kits/types';
import { createStripeTenant, tenantApi, type PaymentTenant } from './paymentsFixtures';

/** Payments, captures, voids and refunds through the engine to a stripe processor (the Stripe simulator). */
const stripe = stripeKit();

describe('payments through a stripe processor (Postgres, dev server, Stripe simulator)', () => {
  let harness: Harness;
  let t: PaymentTenant;
  let account: KitAccount;
  beforeAll(async () => {
    await stripe.start();
    harness = await startHarness();
    account = await stripe.account({ timeoutMs: 5000, holdMs: 0 });
    t = await createStripeTenant(harness, account.credentials);
  });
  afterAll(async () => {
    await harness?.stop();
    await stripe.stop();
  });

  const post = (path: string, body: Record<string, unknown>) => tenantApi(harness, t).post(path, body);
  const process = (card: string, amount: number, mode: 'purchase' | 'auth') =>
    tenantApi(harness, t).process(card, amount, mode);

  it('authorizes (auth), captures part of it at Stripe; what Stripe holds is what was captured', async () => {
    const auth = await process('4242424242424242', 3000, 'auth');
    expect(auth.body.payment).toMatchObject({ status: 'authorized', amount: 3000 });
    const paymentId = auth.body.payment.id as string;
    expect(await account.netCharged(paymentId)).toBe(3000);
    const captured = await post('/payments/capture', { paymentId, amount: 2000 });
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'succeeded', amountCaptured: 2000 });
    expect(await account.netCharged(paymentId)).toBe(2000);
  });

  it('voids an authorization at Stripe', async () => {
    const auth = await process('5555555555554444', 1500, 'auth');
    const paymentId = auth.body.payment.id as string;
    const voided = await post('/payments/void', { paymentId });
    expect(voided.body).toMatchObject({ status: 'canceled' });
    expect(await account.netCharged(paymentId)).toBe(0);
  });

  it('refunds a purchase in two parts at Stripe', async () => {
    const purchase = await process('4242424242424242', 1000, 'purchase');
    const paymentId = purchase.body.payment.id as string;
    expect(purchase.body.payment).toMatchObject({ status: 'succeeded' });
    const first = await post('/payments/refund', { paymentId, amount: 400 });
    expect(first.body).toMatchObject({ amount: 400, status: 'succeeded', payment: { status: 'partially_refunded' } });
    const rest = await post('/payments/refund', { paymentId });
    expect(rest.body).toMatchObject({ amount: 600, status: 'succeeded', payment: { status: 'refunded' } });
    expect(await account.netCharged(paymentId)).toBe(0);
  });

  it('keeps a refund Stripe answers pending as pending: its amount stays reserved and nothing is announced', async () => {
    const purchase = await process('4000000000007726', 1000, 'purchase');
    const paymentId = purchase.body.payment.id as string;
    const refund = await post('/payments/refund', { paymentId, amount: 300 });
    // Accepted, not final: 202, as for anything still in flight.
    expect(refund.status).toBe(202);
    expect(refund.body).toMatchObject({ amount: 300, status: 'pending', payment: { status: 'succeeded' } });
    const row = await harness.db.refund.findUniqueOrThrow({ where: { id: refund.body.id } });
    expect(row).toMatchObject({ status: 'pending', processorReference: expect.stringMatching(/^re_/) });
    const payment = await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({ status: 'succeeded', amountRefunded: 300 });
    const announced = await harness.db.event.findMany({
      where: { accountId: t.merchant.accountId, eventType: 's_payment_refunded' },
    });
    expect(announced.filter((event) => JSON.stringify(event).includes(paymentId))).toEqual([]);
    // The reservation holds: only what is left beside the pending refund can be refunded.
    const tooMuch = await post('/payments/refund', { paymentId, amount: 701 });
    expect(tooMuch.status).toBe(409);
  });
});
