import { addCrmKey } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, type PaymentTenant } from './paymentsFixtures';

describe('GET /refunds/{refundId}', () => {
  const harness = useHarness();
  let owner: PaymentTenant;
  let other: PaymentTenant;
  let refundId: string;
  let paymentId: string;
  beforeAll(async () => {
    [owner, other] = await Promise.all([createPaymentTenant(harness), createPaymentTenant(harness)]);
    const paid = await call(harness, 'POST', `${api}/payments/process`, {
      token: owner.token,
      body: {
        storeId: owner.storeId,
        customerId: owner.customerId,
        paymentInstrumentId: await owner.instrument(cards.approve),
        amount: 3000,
        currency: 'EUR',
      },
    });
    expect(paid.status).toBe(200);
    paymentId = paid.body.payment.id;
    const refunded = await call(harness, 'POST', `${api}/payments/refund`, {
      token: owner.token,
      body: { paymentId, amount: 1200, reason: 'damaged' },
    });
    expect(refunded.status).toBe(200);
    refundId = refunded.body.id;
  });

  const lookup = (id: string, token?: string) => call(harness, 'GET', `${api}/refunds/${id}`, { token });

  it("answers the caller's refund as recorded, with its payment as it stands now", async () => {
    const found = await lookup(refundId, owner.token);
    expect(found.status).toBe(200);
    const row = await harness.db.refund.findUniqueOrThrow({ where: { id: refundId } });
    expect(found.body).toEqual({
      id: refundId,
      paymentId,
      amount: 1200,
      currency: 'EUR',
      status: 'succeeded',
      reason: 'damaged',
      failureCode: null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      payment: { id: paymentId, status: 'partially_refunded', amount: 3000, currency: 'EUR' },
    });
    // The payment part follows later refunds.
    await call(harness, 'POST', `${api}/payments/refund`, { token: owner.token, body: { paymentId } });
    expect((await lookup(refundId, owner.token)).body.payment.status).toBe('refunded');
  });

  it('is open to member keys (reading needs no admin role)', async () => {
    const member = await addCrmKey(harness.db, owner.merchant, { role: 'org:member' });
    expect((await lookup(refundId, member)).status).toBe(200);
  });

  it("answers 404 for another merchant's refund, and for the same account's other mode", async () => {
    const foreign = await lookup(refundId, other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'NOT_FOUND', message: 'Refund not found' });
    const live = await addCrmKey(harness.db, owner.merchant, { mode: 'live' });
    expect((await lookup(refundId, live)).status).toBe(404);
    expect((await lookup('re_doesNotExist0000000', owner.token)).status).toBe(404);
  });

  it('answers 400 VALIDATION_ERROR for an id without the re_ prefix, after authentication', async () => {
    for (const id of [refundId.slice(3), paymentId]) {
      const answer = await lookup(id, owner.token);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', issues: [{ path: 'refundId' }] });
    }
    expect((await lookup(refundId.slice(3))).status).toBe(401);
  });
});
