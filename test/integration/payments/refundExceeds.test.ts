import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { cards } from './paymentsFixtures';

describe('a refund above what is left says how much is still refundable', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  const refund = (body: Record<string, unknown>) =>
    call(harness, 'POST', `${api}/payments/refund`, { token: t.token, body });

  it('names the refundable amount and currency in minor units, keeping the code REFUND_EXCEEDS_CAPTURED', async () => {
    const paid = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: {
        storeId: t.storeId,
        customerId: t.customerId,
        paymentInstrumentId: await t.instrument(cards.approve),
        amount: 3000,
        currency: 'EUR',
      },
    });
    expect(paid.status).toBe(200);
    const paymentId = paid.body.payment.id;
    expect((await refund({ paymentId, amount: 2000 })).status).toBe(200);

    const over = await refund({ paymentId, amount: 1500 });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({
      code: 'REFUND_EXCEEDS_CAPTURED',
      message:
        'A refund of 1500 EUR would exceed the captured amount: 1000 EUR is still refundable (minor units; ' +
        '3000 captured, 2000 already refunded or pending); send an amount up to 1000, or none to refund all that is left',
    });
    // What the message offers works.
    const rest = await refund({ paymentId, amount: 1000 });
    expect(rest.status).toBe(200);
    expect(rest.body.payment.status).toBe('refunded');
  });
});
