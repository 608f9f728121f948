import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api } from '../commerce/commerceHelpers';
import { createPaymentTenant, type PaymentTenant } from './paymentsFixtures';

/** The sandbox's 3-D Secure card, which the acquirer refuses without authenticated values. */
const requires3dsCard = '4000000000003220';

describe('a card the issuer wants authenticated, on a flow without 3-D Secure', () => {
  const harness = useHarness();

  const pay = async (t: PaymentTenant) =>
    call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: {
        storeId: t.storeId,
        amount: 700,
        currency: 'EUR',
        paymentInstrumentId: await t.instrument(requires3dsCard),
        customerId: t.customerId,
      },
    });

  it('fails authentication_required with a message that names the flow and processor to turn 3-D Secure on for', async () => {
    const t = await createPaymentTenant(harness);
    const answer = await pay(t);
    expect(answer.status).toBe(402);
    expect(answer.body.code).toBe('authentication_required');
    const processorId = t.processorIds[0]!;
    expect(answer.body.message).toBe(
      'This card requires 3-D Secure authentication. Authenticate the cardholder first: turn on ' +
        `threeDsEnabled on payment flow ${t.flowId} (POST /payment-flows/update) and enable3DS on processor ` +
        `${processorId} (POST /processors/update) so the engine runs 3-D Secure, or send the threeDs values of ` +
        'your own 3-D Secure server.',
    );
    // The payment keeps the same words for whoever reads it later.
    const payment = await call(harness, 'GET', `${api}/payments/${answer.body.data.paymentId}`, { token: t.token });
    expect(payment.body.declineMessage).toBe(answer.body.message);
    expect(payment.body.attempts[0].message).toBe(answer.body.message);
  });

  it('names only what is off: a flow with threeDsEnabled over a processor without enable3DS', async () => {
    const t = await createPaymentTenant(harness, { flow: { threeDsEnabled: true } });
    const answer = await pay(t);
    expect(answer.status).toBe(402);
    expect(answer.body.code).toBe('authentication_required');
    expect(answer.body.message).toContain(
      `turn on enable3DS on processor ${t.processorIds[0]} (POST /processors/update)`,
    );
    expect(answer.body.message).not.toContain('threeDsEnabled on payment flow');
  });
});
