import { sampleProperties } from '../../../src/events/samples';
import { webhookTypeOf, type WebhookEventType } from '../../../src/webhooks/catalogue';
import { newId } from '../../../src/domain/ids';
import { keepEventsWithSubscribers } from '../../../src/events/dispatch';
import { recordEvent } from '../../../src/events/recordEvent';
import { call } from '../../helpers/harness';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';

/** Events nobody subscribes to are settled in the recording transaction; the rest wait for dispatch. */
describe('keepEventsWithSubscribers', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness, { mode: 'test' });
  let subscribedStore: string;
  let quietStore: string;

  const store = async () => {
    const id = newId('store');
    await harness.db.store.create({
      data: {
        id,
        accountId: merchant.accountId,
        mode: 'test',
        name: 'Shop',
        baseCurrency: 'EUR',
        presentmentCurrencies: ['EUR'],
      },
    });
    return id;
  };
  const event = (storeId: string | null, eventType: string, mode: 'test' | 'live' = 'test') =>
    recordEvent(harness.db, {
      accountId: merchant.accountId,
      mode,
      storeId,
      eventType,
      properties: sampleProperties(webhookTypeOf(eventType) as WebhookEventType, { baseCurrency: 'EUR' }),
    });
  const processedAt = async (id: string) => (await harness.db.event.findUniqueOrThrow({ where: { id } })).processedAt;

  beforeAll(async () => {
    subscribedStore = await store();
    quietStore = await store();
    const endpoint = await call(harness, 'POST', '/api/public/v1/webhooks', {
      token: merchant.token,
      body: {
        storeId: subscribedStore,
        url: 'http://127.0.0.1:9/hook',
        eventTypes: ['order/paid'],
        description: 'orders',
      },
    });
    expect(endpoint.status).toBe(201);
  });

  it('keeps only events with a subscribed enabled endpoint and marks the others processed', async () => {
    const subscribed = await event(subscribedStore, 's_order_paid');
    const otherType = await event(subscribedStore, 's_payment_succeeded');
    const otherStore = await event(quietStore, 's_order_paid');
    const storeless = await event(null, 's_order_paid');
    const liveMode = await event(subscribedStore, 's_order_paid', 'live');

    const kept = await harness.db.$transaction((tx) =>
      keepEventsWithSubscribers(tx, [subscribed.id, otherType.id, otherStore.id, storeless.id, liveMode.id]),
    );

    // An event without a store goes to every endpoint of its account and mode.
    expect(kept.sort()).toEqual([subscribed.id, storeless.id].sort());
    expect(await processedAt(subscribed.id)).toBeNull();
    expect(await processedAt(storeless.id)).toBeNull();
    for (const silent of [otherType, otherStore, liveMode]) expect(await processedAt(silent.id)).not.toBeNull();
  });

  it('a disabled endpoint does not count as a subscriber', async () => {
    await harness.db.webhookEndpoint.updateMany({ where: { accountId: merchant.accountId }, data: { enabled: false } });
    const paid = await event(subscribedStore, 's_order_paid');
    expect(await harness.db.$transaction((tx) => keepEventsWithSubscribers(tx, [paid.id]))).toEqual([]);
    expect(await processedAt(paid.id)).not.toBeNull();
  });
});
