import { WorkflowNotFoundError } from '@temporalio/client';
import { verifyWebhookSignature } from '../../../src/webhooks/signing';
import { searchAttributes } from '../../../temporal/searchAttributes';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { cards, payV2 } from '../payments/paymentsFixtures';
import { startReceiver, until, type Receiver } from './webhookReceiver';

interface Endpoint {
  id: string;
  secret: string;
}

/** A real pay-v2 payment through to signed webhook deliveries on loopback receivers. */
describe('payments emit events that reach subscribed webhook endpoints', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);
  let paidReceiver: Receiver;
  let failedReceiver: Receiver;
  let orderPaidEndpoint: Endpoint;
  let paymentFailedEndpoint: Endpoint;

  beforeAll(async () => {
    paidReceiver = await startReceiver();
    failedReceiver = await startReceiver();
    const subscribe = async (url: string, eventTypes: string[]) => {
      const answer = await call(harness, 'POST', '/api/public/v1/webhooks', {
        token: t.token,
        body: { storeId: t.storeId, url, eventTypes },
      });
      expect(answer.status).toBe(201);
      return answer.body as Endpoint;
    };
    orderPaidEndpoint = await subscribe(paidReceiver.url, ['order/paid']);
    paymentFailedEndpoint = await subscribe(failedReceiver.url, ['payment/failed']);
  });
  afterAll(async () => {
    await paidReceiver?.stop();
    await failedReceiver?.stop();
  });

  /** Every event a payment recorded, once all of them have been dispatched (so nothing else can start). */
  async function dispatchedEventsOf(paymentId: string) {
    return until(async () => {
      const events = await harness.db.event.findMany({
        where: { accountId: t.merchant.accountId, properties: { path: ['paymentId'], equals: paymentId } },
      });
      return events.length > 0 && events.every((event) => event.processedAt !== null) ? events : undefined;
    });
  }

  async function expectNoDelivery(endpointId: string, receiver: Receiver, eventIds: string[]) {
    expect(await harness.db.webhookDeliveryAttempt.count({ where: { endpointId } })).toBe(0);
    expect(receiver.received).toHaveLength(0);
    for (const eventId of eventIds) {
      await expect(
        harness.temporal.workflow.getHandle(`whd_${eventId}_${endpointId}`).describe(),
      ).rejects.toBeInstanceOf(WorkflowNotFoundError);
    }
  }

  it('a paid checkout records s_order_paid {orderId, amount, currency} and delivers a signed order/paid, only to its subscriber', async () => {
    const checkout = await t.checkout();
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
    });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.status).toBe('succeeded');
    const orderId: string = paid.body.order.id;

    const recent = await call(harness, 'POST', '/api/public/v1/events/recent', { token: t.token, body: { limit: 20 } });
    const orderPaid = (
      recent.body as { id: string; eventType: string; storeId: string; properties: Record<string, unknown> }[]
    ).filter((event) => event.eventType === 's_order_paid');
    expect(orderPaid).toHaveLength(1);
    expect(orderPaid[0]!.storeId).toBe(t.storeId);
    expect(orderPaid[0]!.properties).toMatchObject({ orderId, amount: checkout.total, currency: checkout.currency });
    const eventId = orderPaid[0]!.id;

    const request = await until(() => paidReceiver.received.find((r) => r.headers['x-webhook-event-id'] === eventId));
    expect(request.headers['x-webhook-event-type']).toBe('order/paid');
    expect(
      verifyWebhookSignature(request.body, request.headers['x-webhook-signature'] as string, orderPaidEndpoint.secret),
    ).toMatchObject({ valid: true });
    expect(JSON.parse(request.body)).toMatchObject({
      id: eventId,
      type: 'order/paid',
      data: {
        id: eventId,
        eventType: 's_order_paid',
        storeId: t.storeId,
        properties: { orderId, amount: checkout.total, currency: checkout.currency },
      },
    });

    const delivery = harness.temporal.workflow.getHandle(`whd_${eventId}_${orderPaidEndpoint.id}`);
    const described = await delivery.describe();
    expect(described.type).toBe('webhookDeliveryWorkflow');
    expect(described.typedSearchAttributes.get(searchAttributes.EventId)).toBe(eventId);
    expect(await delivery.result()).toMatchObject({ status: 'delivered', attempt: 1, receiverStatus: 200 });

    const events = await dispatchedEventsOf(paid.body.payment.id);
    expect(events.map((event) => event.eventType).sort()).toEqual([
      's_checkout_session_paid',
      's_order_paid',
      's_payment_succeeded',
    ]);
    await expectNoDelivery(
      paymentFailedEndpoint.id,
      failedReceiver,
      events.map((event) => event.id),
    );
  });

  it('a declined payment delivers payment/failed to its subscriber and nothing to the order/paid endpoint', async () => {
    const deliveredBefore = paidReceiver.received.length;
    const checkout = await t.checkout();
    const declined = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.hardDecline),
    });
    expect(declined.status).toBe(402);
    const paymentId: string = declined.body.data.paymentId;

    const request = await until(() =>
      failedReceiver.received.find((r) => r.headers['x-webhook-event-type'] === 'payment/failed'),
    );
    expect(JSON.parse(request.body).data.properties).toMatchObject({
      paymentId,
      status: 'failed',
      declineCode: 'card_declined',
    });
    expect(
      verifyWebhookSignature(
        request.body,
        request.headers['x-webhook-signature'] as string,
        paymentFailedEndpoint.secret,
      ).valid,
    ).toBe(true);

    const events = await dispatchedEventsOf(paymentId);
    expect(events.map((event) => event.eventType)).toEqual(['s_payment_failed']);
    expect(paidReceiver.received).toHaveLength(deliveredBefore);
    await expect(
      harness.temporal.workflow.getHandle(`whd_${events[0]!.id}_${orderPaidEndpoint.id}`).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });
});
