import { call, startHarness, type Harness } from '../../helpers/harness';
import { api } from '../commerce/commerceHelpers';
import { createPaymentTenant } from './paymentsFixtures';

/** The sandbox's 3-D Secure card, which the acquirer refuses without authenticated values. */
const requires3dsCard = '4000000000003220';

describe('a card the issuer wants authenticated, on a flow without 3-D Secure', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('fails authentication_required with a message that says how to authenticate', async () => {
    const t = await createPaymentTenant(harness);
    const answer = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: {
        storeId: t.storeId,
        amount: 700,
        currency: 'EUR',
        paymentInstrumentId: await t.instrument(requires3dsCard),
        customerId: t.customerId,
      },
    });
    expect(answer.status).toBe(402);
    expect(answer.body.code).toBe('authentication_required');
    expect(answer.body.message).toContain('threeDsEnabled on the payment flow and enable3DS on its processor');
    expect(answer.body.message).toContain('threeDs values of your own 3-D Secure server');
  });
});
