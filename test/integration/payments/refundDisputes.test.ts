import { randomUUID } from 'node:crypto';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards } from './paymentsFixtures';

/**
 * A payment with an open or lost dispute is not refunded (409 PAYMENT_DISPUTED, nothing reserved,
 * nothing sent to the processor); once its dispute is won, it may be refunded again.
 */
describe('refunds of disputed payments (Postgres, dev server, sandbox)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  const post = (path: string, body: unknown) =>
    call(harness, 'POST', `${api}${path}`, { token: t.token, body, headers: { 'idempotency-key': randomUUID() } });
  const disputedPayment = async (status: 'needs_response' | 'under_review' | 'won' | 'lost') => {
    const purchase = await post('/payments/process', {
      storeId: t.storeId,
      currency: 'EUR',
      customerId: t.customerId,
      amount: 1500,
      mode: 'purchase',
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(purchase.status).toBe(200);
    const paymentId = purchase.body.payment.id as string;
    const dispute = await post('/payments/disputes/create', { paymentId, amount: 1500, reason: 'fraudulent' });
    expect(dispute.status).toBe(200);
    if (status !== 'needs_response') {
      const updated = await post('/payments/disputes/update', { disputeId: dispute.body.id, status });
      expect(updated.status).toBe(200);
    }
    return paymentId;
  };
  const refundsAt = (paymentId: string) => t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'refund' });

  it('an open dispute: 10 refunds at once are all 409 PAYMENT_DISPUTED, none reaches the processor', async () => {
    const paymentId = await disputedPayment('needs_response');
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/payments/refund', { paymentId })));
    expect(answers.map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 10 }, () => [409, 'PAYMENT_DISPUTED']),
    );
    expect(await refundsAt(paymentId)).toEqual([]);
    expect(await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      amountRefunded: 0,
      status: 'succeeded',
    });
    expect(await harness.db.refund.count({ where: { paymentId } })).toBe(0);
  });

  it('a dispute under review or lost: 409 PAYMENT_DISPUTED', async () => {
    for (const status of ['under_review', 'lost'] as const) {
      const paymentId = await disputedPayment(status);
      const refund = await post('/payments/refund', { paymentId, amount: 500 });
      expect([status, refund.status, refund.body.code]).toEqual([status, 409, 'PAYMENT_DISPUTED']);
      expect(await refundsAt(paymentId)).toEqual([]);
    }
  });

  it('a won dispute allows refunds again', async () => {
    const paymentId = await disputedPayment('won');
    const refund = await post('/payments/refund', { paymentId, amount: 500 });
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({ paymentId, amount: 500, status: 'succeeded' });
    expect(await refundsAt(paymentId)).toEqual([expect.objectContaining({ amount: 500, outcome: 'succeeded' })]);
  });
});
