import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { cards } from './paymentsFixtures';

/** Ten identical follow-ups at once (a client retrying in a loop, a double-click) move money once. */
describe('capture, void and refund bursts (Postgres, dev server, sandbox)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  const authorize = async (amount: number) => {
    const answer = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: {
        storeId: t.storeId,
        currency: 'EUR',
        customerId: t.customerId,
        amount,
        mode: 'auth',
        paymentInstrumentId: await t.instrument(cards.approve),
      },
    });
    expect(answer.status).toBe(200);
    return answer.body.payment.id as string;
  };
  const burst = (path: string, body: unknown) =>
    Promise.all(Array.from({ length: 10 }, () => call(harness, 'POST', `${api}${path}`, { token: t.token, body })));

  it('10 identical captures: one 200, the rest 409 PAYMENT_NOT_CAPTURABLE, one capture at the acquirer', async () => {
    const paymentId = await authorize(2200);
    const answers = await burst('/payments/capture', { paymentId });
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 9 }, () => [409, 'PAYMENT_NOT_CAPTURABLE']),
    );
    expect(await t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'capture' })).toEqual([
      expect.objectContaining({ amount: 2200, outcome: 'succeeded' }),
    ]);
    expect(await ok(harness, 'GET', `/payments/${paymentId}`, t.token)).toMatchObject({
      status: 'succeeded',
      amountCaptured: 2200,
    });
  });

  it('10 identical voids: one 200, the rest 409 PAYMENT_NOT_VOIDABLE, one void at the acquirer', async () => {
    const paymentId = await authorize(800);
    const answers = await burst('/payments/void', { paymentId });
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 9 }, () => [409, 'PAYMENT_NOT_VOIDABLE']),
    );
    expect(await t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'void' })).toHaveLength(1);
  });

  it('10 identical full refunds: one refund of the whole amount, the rest 409 REFUND_EXCEEDS_CAPTURED', async () => {
    const paymentId = await authorize(1500);
    expect(
      (await call(harness, 'POST', `${api}/payments/capture`, { token: t.token, body: { paymentId } })).status,
    ).toBe(200);
    const answers = await burst('/payments/refund', { paymentId });
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 9 }, () => [409, 'REFUND_EXCEEDS_CAPTURED']),
    );
    const refunds = await t.ledger(t.processorIds[0]!, { reference: paymentId, operation: 'refund' });
    expect(refunds.reduce((sum: number, entry: any) => sum + entry.amount, 0)).toBe(1500);
    expect(await ok(harness, 'GET', `/payments/${paymentId}`, t.token)).toMatchObject({
      status: 'refunded',
      amountRefunded: 1500,
    });
  });
});
