import { createPaymentFinalizeActivities } from '../../../activities/payments/finalize';
import { backendPid, untilBlockedBy } from '../../helpers/rowLocks';
import { createOrderForPaidCheckout } from '../../../src/commerce/orders';
import { idPattern, newId } from '../../../src/domain/ids';
import { recordPaidCheckout } from '../../../src/payments/finalize';
import type { FinalizeInput } from '../../../src/payments/workflowTypes';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';
import { createStore } from '../subscriptions/subscriptionsFixtures';

/**
 * The one-statement end of an approved checkout payment (src/payments/finalize/paidCheckoutStatement.ts)
 * against real Postgres: it writes what the transaction path writes, or nothing at all.
 */
describe('finalize of an approved checkout payment in one statement', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);
  let store: Awaited<ReturnType<typeof createStore>>;
  let customerId: string;

  beforeAll(async () => {
    store = await createStore(harness.db, merchant);
    customerId = newId('customer');
    await harness.db.customer.create({
      data: { id: customerId, accountId: merchant.accountId, mode: merchant.mode, storeId: store.id, email: 'a@b.co' },
    });
  });

  const lines = [
    { productName: 'Beans', quantity: 2, unitAmount: 1200, position: 1 },
    { productName: 'Mug', quantity: 1, unitAmount: 900, position: 0 },
  ];

  /** An open session with `lines` (subtotal 3300, discount 300) and, unless `withPayment` is false, its processing payment. */
  async function openCheckout(options: { withPayment?: boolean; lines?: typeof lines } = {}) {
    const sessionLines = options.lines ?? lines;
    const subtotal = sessionLines.reduce((sum, line) => sum + line.quantity * line.unitAmount, 0);
    const sessionId = newId('checkoutSession');
    await harness.db.checkoutSession.create({
      data: {
        id: sessionId,
        accountId: merchant.accountId,
        mode: merchant.mode,
        storeId: store.id,
        customerId,
        currency: 'USD',
        subtotal,
        discountTotal: 300,
        total: subtotal - 300,
        promotionCodeIds: [],
        expiresAt: new Date(Date.now() + 3_600_000),
        lineItems: {
          create: sessionLines.map((line) => ({
            id: newId('checkoutLineItem'),
            priceId: newId('price'),
            productId: newId('product'),
            variantId: newId('variant'),
            productName: line.productName,
            quantity: line.quantity,
            unitAmount: line.unitAmount,
            amountSubtotal: line.quantity * line.unitAmount,
            position: line.position,
          })),
        },
      },
    });
    const paymentId = newId('payment');
    if (options.withPayment !== false) {
      await harness.db.payment.create({
        data: {
          id: paymentId,
          accountId: merchant.accountId,
          mode: merchant.mode,
          storeId: store.id,
          customerId,
          checkoutSessionId: sessionId,
          status: 'processing',
          amount: subtotal - 300,
          currency: 'USD',
          source: 'checkout',
        },
      });
    }
    return { sessionId, paymentId };
  }

  const approved = (paymentId: string): FinalizeInput => ({
    paymentId,
    status: 'succeeded',
    processorId: store.processorId,
    processorReference: 'ref_1',
    captured: true,
    declineCode: null,
    declineCategory: null,
    declineMessage: null,
  });

  const eventsOf = (paymentId: string) =>
    harness.db.event.findMany({
      where: { properties: { path: ['paymentId'], equals: paymentId } },
      orderBy: { createdAt: 'asc' },
    });

  it('writes the session, order, items, payment and events, and dispatches only the subscribed ones', async () => {
    const endpoint = (storeId: string, enabled = true) =>
      harness.db.webhookEndpoint.create({
        data: {
          id: newId('webhookEndpoint'),
          accountId: merchant.accountId,
          mode: merchant.mode,
          storeId,
          url: 'http://127.0.0.1:9/hook',
          eventTypes: ['order/paid'],
          secret: 'whsec_test',
          enabled,
        },
      });
    const subscribed = await endpoint(store.id);
    // Neither a disabled endpoint nor another store's is handed to the dispatch.
    await endpoint(store.id, false);
    await endpoint((await createStore(harness.db, merchant)).id);
    const { sessionId, paymentId } = await openCheckout();

    const recorded = await recordPaidCheckout(harness.db, approved(paymentId));

    expect(recorded?.order).toEqual({
      id: expect.stringMatching(idPattern('ord')),
      status: 'paid',
      totalAmount: 3000,
      currency: 'USD',
    });
    const session = await harness.db.checkoutSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(session).toMatchObject({ status: 'paid', paymentId });
    expect(session.paidAt).toBeInstanceOf(Date);
    const order = await harness.db.order.findUniqueOrThrow({
      where: { id: recorded!.order.id },
      include: { items: { orderBy: { position: 'asc' } } },
    });
    expect(order).toMatchObject({
      checkoutSessionId: sessionId,
      status: 'paid',
      subtotal: 3300,
      discountTotal: 300,
      totalAmount: 3000,
      paymentId,
      source: 'checkout',
      customerId,
      storeId: store.id,
    });
    expect(
      order.items.map(({ productName, quantity, unitAmount, totalAmount, position }) => ({
        productName,
        quantity,
        unitAmount,
        totalAmount,
        position,
      })),
    ).toEqual([
      { productName: 'Mug', quantity: 1, unitAmount: 900, totalAmount: 900, position: 0 },
      { productName: 'Beans', quantity: 2, unitAmount: 1200, totalAmount: 2400, position: 1 },
    ]);
    for (const item of order.items) expect(item.id).toMatch(idPattern('oli'));
    const payment = await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment).toMatchObject({
      status: 'succeeded',
      orderId: order.id,
      processorId: store.processorId,
      processorReference: 'ref_1',
      amountCaptured: 3000,
      redirectUrl: null,
    });
    expect(payment.capturedAt).toBeInstanceOf(Date);

    const events = await eventsOf(paymentId);
    expect(events.map((event) => event.eventType)).toEqual([
      's_checkout_session_paid',
      's_order_paid',
      's_payment_succeeded',
    ]);
    expect(events[1]!.properties).toEqual({ orderId: order.id, amount: 3000, currency: 'USD', paymentId });
    expect(events[2]!.properties).toEqual({
      paymentId,
      orderId: order.id,
      amount: 3000,
      currency: 'USD',
      status: 'succeeded',
      processorId: store.processorId,
      captured: true,
    });
    // Only order/paid has a subscriber: it is left for the dispatch step, the others are done.
    expect(recorded!.eventIds).toEqual([events[1]!.id]);
    expect(events.map((event) => event.processedAt === null)).toEqual([false, true, false]);
    // Handed to the dispatch as written, with its subscribers: it reads neither back.
    expect(recorded!.recordedEvents).toEqual([
      {
        id: events[1]!.id,
        accountId: merchant.accountId,
        mode: merchant.mode,
        storeId: store.id,
        customerId,
        eventType: 's_order_paid',
        properties: events[1]!.properties,
        endpointIds: [subscribed.id],
      },
    ]);
  });

  it('writes the order and items as the transaction path does', async () => {
    const viaStatement = await openCheckout();
    const viaTransaction = await openCheckout({ withPayment: false });
    const recorded = await recordPaidCheckout(harness.db, approved(viaStatement.paymentId));
    const created = await harness.db.$transaction((tx) =>
      createOrderForPaidCheckout(tx, { checkoutSessionId: viaTransaction.sessionId, paymentId: 'pay_x' }),
    );
    const comparable = async (orderId: string) => {
      const { id, checkoutSessionId, paymentId, createdAt, updatedAt, items, ...order } =
        await harness.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
      void [id, checkoutSessionId, paymentId, createdAt, updatedAt];
      return {
        ...order,
        items: items
          .sort((a, b) => a.position - b.position)
          .map(({ id: itemId, orderId: owner, priceId, productId, variantId, ...item }) => {
            void [itemId, owner, priceId, productId, variantId];
            return item;
          }),
      };
    };
    expect(await comparable(recorded!.order.id)).toEqual(await comparable(created.id));
  });

  it('writes nothing for a payment already closed; the activity then answers what was recorded', async () => {
    const { paymentId } = await openCheckout();
    const finalize = createPaymentFinalizeActivities(harness).finalizePayment;
    const first = await finalize(approved(paymentId));

    expect(await recordPaidCheckout(harness.db, approved(paymentId))).toBeNull();
    const repeat = await finalize(approved(paymentId));

    expect(repeat.order).toEqual(first.order);
    expect(repeat.eventIds).toEqual([]);
    expect(first.recorded).toBeUndefined();
    const recorded = { status: 'succeeded', declineCode: null, declineMessage: null };
    expect(repeat.recorded).toEqual(recorded);
    // A repeat that comes to another end (a lost workflow task done again) answers the first one.
    expect(
      (await finalize({ ...approved(paymentId), status: 'failed', declineCode: 'do_not_honor' })).recorded,
    ).toEqual(recorded);
    expect(await harness.db.order.count({ where: { paymentId } })).toBe(1);
    expect(await eventsOf(paymentId)).toHaveLength(3);
  });

  it('10 finalizes of one payment at once make one order and one set of events', async () => {
    const { paymentId } = await openCheckout();
    const finalize = createPaymentFinalizeActivities(harness).finalizePayment;

    const answers = await Promise.all(Array.from({ length: 10 }, () => finalize(approved(paymentId))));

    const orderIds = new Set(answers.map((answer) => answer.order?.id));
    expect(orderIds.size).toBe(1);
    expect([...orderIds][0]).toMatch(idPattern('ord'));
    expect(await harness.db.order.count({ where: { paymentId } })).toBe(1);
    expect(await harness.db.orderItem.count({ where: { orderId: [...orderIds][0]! } })).toBe(2);
    expect(await eventsOf(paymentId)).toHaveLength(3);
  });

  it('writes nothing when the session is no longer open; the transaction path records the payment without an order', async () => {
    const { sessionId, paymentId } = await openCheckout();
    await harness.db.checkoutSession.update({ where: { id: sessionId }, data: { status: 'expired' } });

    expect(await recordPaidCheckout(harness.db, approved(paymentId))).toBeNull();
    expect(await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'processing',
    });
    expect(await eventsOf(paymentId)).toHaveLength(0);

    const result = await createPaymentFinalizeActivities(harness).finalizePayment(approved(paymentId));
    expect(result.order).toBeNull();
    expect(await harness.db.order.count({ where: { checkoutSessionId: sessionId } })).toBe(0);
  });

  it('writes nothing for a line the order cannot hold (the transaction path refuses it)', async () => {
    const { paymentId } = await openCheckout({
      lines: [
        { productName: 'Mug', quantity: 1, unitAmount: 900, position: 0 },
        { productName: 'Broken', quantity: 0, unitAmount: 100, position: 1 },
      ],
    });
    expect(await recordPaidCheckout(harness.db, approved(paymentId))).toBeNull();
    expect(await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'processing',
    });
    await expect(createPaymentFinalizeActivities(harness).finalizePayment(approved(paymentId))).rejects.toThrow(
      /quantity must be a positive integer/,
    );
  });

  it('a line added to the session while the statement waits makes it write nothing (no order missing that line)', async () => {
    const { sessionId, paymentId } = await openCheckout();
    let pending: Promise<unknown> | undefined;
    await harness.db.$transaction(
      async (tx) => {
        // As an order bump does: the session row locked and changed, a line added, then commit.
        await tx.checkoutSessionLineItem.create({
          data: {
            id: newId('checkoutLineItem'),
            checkoutSessionId: sessionId,
            priceId: newId('price'),
            productId: newId('product'),
            variantId: newId('variant'),
            productName: 'Bump',
            quantity: 1,
            unitAmount: 500,
            amountSubtotal: 500,
            position: 2,
          },
        });
        await tx.checkoutSession.update({ where: { id: sessionId }, data: { subtotal: 3800, total: 3500 } });
        pending = recordPaidCheckout(harness.db, approved(paymentId));
        // The statement reached the session row and waits on this transaction's lock.
        await untilBlockedBy(harness.db, await backendPid(tx));
      },
      { timeout: 10_000 },
    );

    expect(await pending).toBeNull();
    expect(await harness.db.order.count({ where: { checkoutSessionId: sessionId } })).toBe(0);
    expect(await harness.db.checkoutSession.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({
      status: 'open',
    });
  });
});
