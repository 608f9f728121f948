import { randomUUID } from 'node:crypto';
import { newId } from '../../../src/domain/ids';
import { recordEvent } from '../../../src/events/recordEvent';
import { createMerchant } from '../../helpers/fixtures';
import type { Harness } from '../../helpers/harness';
import { createCustomer, createStore } from '../subscriptions/subscriptionsFixtures';

/**
 * A paid order of a `mode` store and its `order/paid` event, written directly (a live-mode payment
 * needs a live processor): what a receipt is made from. Not dispatched yet.
 */
export async function recordPaidOrder(harness: Harness, mode: 'test' | 'live', storeName = 'Corner Shop') {
  const merchant = await createMerchant(harness.db, { mode });
  const store = await createStore(harness.db, merchant, storeName);
  const email = `receipt-${randomUUID()}@example.com`;
  const customer = await createCustomer(harness.db, merchant, email, store.id);
  const order = await harness.db.order.create({
    data: {
      id: newId('order'),
      accountId: merchant.accountId,
      mode,
      storeId: store.id,
      customerId: customer.id,
      status: 'paid',
      subtotal: 1200,
      discountTotal: 0,
      totalAmount: 1200,
      currency: 'USD',
      items: {
        create: [{ id: newId('orderItem'), productName: 'Mug', quantity: 1, unitAmount: 1200, totalAmount: 1200 }],
      },
    },
  });
  const { id: eventId } = await recordEvent(harness.db, {
    accountId: merchant.accountId,
    mode,
    storeId: store.id,
    customerId: customer.id,
    eventType: 's_order_paid',
    properties: { orderId: order.id, amount: 1200, currency: 'USD', paymentId: newId('payment') },
  });
  return { email, orderId: order.id, eventId, storeId: store.id };
}
