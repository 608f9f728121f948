import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createProduct, createStore, ok } from './commerceHelpers';

const ids = (list: { data: { id: string }[] }) => list.data.map((row) => row.id);

describe('products and prices over HTTP', () => {
  const harness = useHarness();
  const shop = useShop(harness);

  describe('products and prices', () => {
    it('creates a product with variants and one-time and recurring prices', async () => {
      const product = await ok(harness, 'POST', '/products', shop.merchant.token, {
        storeId: shop.storeId,
        name: 'Coffee club',
        description: 'Beans',
        isShippable: true,
        variants: [
          {
            name: '250 g',
            sku: 'C-250',
            prices: [
              { unitAmount: 1299, currency: 'EUR' },
              { unitAmount: 1199, currency: 'EUR', type: 'recurring', interval: 'month' },
            ],
          },
          {
            name: '1 kg',
            prices: [{ unitAmount: 3999, currency: 'EUR', type: 'recurring', interval: 'week', intervalCount: 2 }],
          },
        ],
      });
      expect(product).toMatchObject({ name: 'Coffee club', isShippable: true, isTaxable: true, active: true });
      expect(product.variants).toHaveLength(2);
      expect(product.variants[0].prices).toEqual([
        expect.objectContaining({
          unitAmount: 1299,
          currency: 'EUR',
          type: 'one_time',
          interval: null,
          intervalCount: null,
        }),
        expect.objectContaining({ unitAmount: 1199, type: 'recurring', interval: 'month', intervalCount: 1 }),
      ]);
      expect(product.variants[1].prices[0]).toMatchObject({ interval: 'week', intervalCount: 2 });
      expect(await ok(harness, 'GET', `/products/${product.id}`, shop.merchant.token)).toEqual(product);

      const price = await ok(harness, 'POST', '/prices', shop.merchant.token, {
        variantId: product.variants[1].id,
        unitAmount: 450000,
        currency: 'JPY',
      });
      expect(price).toMatchObject({ productId: product.id, unitAmount: 450000, currency: 'JPY', type: 'one_time' });
      expect(await ok(harness, 'GET', `/prices/${price.id}`, shop.merchant.token)).toEqual(price);
      const listed = await ok(harness, 'POST', '/prices/list', shop.merchant.token, {
        filters: { productId: product.id, type: 'recurring' },
        sortBy: { field: 'unitAmount', direction: 'asc' },
      });
      expect(listed.data.map((row: { unitAmount: number }) => row.unitAmount)).toEqual([1199, 3999]);
      const deactivated = await ok(harness, 'POST', '/prices/update', shop.merchant.token, {
        id: price.id,
        data: { active: false },
      });
      expect(deactivated).toMatchObject({ id: price.id, active: false, unitAmount: 450000 });
      const amountChange = await call(harness, 'POST', `${api}/prices/update`, {
        token: shop.merchant.token,
        body: { id: price.id, data: { unitAmount: 1 } },
      });
      expect(amountChange.status).toBe(400);
    });

    it('rejects a recurring price without interval, a fractional amount, a product without variants, and unknown price properties', async () => {
      const cases = [
        {
          storeId: shop.storeId,
          name: 'X',
          variants: [{ name: 'v', prices: [{ unitAmount: 100, currency: 'EUR', type: 'recurring' }] }],
        },
        {
          storeId: shop.storeId,
          name: 'X',
          variants: [{ name: 'v', prices: [{ unitAmount: 10.5, currency: 'EUR' }] }],
        },
        { storeId: shop.storeId, name: 'X', variants: [] },
      ];
      for (const body of cases) {
        const answer = await call(harness, 'POST', `${api}/products`, { token: shop.merchant.token, body });
        expect(answer.status).toBe(400);
      }
      const variantId = (
        await createProduct(
          harness,
          shop.merchant.token,
          shop.storeId,
          [{ unitAmount: 100, currency: 'EUR' }],
          'Strict',
        )
      ).variants[0].id;
      const price = { variantId, unitAmount: 200, currency: 'EUR' };
      expect((await call(harness, 'POST', `${api}/prices`, { token: shop.merchant.token, body: price })).status).toBe(
        200,
      );
      for (const body of [
        { ...price, bogus: 1 },
        { ...price, type: 'recurring' },
        { ...price, interval: 'month' },
      ]) {
        const answer = await call(harness, 'POST', `${api}/prices`, { token: shop.merchant.token, body });
        expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      }
      expect(await harness.db.price.count({ where: { variantId } })).toBe(2);
    });

    it('PUT /products/{id} with updatedData answers the product shape', async () => {
      const product = await createProduct(
        harness,
        shop.merchant.token,
        shop.storeId,
        [{ unitAmount: 500, currency: 'EUR' }],
        'Mug',
      );
      const updated = await ok(harness, 'PUT', `/products/${product.id}`, shop.merchant.token, {
        updatedData: {
          name: 'Big mug',
          description: 'Holds more',
          active: false,
          isShippable: true,
          isTaxable: false,
          taxCode: 'txcd_99999999',
          weightGrams: 450,
        },
      });
      expect(updated).toMatchObject({
        id: product.id,
        name: 'Big mug',
        description: 'Holds more',
        active: false,
        isShippable: true,
        isTaxable: false,
        taxCode: 'txcd_99999999',
        weightGrams: 450,
        variants: [{ id: product.variants[0].id, name: 'Default', prices: [{ id: product.variants[0].prices[0].id }] }],
      });
      const unknown = await call(harness, 'PUT', `${api}/products/${product.id}`, {
        token: shop.merchant.token,
        body: { updatedData: { price: 1 } },
      });
      expect(unknown.status).toBe(400);
    });

    it('lists with filters, sorting and pagination; unknown sort or filter is 400', async () => {
      const listStoreId = (await createStore(harness, shop.merchant.token, { name: 'List shop' })).id;
      for (const name of ['Alpha', 'Bravo', 'Charlie'])
        await createProduct(harness, shop.merchant.token, listStoreId, [{ unitAmount: 100, currency: 'EUR' }], name);
      const page1 = await ok(harness, 'POST', '/products/list', shop.merchant.token, {
        filters: { storeId: listStoreId },
        sortBy: { field: 'name', direction: 'asc' },
        pagination: { page: 1, pageSize: 2 },
      });
      expect(page1.data.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'Bravo']);
      expect(page1.pagination).toEqual({ page: 1, pageSize: 2, totalCount: 3, totalPages: 2 });
      const page2 = await ok(harness, 'POST', '/products/list', shop.merchant.token, {
        filters: { storeId: listStoreId },
        sortBy: { field: 'name', direction: 'asc' },
        pagination: { page: 2, pageSize: 2 },
      });
      expect(page2.data.map((p: { name: string }) => p.name)).toEqual(['Charlie']);
      const contains = await ok(harness, 'POST', '/products/list', shop.merchant.token, {
        filters: { storeId: [listStoreId], name: { condition: 'contains', value: 'RAV' } },
      });
      expect(contains.data.map((p: { name: string }) => p.name)).toEqual(['Bravo']);
      // A day either side, so a run across 00:00 UTC still finds what it just made.
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const dated = await ok(harness, 'POST', '/products/list', shop.merchant.token, {
        filters: { storeId: listStoreId, createdAt: { condition: 'is-between-date', value: [day(-1), day(1)] } },
      });
      expect(dated.pagination.totalCount).toBe(3);

      const rejected: [unknown, string][] = [
        [{ sortBy: { field: 'secret', direction: 'asc' } }, 'INVALID_SORT_FIELD'],
        [{ filters: { color: 'red' } }, 'INVALID_FILTER'],
        [{ pagination: { page: 1, pageSize: 101 } }, 'VALIDATION_ERROR'],
        // Names every object inherits must be as unknown as any other.
        [{ filters: { constructor: 'x' } }, 'INVALID_FILTER'],
        [{ filters: { hasOwnProperty: { condition: 'equals', value: 'x' } } }, 'INVALID_FILTER'],
        [{ filters: { toString: ['x'] } }, 'INVALID_FILTER'],
        [{ sortBy: { field: 'constructor', direction: 'asc' } }, 'INVALID_SORT_FIELD'],
        [{ sortBy: { field: 'hasOwnProperty', direction: 'desc' } }, 'INVALID_SORT_FIELD'],
      ];
      for (const [body, code] of rejected) {
        const answer = await call(harness, 'POST', `${api}/products/list`, { token: shop.merchant.token, body });
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 400,
          body: expect.objectContaining({ message: expect.any(String), code }),
        });
      }
      const proto = await call(harness, 'POST', `${api}/products/list`, {
        token: shop.merchant.token,
        raw: '{"filters":{"__proto__":"x"}}',
      });
      expect({ status: proto.status, code: proto.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    });

    it("hides another account's products and test-mode products from live keys", async () => {
      const product = await createProduct(
        harness,
        shop.merchant.token,
        shop.storeId,
        [{ unitAmount: 100, currency: 'EUR' }],
        'Secret',
      );
      for (const token of [shop.other.token, shop.liveToken]) {
        expect((await call(harness, 'GET', `${api}/products/${product.id}`, { token })).status).toBe(404);
        expect(
          (await call(harness, 'GET', `${api}/prices/${product.variants[0].prices[0].id}`, { token })).status,
        ).toBe(404);
        expect(
          (
            await call(harness, 'POST', `${api}/prices/update`, {
              token,
              body: { id: product.variants[0].prices[0].id, data: { active: false } },
            })
          ).status,
        ).toBe(404);
        expect(ids(await ok(harness, 'POST', '/prices/list', token, {}))).not.toContain(
          product.variants[0].prices[0].id,
        );
        expect(
          (await call(harness, 'PUT', `${api}/products/${product.id}`, { token, body: { updatedData: { name: 'x' } } }))
            .status,
        ).toBe(404);
        expect(ids(await ok(harness, 'POST', '/products/list', token, {}))).not.toContain(product.id);
        // A product cannot be created on a store the key does not see.
        const foreign = await call(harness, 'POST', `${api}/products`, {
          token,
          body: { storeId: shop.storeId, name: 'X', variants: [{ name: 'v' }] },
        });
        expect(foreign.status).toBe(404);
      }
    });
  });
});
