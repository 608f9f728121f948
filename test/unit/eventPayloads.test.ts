import { eventShapeProblem } from '../../src/events/payloads';
import { recordEvent, takeEventShapeViolations } from '../../src/events/recordEvent';
import { sampleProperties } from '../../src/events/samples';
import { eventCatalogue, type WebhookEventType } from '../../src/webhooks/catalogue';

describe('event payload shapes (src/events/payloads.ts)', () => {
  it.each(eventCatalogue.map((entry) => [entry.webhookType, entry.recordType]))(
    'the %s sample has the shape of %s, money in the store currency',
    (webhookType, recordType) => {
      const sample = sampleProperties(webhookType as WebhookEventType, { baseCurrency: 'JPY' });
      expect(eventShapeProblem(recordType, sample)).toBeUndefined();
      expect(sample.sample).toBe(true);
      if ('amount' in sample || 'price' in sample) expect(sample.currency).toBe('JPY');
    },
  );

  it('refuses a payload with a key too many, one missing, or a subscription/updated without change', () => {
    const paid = { orderId: 'ord_1', amount: 100, currency: 'EUR', paymentId: 'pay_1' };
    expect(eventShapeProblem('s_order_paid', paid)).toBeUndefined();
    expect(eventShapeProblem('s_order_paid', { ...paid, extra: 1 })).toBeDefined();
    expect(eventShapeProblem('s_order_paid', { orderId: 'ord_1', amount: 100, currency: 'EUR' })).toBeDefined();
    expect(
      eventShapeProblem('s_subscription_updated', {
        subscriptionId: 'sub_1',
        status: 'active',
        amount: 100,
        currency: 'EUR',
      }),
    ).toBeDefined();
  });

  it('recordEvent records an event off its shape and notes it, so test runs fail on it', async () => {
    takeEventShapeViolations();
    const created: unknown[] = [];
    const tx = { event: { create: async (args: unknown) => created.push(args) } } as never;
    await recordEvent(tx, {
      accountId: 'acc_1',
      mode: 'test',
      eventType: 's_order_paid',
      properties: { orderId: 'ord_1', amount: 100 },
    });
    expect(created).toHaveLength(1);
    expect(takeEventShapeViolations()).toEqual([{ eventType: 's_order_paid', problem: expect.any(String) }]);
    await recordEvent(tx, {
      accountId: 'acc_1',
      mode: 'test',
      eventType: 's_order_paid',
      properties: { orderId: 'ord_1', amount: 100, currency: 'EUR', paymentId: 'pay_1' },
    });
    expect(takeEventShapeViolations()).toEqual([]);
  });
});
