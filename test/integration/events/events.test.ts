import { newId } from '../../../src/domain/ids';
import { recordEvent } from '../../../src/events/recordEvent';
import { addCrmKey, createMerchant, useMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

describe('event log: POST /events/recent', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness, { mode: 'test' });
  let storeId: string;
  let customerId: string;
  const base = Date.now() - 3600_000;

  beforeAll(async () => {
    storeId = newId('store');
    customerId = newId('customer');
    await harness.db.store.create({
      data: {
        id: storeId,
        accountId: merchant.accountId,
        mode: 'test',
        name: 'Event Shop',
        baseCurrency: 'EUR',
        presentmentCurrencies: ['EUR'],
      },
    });
    await harness.db.customer.create({
      data: {
        id: customerId,
        accountId: merchant.accountId,
        mode: 'test',
        storeId,
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
      },
    });
    // 105 events a second apart, so "newest first" has one right answer.
    for (let i = 0; i < 105; i++) {
      const { id } = await recordEvent(harness.db, {
        accountId: merchant.accountId,
        mode: 'test',
        storeId,
        customerId: i % 2 === 0 ? customerId : null,
        eventType: 's_order_paid',
        properties: { orderId: `ord_${i}`, amount: 1000 + i, currency: 'EUR', paymentId: `pay_${i}` },
      });
      await harness.db.event.update({
        where: { id },
        data: { createdAt: new Date(base + i * 1000), processedAt: new Date() },
      });
    }
    // Noise that must never show: another account, and the same account's live mode.
    const other = await createMerchant(harness.db, { mode: 'test' });
    await recordEvent(harness.db, {
      accountId: other.accountId,
      mode: 'test',
      eventType: 's_order_paid',
      properties: { orderId: 'ord_other', amount: 1, currency: 'EUR', paymentId: 'pay_other' },
    });
    await recordEvent(harness.db, {
      accountId: merchant.accountId,
      mode: 'live',
      eventType: 's_order_paid',
      properties: { orderId: 'ord_live', amount: 1, currency: 'EUR', paymentId: 'pay_live' },
    });
  });

  const recent = (body: unknown, token = merchant.token) =>
    call(harness, 'POST', '/api/public/v1/events/recent', { token, body });

  it('returns 10 by default, newest first, in the Event shape of /openapi.json', async () => {
    const answer = await recent({});
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(10);
    expect(answer.body.map((event: { properties: { orderId: string } }) => event.properties.orderId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `ord_${104 - i}`),
    );
    const newest = answer.body[0];
    expect(Object.keys(newest).sort()).toEqual(
      [
        'id',
        'accountId',
        'storeId',
        'customerId',
        'eventType',
        'properties',
        'draft',
        'processedAt',
        'createdAt',
        'customer',
        'store',
      ].sort(),
    );
    expect(newest).toMatchObject({
      accountId: merchant.accountId,
      eventType: 's_order_paid',
      properties: { orderId: 'ord_104', amount: 1104, currency: 'EUR', paymentId: 'pay_104' },
      draft: false,
      store: { id: storeId, name: 'Event Shop' },
      customer: { id: customerId, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
    });
    expect(newest.id).toMatch(/^evt_/);
    expect(answer.body[1]).toMatchObject({ customerId: null, customer: null });
  });

  it.each([
    [1, 1],
    [100, 100],
  ])('limit %i returns %i events', async (limit, count) => {
    const answer = await recent({ limit });
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(count);
    const times = answer.body.map((event: { createdAt: string }) => Date.parse(event.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(answer.body.every((event: { accountId: string }) => event.accountId === merchant.accountId)).toBe(true);
  });

  it.each([0, 101, -1, 2.5, '10'])('limit %p is a 400', async (limit) => {
    const answer = await recent({ limit });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
  });

  it('rejects unknown body fields', async () => {
    expect((await recent({ limit: 5, storeId })).status).toBe(400);
  });

  it('is org:admin only: a member key gets 403', async () => {
    const memberToken = await addCrmKey(harness.db, merchant, { role: 'org:member' });
    const answer = await recent({ limit: 5 }, memberToken);
    expect(answer.status).toBe(403);
  });

  it("shows a live key only the account's live events", async () => {
    const liveToken = await addCrmKey(harness.db, merchant, { mode: 'live' });
    const answer = await recent({ limit: 100 }, liveToken);
    expect(answer.body.map((event: { properties: { orderId: string } }) => event.properties.orderId)).toEqual([
      'ord_live',
    ]);
  });
});

describe('recordEvent', () => {
  const harness = useHarness();

  it('writes inside the caller transaction: a rolled-back change leaves no event', async () => {
    const merchant = await createMerchant(harness.db, { mode: 'test' });
    let eventId = '';
    await expect(
      harness.db.$transaction(async (tx) => {
        eventId = (
          await recordEvent(tx, {
            accountId: merchant.accountId,
            mode: 'test',
            eventType: 's_payment_failed',
            properties: {
              paymentId: 'pay_x',
              orderId: null,
              amount: 100,
              currency: 'EUR',
              status: 'failed',
              declineCode: 'card_declined',
              declineCategory: 'hard',
            },
          })
        ).id;
        expect(await tx.event.count({ where: { id: eventId } })).toBe(1);
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(eventId).toMatch(/^evt_/);
    expect(await harness.db.event.count({ where: { id: eventId } })).toBe(0);
  });

  it('refuses a type outside the catalogue', async () => {
    const merchant = await createMerchant(harness.db, { mode: 'test' });
    await expect(
      recordEvent(harness.db, { accountId: merchant.accountId, mode: 'test', eventType: 'order/paid', properties: {} }),
    ).rejects.toThrow(/unknown event type/);
  });
});
