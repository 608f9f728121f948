import { createActivities } from '../../../activities';
import { newId } from '../../../src/domain/ids';
import { recordEvent } from '../../../src/events/recordEvent';
import { verifyWebhookSignature } from '../../../src/webhooks/signing';
import { searchAttributes } from '../../../temporal/searchAttributes';
import { addCrmKey, useMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { startReceiver, until } from './webhookReceiver';

describe('webhook endpoints and signed delivery (real receiver on loopback)', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness, { mode: 'test' });
  let storeId: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    storeId = newId('store');
    await harness.db.store.create({
      data: {
        id: storeId,
        accountId: merchant.accountId,
        mode: 'test',
        name: 'Test Shop',
        baseCurrency: 'USD',
        presentmentCurrencies: ['USD'],
      },
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  async function createEndpoint(eventTypes: string[], url = receiver.url) {
    const answer = await call(harness, 'POST', '/api/public/v1/webhooks', {
      token: merchant.token,
      body: { storeId, url, eventTypes, description: 'orders' },
    });
    expect(answer.status).toBe(201);
    return answer.body as { id: string; secret: string; url: string; enabled: boolean; eventTypes: string[] };
  }

  async function trigger(eventType: string) {
    const answer = await call(harness, 'POST', '/api/public/v1/test/webhooks/trigger', {
      token: merchant.token,
      body: { storeId, eventType },
    });
    expect(answer.status).toBe(202);
    return answer.body as { eventId: string; workflowIds: string[] };
  }

  it('creates an endpoint with a whsec_ secret shown once, lists it without the secret, and rejects unknown types', async () => {
    const created = await createEndpoint(['order/paid']);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ enabled: true, eventTypes: ['order/paid'], url: receiver.url });

    const list = await call(harness, 'GET', `/api/public/v1/webhooks?storeId=${storeId}`, { token: merchant.token });
    expect(list.status).toBe(200);
    const listed = (list.body as Record<string, unknown>[]).find((endpoint) => endpoint.id === created.id)!;
    expect(Object.keys(listed)).toEqual(expect.arrayContaining(['id', 'url', 'enabled', 'eventTypes', 'createdAt']));
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    for (const eventTypes of [['order/exploded'], [], ['s_order_paid']]) {
      const bad = await call(harness, 'POST', '/api/public/v1/webhooks', {
        token: merchant.token,
        body: { storeId, url: receiver.url, eventTypes },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
    }
    const otherStore = await call(harness, 'POST', '/api/public/v1/webhooks', {
      token: merchant.token,
      body: { storeId: 'store_nope', url: receiver.url, eventTypes: ['order/paid'] },
    });
    expect(otherStore.status).toBe(404);
  });

  it('keeps endpoint management (create, update, delete, rotate, redeliver) to org:admin keys; members may read', async () => {
    const created = await createEndpoint(['order/paid']);
    const member = await addCrmKey(harness.db, merchant, { role: 'org:member' });
    const attempts = [
      await call(harness, 'POST', '/api/public/v1/webhooks', {
        token: member,
        body: { storeId, url: receiver.url, eventTypes: ['order/paid'] },
      }),
      await call(harness, 'PATCH', `/api/public/v1/webhooks/${created.id}`, {
        token: member,
        body: { enabled: false },
      }),
      await call(harness, 'POST', `/api/public/v1/webhooks/${created.id}/rotate-secret`, { token: member, body: {} }),
      await call(harness, 'POST', `/api/public/v1/webhooks/${created.id}/redeliver`, {
        token: member,
        body: { eventId: 'evt_x' },
      }),
      await call(harness, 'DELETE', `/api/public/v1/webhooks/${created.id}`, { token: member }),
    ];
    expect(attempts.map((answer) => [answer.status, answer.body.code])).toEqual(
      attempts.map(() => [403, 'ROLE_REQUIRED']),
    );
    expect((await call(harness, 'GET', `/api/public/v1/webhooks/${created.id}`, { token: member })).status).toBe(200);
  });

  it('signs deliveries so the exported verifier accepts them, and rejects tampering and old timestamps', async () => {
    const endpoint = await createEndpoint(['payment/succeeded']);
    const { eventId, workflowIds } = await trigger('payment/succeeded');
    expect(workflowIds).toContain(`whd_${eventId}_${endpoint.id}`);
    // Operators find the delivery in the Temporal UI by the event id.
    const described = await harness.temporal.workflow.getHandle(`whd_${eventId}_${endpoint.id}`).describe();
    expect(described.typedSearchAttributes.get(searchAttributes.EventId)).toBe(eventId);
    expect(described.typedSearchAttributes.get(searchAttributes.StoreId)).toBe(storeId);
    const request = await until(() => receiver.received.find((r) => r.headers['x-webhook-event-id'] === eventId));
    expect(request.headers['x-webhook-event-type']).toBe('payment/succeeded');
    expect(request.headers['x-webhook-attempt']).toBe('1');
    const header = request.headers['x-webhook-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    expect(verifyWebhookSignature(request.body, header, endpoint.secret, { toleranceSeconds: 300 }).valid).toBe(true);
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({
      id: eventId,
      type: 'payment/succeeded',
      data: { id: eventId, eventType: 's_payment_succeeded', storeId, store: { id: storeId, name: 'Test Shop' } },
    });

    const tampered = request.body.replace('"amount":1999', '"amount":1');
    expect(tampered).not.toBe(request.body);
    expect(verifyWebhookSignature(tampered, header, endpoint.secret)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    const signedAt = Number(/t=(\d+)/.exec(header)![1]);
    expect(
      verifyWebhookSignature(request.body, header, endpoint.secret, { toleranceSeconds: 300, now: signedAt + 301 }),
    ).toEqual({ valid: false, reason: 'timestamp_out_of_tolerance' });

    // The attempt is recorded and listable per endpoint and per event.
    const perEndpoint = await until(async () => {
      const answer = await call(harness, 'GET', `/api/public/v1/webhooks/${endpoint.id}/attempts`, {
        token: merchant.token,
      });
      return answer.body.length ? answer.body : undefined;
    });
    expect(perEndpoint[0]).toMatchObject({
      eventId,
      endpointId: endpoint.id,
      attempt: 1,
      outcome: 'succeeded',
      responseStatus: 200,
      responseSnippet: 'thanks',
    });
    const perEvent = await call(harness, 'GET', `/api/public/v1/events/${eventId}/webhook-attempts`, {
      token: merchant.token,
    });
    expect(perEvent.body.map((attempt: { endpointId: string }) => attempt.endpointId)).toEqual([endpoint.id]);
  });

  it('signs with both secrets during a rotation overlap', async () => {
    const endpoint = await createEndpoint(['order/refunded']);
    const rotated = await call(harness, 'POST', `/api/public/v1/webhooks/${endpoint.id}/rotate-secret`, {
      token: merchant.token,
      body: { overlapSeconds: 3600 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const { eventId } = await trigger('order/refunded');
    const request = await until(() => receiver.received.find((r) => r.headers['x-webhook-event-id'] === eventId));
    const header = request.headers['x-webhook-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhookSignature(request.body, header, endpoint.secret).valid).toBe(true);
    expect(verifyWebhookSignature(request.body, header, rotated.body.secret).valid).toBe(true);

    // Ending the overlap at once: only the new secret signs.
    const ended = await call(harness, 'POST', `/api/public/v1/webhooks/${endpoint.id}/rotate-secret`, {
      token: merchant.token,
      body: { overlapSeconds: 0 },
    });
    const latest = ended.body.secret as string;
    // Stored sealed, never as the secret itself.
    const stored = await harness.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(stored.secret).toMatch(/^v2:[0-9a-f]{12}:/);
    expect(stored.secret).not.toContain(latest);
    const second = await trigger('order/refunded');
    const next = await until(() => receiver.received.find((r) => r.headers['x-webhook-event-id'] === second.eventId));
    expect(verifyWebhookSignature(next.body, next.headers['x-webhook-signature'] as string, latest).valid).toBe(true);
    expect(
      verifyWebhookSignature(next.body, next.headers['x-webhook-signature'] as string, rotated.body.secret).valid,
    ).toBe(false);
  });

  it('delivers only to subscribed, enabled endpoints; updates, redelivers and deletes', async () => {
    const subscribed = await createEndpoint(['subscription/created']);
    const unsubscribed = await createEndpoint(['subscription/cancelled']);
    const { eventId, workflowIds } = await trigger('subscription/created');
    expect(workflowIds).toEqual([`whd_${eventId}_${subscribed.id}`]);
    await until(() => receiver.received.find((r) => r.headers['x-webhook-event-id'] === eventId));
    expect(await harness.db.webhookDeliveryAttempt.count({ where: { endpointId: unsubscribed.id } })).toBe(0);

    const redelivered = await call(harness, 'POST', `/api/public/v1/webhooks/${subscribed.id}/redeliver`, {
      token: merchant.token,
      body: { eventId },
    });
    expect(redelivered.status).toBe(202);
    await until(() =>
      receiver.received.filter((r) => r.headers['x-webhook-event-id'] === eventId).length === 2 ? true : undefined,
    );

    const disabled = await call(harness, 'PATCH', `/api/public/v1/webhooks/${subscribed.id}`, {
      token: merchant.token,
      body: { enabled: false, eventTypes: ['subscription/created', 'subscription/renewed'] },
    });
    expect(disabled.body).toMatchObject({
      enabled: false,
      eventTypes: ['subscription/created', 'subscription/renewed'],
    });
    const none = await trigger('subscription/created');
    expect(none.workflowIds).toEqual([]);
    expect(
      (
        await call(harness, 'POST', `/api/public/v1/webhooks/${subscribed.id}/redeliver`, {
          token: merchant.token,
          body: { eventId },
        })
      ).status,
    ).toBe(409);

    const badUrl = await call(harness, 'PATCH', `/api/public/v1/webhooks/${subscribed.id}`, {
      token: merchant.token,
      body: { url: 'http://169.254.169.254/latest' },
    });
    expect(badUrl.status).toBe(400);
    expect(
      (await call(harness, 'DELETE', `/api/public/v1/webhooks/${unsubscribed.id}`, { token: merchant.token })).status,
    ).toBe(200);
    expect(
      (await call(harness, 'GET', `/api/public/v1/webhooks/${unsubscribed.id}`, { token: merchant.token })).status,
    ).toBe(404);
  });

  it('re-dispatching an event never duplicates its delivery; the outbox sweep delivers an event whose dispatch was lost', async () => {
    const endpoint = await createEndpoint(['checkout_session/paid']);
    // Committed but never dispatched, as if the process died right after the commit.
    const { id: eventId } = await recordEvent(harness.db, {
      accountId: merchant.accountId,
      mode: 'test',
      storeId,
      eventType: 's_checkout_session_paid',
      properties: { checkoutSessionId: 'ch_x', orderId: 'ord_x', paymentId: 'pay_x' },
    });
    await harness.db.event.update({ where: { id: eventId }, data: { createdAt: new Date(Date.now() - 60_000) } });
    const activities = createActivities({
      db: harness.db,
      logger: harness.logger,
      config: harness.config,
      sandboxUrl: harness.sandboxUrl,
      temporal: harness.temporal,
    });
    expect(await activities.dispatchUndispatchedEvents({ accountId: merchant.accountId })).toBe(1);
    await until(() => receiver.received.find((r) => r.headers['x-webhook-event-id'] === eventId));
    expect(await activities.dispatchEvents([eventId, eventId])).toEqual({ started: 0 });
    expect(await activities.dispatchUndispatchedEvents({ accountId: merchant.accountId })).toBe(0);
    // The one delivery workflow has ended (nothing of it can send again) and no other was started.
    await harness.temporal.workflow.getHandle(`whd_${eventId}_${endpoint.id}`).result();
    expect(receiver.received.filter((r) => r.headers['x-webhook-event-id'] === eventId)).toHaveLength(1);
    expect((await harness.db.event.findUniqueOrThrow({ where: { id: eventId } })).processedAt).not.toBeNull();
    expect(endpoint.id).toMatch(/^wh_/);
  });

  it('answers 403 TEST_MODE_ONLY to the test trigger in live mode, before reading the body', async () => {
    const liveToken = await addCrmKey(harness.db, merchant, { mode: 'live' });
    for (const body of [{ storeId, eventType: 'order/paid' }, { junk: true }]) {
      const answer = await call(harness, 'POST', '/api/public/v1/test/webhooks/trigger', { token: liveToken, body });
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 403, code: 'TEST_MODE_ONLY' });
    }
  });
});
