import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createStore, ok } from './commerceHelpers';

describe('checkout offers and email templates over HTTP', () => {
  const harness = useHarness();
  const shop = useShop(harness, { price: { unitAmount: 2500, currency: 'EUR', product: 'Gloves' } });
  let promotionId: string;
  beforeAll(async () => {
    promotionId = (
      await ok(harness, 'POST', '/promotions', shop.merchant.token, {
        storeId: shop.storeId,
        name: 'Bundle',
        discountType: 'percentage',
        percentBasisPoints: 2000,
      })
    ).id;
  });

  describe('checkout offers', () => {
    it('POST /checkout-offers/create, then POST /checkout-offers/{id} returns it with line items and promotions; list and update', async () => {
      const offer = await ok(harness, 'POST', '/checkout-offers/create', shop.merchant.token, {
        storeId: shop.storeId,
        type: 'upsell',
        titleTrans: { en: 'Add gloves', de: 'Handschuhe dazu' },
        lineItems: [{ priceId: shop.priceId, quantity: 2 }],
        promotionIds: [promotionId],
      });
      expect(offer).toMatchObject({
        storeId: shop.storeId,
        type: 'upsell',
        titleTrans: { en: 'Add gloves', de: 'Handschuhe dazu' },
        lineItems: [{ priceId: shop.priceId, quantity: 2, unitAmount: 2500, currency: 'EUR', productName: 'Gloves' }],
        promotionIds: [promotionId],
        promotions: [{ id: promotionId, name: 'Bundle', discountType: 'percentage', percentBasisPoints: 2000 }],
        active: true,
      });
      expect(offer.id).toMatch(/^co_/);
      expect(await ok(harness, 'POST', `/checkout-offers/${offer.id}`, shop.merchant.token)).toEqual(offer);
      const listed = await ok(harness, 'POST', '/checkout-offers/list', shop.merchant.token, {
        filters: { storeId: shop.storeId, type: 'upsell' },
      });
      expect(listed.data.map((row: { id: string }) => row.id)).toContain(offer.id);
      for (const type of ['mystery', ['upsell', 'mystery'], { condition: 'contains', value: 'sell' }]) {
        const answer = await call(harness, 'POST', `${api}/checkout-offers/list`, {
          token: shop.merchant.token,
          body: { filters: { type } },
        });
        expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: 'INVALID_FILTER' });
      }
      const updated = await ok(harness, 'POST', '/checkout-offers/update', shop.merchant.token, {
        id: offer.id,
        data: { type: 'downsell', promotionIds: [], active: false },
      });
      expect(updated).toMatchObject({ type: 'downsell', promotionIds: [], promotions: [], active: false });
    });

    it('refuses unknown prices or promotions, bad language codes and unknown types with 400', async () => {
      const base = {
        storeId: shop.storeId,
        type: 'upsell',
        titleTrans: { en: 'x' },
        lineItems: [{ priceId: shop.priceId, quantity: 1 }],
      };
      const cases = [
        { ...base, lineItems: [{ priceId: 'price_nope', quantity: 1 }] },
        { ...base, promotionIds: ['promo_nope'] },
        { ...base, titleTrans: { english: 'x' } },
        { ...base, titleTrans: {} },
        { ...base, type: 'mystery' },
      ];
      for (const body of cases)
        expect(
          (await call(harness, 'POST', `${api}/checkout-offers/create`, { token: shop.merchant.token, body })).status,
        ).toBe(400);
    });

    it("hides another account's offers and test-mode offers from live keys", async () => {
      const offer = await ok(harness, 'POST', '/checkout-offers/create', shop.merchant.token, {
        storeId: shop.storeId,
        type: 'order_bump',
        titleTrans: { en: 'Bump' },
        lineItems: [{ priceId: shop.priceId, quantity: 1 }],
      });
      for (const token of [shop.other.token, shop.liveToken]) {
        expect((await call(harness, 'POST', `${api}/checkout-offers/${offer.id}`, { token })).status).toBe(404);
        expect(
          (
            await call(harness, 'POST', `${api}/checkout-offers/update`, {
              token,
              body: { id: offer.id, data: { active: false } },
            })
          ).status,
        ).toBe(404);
        expect(
          (await ok(harness, 'POST', '/checkout-offers/list', token, {})).data.map((row: { id: string }) => row.id),
        ).not.toContain(offer.id);
      }
    });
  });

  describe('email templates', () => {
    it('creates, lists per store, gets and updates templates', async () => {
      const otherStore = (await createStore(harness, shop.merchant.token, { name: 'Second' })).id;
      const receipt = await ok(harness, 'POST', '/email-templates/create', shop.merchant.token, {
        storeId: shop.storeId,
        name: 'Receipt',
        eventType: 'order/paid',
        subject: 'Thanks for your order',
        bodyHtml: '<p>Thanks {{customer.name}}</p>',
      });
      expect(receipt).toMatchObject({
        storeId: shop.storeId,
        name: 'Receipt',
        eventType: 'order/paid',
        bodyText: null,
        active: true,
      });
      await ok(harness, 'POST', '/email-templates/create', shop.merchant.token, {
        storeId: otherStore,
        name: 'Elsewhere',
        eventType: 'order/paid',
        subject: 's',
        bodyHtml: 'b',
      });
      const listed = await ok(harness, 'POST', '/email-templates/list', shop.merchant.token, { storeId: shop.storeId });
      expect(listed.data).toEqual([receipt]);
      expect(await ok(harness, 'GET', `/email-templates/${receipt.id}`, shop.merchant.token)).toEqual(receipt);
      const updated = await ok(harness, 'POST', '/email-templates/update', shop.merchant.token, {
        id: receipt.id,
        data: { subject: 'Your receipt', active: false },
      });
      expect(updated).toMatchObject({ subject: 'Your receipt', active: false });
      expect(
        (
          await call(harness, 'POST', `${api}/email-templates/create`, {
            token: shop.merchant.token,
            body: { storeId: shop.storeId, name: 'x', eventType: 'Bad Type!', subject: 's', bodyHtml: 'b' },
          })
        ).status,
      ).toBe(400);
      expect(
        (await call(harness, 'POST', `${api}/email-templates/list`, { token: shop.merchant.token, body: {} })).status,
      ).toBe(400);
    });

    it("hides another account's templates and test-mode templates from live keys", async () => {
      const template = await ok(harness, 'POST', '/email-templates/create', shop.merchant.token, {
        storeId: shop.storeId,
        name: 'Hidden',
        eventType: 'order/refunded',
        subject: 's',
        bodyHtml: 'b',
      });
      for (const token of [shop.other.token, shop.liveToken]) {
        expect((await call(harness, 'GET', `${api}/email-templates/${template.id}`, { token })).status).toBe(404);
        expect(
          (await call(harness, 'POST', `${api}/email-templates/list`, { token, body: { storeId: shop.storeId } }))
            .status,
        ).toBe(404);
        expect(
          (
            await call(harness, 'POST', `${api}/email-templates/update`, {
              token,
              body: { id: template.id, data: { name: 'x' } },
            })
          ).status,
        ).toBe(404);
      }
    });
  });

  it('documents every commerce route in /openapi.json', async () => {
    const answer = await call(harness, 'GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const expected: [string, string][] = [
      ['post', '/stores'],
      ['post', '/stores/list'],
      ['post', '/stores/update'],
      ['get', '/stores/{storeId}'],
      ['post', '/products'],
      ['post', '/products/list'],
      ['get', '/products/{productId}'],
      ['put', '/products/{productId}'],
      ['post', '/prices'],
      ['post', '/prices/list'],
      ['post', '/prices/update'],
      ['get', '/prices/{priceId}'],
      ['post', '/customers'],
      ['post', '/customers/list'],
      ['post', '/customers/update'],
      ['get', '/customers/{customerId}'],
      ['post', '/payment-instruments'],
      ['post', '/payment-instruments/list'],
      ['post', '/payment-instruments/update'],
      ['get', '/payment-instruments/{paymentInstrumentId}'],
      ['get', '/customers/{customerId}/payment-instruments'],
      ['post', '/checkout-sessions'],
      ['post', '/checkout-sessions/list'],
      ['post', '/checkout-sessions/expire'],
      ['get', '/checkout-sessions/{checkoutSessionId}'],
      ['post', '/orders/list'],
      ['get', '/orders/{orderId}'],
      ['post', '/promotions'],
      ['post', '/promotions/list'],
      ['post', '/promotions/update'],
      ['get', '/promotions/{promotionId}'],
      ['post', '/promotion-codes'],
      ['post', '/promotion-codes/list'],
      ['post', '/promotion-codes/update'],
      ['get', '/promotion-codes/{promotionCodeId}'],
      ['post', '/checkout-offers/create'],
      ['post', '/checkout-offers/list'],
      ['post', '/checkout-offers/update'],
      ['post', '/checkout-offers/{id}'],
      ['post', '/email-templates/create'],
      ['post', '/email-templates/list'],
      ['post', '/email-templates/update'],
      ['get', '/email-templates/{emailTemplateId}'],
    ];
    const missing = expected.filter(([method, path]) => !answer.body.paths[`${api}${path}`]?.[method]);
    expect(missing).toEqual([]);
    const update = answer.body.paths[`${api}/promotion-codes/update`].post;
    expect(update.requestBody.content['application/json'].schema).toBeDefined();
    expect(update.security).toEqual([{ bearerAuth: [] }]);
    // The card number goes in, and never comes out.
    const instrument = JSON.stringify(answer.body.components.schemas.PaymentInstrument);
    expect(instrument).toContain('last4');
    expect(instrument).not.toMatch(/"number"|encryptedPan|cvc/);
  });
});
