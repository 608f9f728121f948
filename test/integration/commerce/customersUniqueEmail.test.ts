import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createProduct, createStore, ok } from './commerceHelpers';

/** One customer per (account, mode, store, lower-cased e-mail), under concurrency too. */
describe('customers are unique per store and lower-cased e-mail', () => {
  const harness = useHarness();
  const t = useTenants(harness);
  let storeId: string;
  let otherStoreId: string;
  let priceId: string;

  const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const createCustomer = (body: Record<string, unknown>, token = t.merchant.token) =>
    call(harness, 'POST', `${api}/customers`, { token, body });
  const customersWith = (email: string) =>
    harness.db.customer.findMany({ where: { accountId: t.merchant.accountId, email: email.toLowerCase() } });

  beforeAll(async () => {
    storeId = (await createStore(harness, t.merchant.token)).id;
    otherStoreId = (await createStore(harness, t.merchant.token, { name: 'Second shop' })).id;
    priceId = (await createProduct(harness, t.merchant.token, storeId, [{ unitAmount: 2500, currency: 'EUR' }]))
      .variants[0].prices[0].id;
  });

  it('10 concurrent checkouts with one new e-mail and a first-time code: one customer, exactly one gets the code', async () => {
    const promotion = await ok(harness, 'POST', '/promotions', t.merchant.token, {
      storeId,
      name: 'welcome',
      discountType: 'percentage',
      percentBasisPoints: 1000,
    });
    const welcome = await ok(harness, 'POST', '/promotion-codes', t.merchant.token, {
      promotionId: promotion.id,
      code: `WELCOME${Date.now()}`,
      firstTimeCustomersOnly: true,
    });
    const email = uniqueEmail('Newcomer');
    // Spelled in different cases: still one person.
    const spellings = [email, email.toUpperCase(), email.toLowerCase()];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        call(harness, 'POST', `${api}/checkout-sessions`, {
          token: t.merchant.token,
          body: {
            storeId,
            customer: { email: spellings[index % 3] },
            lineItems: [{ priceId, quantity: 1 }],
            promotionCodes: [welcome.code],
          },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(
      answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.code]),
    ).toEqual(Array(9).fill([400, 'PROMOTION_CODE_FIRST_TIME_ONLY']));
    const customers = await customersWith(email);
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ storeId, email: email.toLowerCase() });
    expect(await harness.db.promotionRedemption.count({ where: { promotionCodeId: welcome.id } })).toBe(1);
    expect((await ok(harness, 'GET', `/promotion-codes/${welcome.id}`, t.merchant.token)).timesRedeemed).toBe(1);
  });

  it('10 concurrent checkouts without a code and one new e-mail: ten sessions of one customer', async () => {
    const email = uniqueEmail('plain');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(harness, 'POST', `${api}/checkout-sessions`, {
          token: t.merchant.token,
          body: { storeId, customer: { email }, lineItems: [{ priceId, quantity: 1 }] },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((answer) => answer.body.customerId)).size).toBe(1);
    expect(await customersWith(email)).toHaveLength(1);
  });

  it.each([
    ['in a store', true],
    ['without a store (account level)', false],
  ])(
    '12 concurrent identical POST /customers %s: one 200, eleven 409 CUSTOMER_EMAIL_EXISTS, one row',
    async (_label, withStore) => {
      const email = uniqueEmail('Twelve');
      const body = { email, firstName: 'Ada', ...(withStore ? { storeId } : {}) };
      const answers = await Promise.all(Array.from({ length: 12 }, () => createCustomer(body)));
      const created = answers.filter((answer) => answer.status === 200);
      expect(created).toHaveLength(1);
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused.map((answer) => answer.status)).toEqual(Array(11).fill(409));
      for (const answer of refused) {
        expect(answer.body).toEqual({
          code: 'CUSTOMER_EMAIL_EXISTS',
          message: `A customer with this e-mail already exists in this store (${created[0]!.body.id})`,
        });
      }
      const rows = await customersWith(email);
      expect(rows.map((row) => row.id)).toEqual([created[0]!.body.id]);
      expect(rows[0]!.storeId).toBe(withStore ? storeId : null);
    },
  );

  it('the same e-mail in another case is the same customer; another store, mode or account may have its own', async () => {
    const email = uniqueEmail('Case');
    const first = await createCustomer({ email, storeId });
    expect(first.status).toBe(200);
    expect(first.body.email).toBe(email.toLowerCase());
    expect((await createCustomer({ email: email.toUpperCase(), storeId })).body.code).toBe('CUSTOMER_EMAIL_EXISTS');
    expect((await createCustomer({ email, storeId: otherStoreId })).status).toBe(200);
    expect((await createCustomer({ email })).status).toBe(200);
    expect((await createCustomer({ email }, t.liveToken)).status).toBe(200);
    expect((await createCustomer({ email }, t.other.token)).status).toBe(200);
  });

  it('updating a customer to an e-mail its store already has is a 409; its own e-mail in another case is fine', async () => {
    const taken = uniqueEmail('taken');
    await createCustomer({ email: taken, storeId });
    const mover = (await createCustomer({ email: uniqueEmail('mover'), storeId })).body;
    const clash = await call(harness, 'POST', `${api}/customers/update`, {
      token: t.merchant.token,
      body: { id: mover.id, data: { email: taken.toUpperCase() } },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('CUSTOMER_EMAIL_EXISTS');
    const same = await call(harness, 'POST', `${api}/customers/update`, {
      token: t.merchant.token,
      body: { id: mover.id, data: { email: mover.email.toUpperCase(), firstName: 'Grace' } },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ email: mover.email, firstName: 'Grace' });
  });

  it('the database refuses a second row for the key and an e-mail that is not lower-cased', async () => {
    const email = uniqueEmail('raw');
    const row = { accountId: t.merchant.accountId, mode: 'test' as const, storeId: null, email };
    await harness.db.customer.create({ data: { id: `cus_raw${Date.now()}a`, ...row } });
    await expect(harness.db.customer.create({ data: { id: `cus_raw${Date.now()}b`, ...row } })).rejects.toThrow();
    await expect(
      harness.db.customer.create({ data: { id: `cus_raw${Date.now()}c`, ...row, email: uniqueEmail('UPPER') } }),
    ).rejects.toThrow(/customers_email_lower_case|check constraint/i);
  });
});
