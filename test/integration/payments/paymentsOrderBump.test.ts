import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, payV2 } from './paymentsFixtures';

describe('pay-v2 on a checkout session with an order bump', () => {
  const harness = useHarness();

  it('charges the bumped total; the order has the bump as an item; a paid session takes no more bumps', async () => {
    const t = await createPaymentTenant(harness);
    const checkout = await t.checkout();
    const offer = await ok(harness, 'POST', '/offers/create', t.token, {
      storeId: t.storeId,
      type: 'bump',
      title: 'Gift wrap',
      priceId: t.priceId,
      priceOverride: { unitAmount: 499, currency: 'EUR' },
    });
    const bumped = await ok(harness, 'POST', `/offers/${offer.id}/apply`, t.token, { checkoutSessionId: checkout.id });
    expect(bumped.total).toBe(1999 + 499);

    const answer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ status: 'succeeded', amount: 2498 });
    expect(answer.body.order).toMatchObject({ status: 'paid', totalAmount: 2498 });
    const order = await ok(harness, 'GET', `/orders/${answer.body.order.id}`, t.token);
    expect(order.order.items).toHaveLength(2);

    const late = await call(harness, 'POST', `${api}/offers/${offer.id}/apply`, {
      token: t.token,
      body: { checkoutSessionId: checkout.id },
    });
    // Already on the session: the answer is the (paid) session, unchanged.
    expect(late.status).toBe(200);
    const another = await ok(harness, 'POST', '/offers/create', t.token, {
      storeId: t.storeId,
      type: 'bump',
      title: 'Socks',
      priceId: t.priceId,
    });
    const refused = await call(harness, 'POST', `${api}/offers/${another.id}/apply`, {
      token: t.token,
      body: { checkoutSessionId: checkout.id },
    });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'CHECKOUT_ALREADY_PAID' });
  });
});
