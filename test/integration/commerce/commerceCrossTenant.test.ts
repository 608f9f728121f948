import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createCustomer, createProduct, createStore, ok } from './commerceHelpers';

/**
 * Write paths that name someone else's object: another account's (other merchant) or another
 * mode's (the same account's live key against test objects). The object a call is made on answers
 * 404; an object named inside a cart or offer answers exactly as one that does not exist. Either
 * way nothing is written, in either account.
 */
describe('commerce writes across accounts and modes', () => {
  const harness = useHarness();
  const t = useTenants(harness);
  // The victim: test-mode objects of t.merchant.
  let victim: {
    storeId: string;
    variantId: string;
    priceId: string;
    promotionId: string;
    code: { id: string; code: string };
  };

  beforeAll(async () => {
    const storeId = (await createStore(harness, t.merchant.token)).id;
    const product = await createProduct(
      harness,
      t.merchant.token,
      storeId,
      [{ unitAmount: 1000, currency: 'EUR' }],
      'Victim product',
    );
    const promotionId = (
      await ok(harness, 'POST', '/promotions', t.merchant.token, {
        storeId,
        name: 'Victim promo',
        discountType: 'percentage',
        percentBasisPoints: 5000,
      })
    ).id;
    const code = await ok(harness, 'POST', '/promotion-codes', t.merchant.token, {
      promotionId,
      code: `VICTIM${Date.now()}`,
      usageLimit: 1,
    });
    victim = {
      storeId,
      variantId: product.variants[0].id,
      priceId: product.variants[0].prices[0].id,
      promotionId,
      code,
    };
  });

  /** Row counts of every commerce table for both accounts, both modes. */
  async function footprint() {
    const where = { accountId: { in: [t.merchant.accountId, t.other.accountId] } };
    const { db } = harness;
    return {
      stores: await db.store.count({ where }),
      prices: await db.price.count({ where }),
      customers: await db.customer.count({ where }),
      promotions: await db.promotion.count({ where }),
      promotionCodes: await db.promotionCode.count({ where }),
      checkoutSessions: await db.checkoutSession.count({ where }),
      checkoutOffers: await db.checkoutOffer.count({ where }),
      emailTemplates: await db.emailTemplate.count({ where }),
      redemptions: await db.promotionRedemption.count({ where: { promotionCode: where } }),
      timesRedeemed: (await db.promotionCode.aggregate({ where, _sum: { timesRedeemed: true } }))._sum.timesRedeemed,
      promotionNames: (
        await db.promotion.findMany({ where, select: { name: true, active: true }, orderBy: { id: 'asc' } })
      ).map((row) => `${row.name}:${row.active}`),
    };
  }

  for (const attacker of ['another account', 'another mode'] as const) {
    describe(`from ${attacker}`, () => {
      let token: string;
      let own: { storeId: string; priceId: string; promotionId: string; customerId: string };
      beforeAll(async () => {
        token = attacker === 'another account' ? t.other.token : t.liveToken;
        const storeId = (await createStore(harness, token, { name: 'Attacker shop' })).id;
        const priceId = (
          await createProduct(harness, token, storeId, [{ unitAmount: 500, currency: 'EUR' }], 'Own product')
        ).variants[0].prices[0].id;
        const promotionId = (
          await ok(harness, 'POST', '/promotions', token, {
            storeId,
            name: 'Own promo',
            discountType: 'percentage',
            percentBasisPoints: 1000,
          })
        ).id;
        own = { storeId, priceId, promotionId, customerId: (await createCustomer(harness, token)).id };
      });

      const post = (path: string, body: unknown) => call(harness, 'POST', `${api}${path}`, { token, body });

      it('answers 404 for writes on objects it cannot see, and writes nothing', async () => {
        const before = await footprint();
        const attempts: [string, unknown][] = [
          ['/promotions/update', { id: victim.promotionId, data: { name: 'Hijacked', active: false } }],
          ['/prices', { variantId: victim.variantId, unitAmount: 1, currency: 'EUR' }],
          ['/promotion-codes', { promotionId: victim.promotionId, code: `STOLEN${Date.now()}` }],
          ['/promotions', { storeId: victim.storeId, name: 'x', discountType: 'percentage', percentBasisPoints: 100 }],
          [
            '/checkout-offers/create',
            {
              storeId: victim.storeId,
              type: 'upsell',
              titleTrans: { en: 'x' },
              lineItems: [{ priceId: own.priceId, quantity: 1 }],
            },
          ],
          [
            '/checkout-offers/create',
            {
              storeId: victim.storeId,
              type: 'upsell',
              titleTrans: { en: 'x' },
              lineItems: [{ priceId: victim.priceId, quantity: 1 }],
              promotionIds: [victim.promotionId],
            },
          ],
          [
            '/email-templates/create',
            { storeId: victim.storeId, name: 'x', eventType: 'order/paid', subject: 's', bodyHtml: 'b' },
          ],
          ['/customers', { email: `intruder-${Date.now()}@example.com`, storeId: victim.storeId }],
          [
            '/checkout-sessions',
            {
              storeId: victim.storeId,
              customerId: own.customerId,
              lineItems: [{ priceId: victim.priceId, quantity: 1 }],
            },
          ],
        ];
        for (const [path, body] of attempts) {
          const answer = await post(path, body);
          expect({ path, status: answer.status, body: answer.body }).toEqual({
            path,
            status: 404,
            body: { code: 'NOT_FOUND', message: expect.any(String) },
          });
        }
        expect(await footprint()).toEqual(before);
      });

      it("answers for another's price, promotion or code inside a cart or offer exactly as for one that does not exist, and writes nothing", async () => {
        const offer = (extra: Record<string, unknown>) => ({
          storeId: own.storeId,
          type: 'upsell',
          titleTrans: { en: 'x' },
          lineItems: [{ priceId: own.priceId, quantity: 1 }],
          ...extra,
        });
        const cart = (extra: Record<string, unknown>) => ({
          storeId: own.storeId,
          customerId: own.customerId,
          lineItems: [{ priceId: own.priceId, quantity: 1 }],
          ...extra,
        });
        // [path, body naming the victim's object, the same body naming nothing that exists]
        const pairs: [string, unknown, unknown][] = [
          [
            '/checkout-offers/create',
            offer({ lineItems: [{ priceId: victim.priceId, quantity: 1 }] }),
            offer({ lineItems: [{ priceId: 'price_doesnotexist', quantity: 1 }] }),
          ],
          [
            '/checkout-offers/create',
            offer({ promotionIds: [victim.promotionId] }),
            offer({ promotionIds: ['promo_doesnotexist'] }),
          ],
          [
            '/checkout-sessions',
            cart({ lineItems: [{ priceId: victim.priceId, quantity: 1 }] }),
            cart({ lineItems: [{ priceId: 'price_doesnotexist', quantity: 1 }] }),
          ],
          [
            '/checkout-sessions',
            cart({ promotionCodes: [victim.code.code] }),
            cart({ promotionCodes: ['DOESNOTEXIST'] }),
          ],
          [
            '/checkout-sessions',
            cart({ promotionCodes: [victim.code.code.toLowerCase()] }),
            cart({ promotionCodes: ['doesnotexist'] }),
          ],
        ];
        const before = await footprint();
        for (const [path, foreign, missing] of pairs) {
          const [a, b] = [await post(path, foreign), await post(path, missing)];
          const scrub = (text: string) => text.replace(/price_\w+|promo_\w+|VICTIM\d+|DOESNOTEXIST/gi, '<id>');
          expect({ path, status: a.status, code: a.body.code, message: scrub(a.body.message) }).toEqual({
            path,
            status: b.status,
            code: b.body.code,
            message: scrub(b.body.message),
          });
          expect(a.status).toBeGreaterThanOrEqual(400);
          expect(a.status).toBeLessThan(500);
        }
        expect(await footprint()).toEqual(before);
        // The victim's limit-1 code is still unused, so nothing was redeemed on its behalf.
        expect((await ok(harness, 'GET', `/promotion-codes/${victim.code.id}`, t.merchant.token)).timesRedeemed).toBe(
          0,
        );
      });

      it("cannot point its own offer at the victim's price or promotion through update", async () => {
        const mine = await ok(harness, 'POST', '/checkout-offers/create', token, {
          storeId: own.storeId,
          type: 'upsell',
          titleTrans: { en: 'x' },
          lineItems: [{ priceId: own.priceId, quantity: 1 }],
        });
        const before = await footprint();
        const updates = [
          { lineItems: [{ priceId: victim.priceId, quantity: 1 }] },
          { promotionIds: [victim.promotionId] },
        ];
        for (const data of updates)
          expect((await post('/checkout-offers/update', { id: mine.id, data })).status).toBe(400);
        expect(await footprint()).toEqual(before);
        const unchanged = await ok(harness, 'POST', `/checkout-offers/${mine.id}`, token);
        expect(unchanged).toMatchObject({ lineItems: [{ priceId: own.priceId }], promotionIds: [] });
      });
    });
  }
});
