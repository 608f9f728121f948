import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { adyenProcessor } from '../../src/processors/adyen';
import { buildNotification, type AdyenNotificationItem } from '../../src/processors/adyen/webhooks';
import { stripeProcessor } from '../../src/processors/stripe';
import { verifyStripeDelivery } from '../../src/processors/stripe/webhooks';
import type { WebhookDelivery } from '../../src/processors/types';

/** The webhook part of each processor definition: signatures verified over the raw bytes, then engine events. */
const stripeSecret = `whsec_${randomBytes(24).toString('hex')}`;
const stripeCredentials = { secretKey: 'sk_test_0123456789abcdef', webhookSecret: stripeSecret };

const refundEvent = (status: string) =>
  JSON.stringify({
    id: 'evt_1Pgc76B7WZ01zgkWwyRHS12y',
    object: 'event',
    type: 'refund.updated',
    livemode: false,
    created: 1795600000,
    data: {
      object: {
        id: 're_3Pgc72B7WZ01zgkWqPvrRrPE',
        object: 'refund',
        amount: 300,
        currency: 'eur',
        status,
        payment_intent: 'pi_3Pgc70B7WZ01zgkW1qGRa1bN',
        metadata: { engine_key: 're_engineRefund0000000001' },
      },
    },
  });

function stripeDelivery(body: string, signature: string | undefined, credentials = stripeCredentials): WebhookDelivery {
  return {
    rawBody: Buffer.from(body, 'utf8'),
    headers: signature ? { 'stripe-signature': signature } : {},
    credentials,
    live: false,
  };
}
const sign = (payload: string, secret = stripeSecret, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });

describe('stripe webhooks (Stripe-Signature verified with the SDK)', () => {
  const verify = stripeProcessor.webhooks!.verify;

  it('accepts a signed event and reads a refund confirmation with the engine key', () => {
    const body = refundEvent('succeeded');
    expect(verify(stripeDelivery(body, sign(body)))).toEqual({
      ok: true,
      events: [
        {
          vendorEventId: 'evt_1Pgc76B7WZ01zgkWwyRHS12y',
          vendorType: 'refund.updated',
          kind: 'refund',
          succeeded: true,
          engineKey: 're_engineRefund0000000001',
          operationReference: 're_3Pgc72B7WZ01zgkWqPvrRrPE',
          paymentReference: 'pi_3Pgc70B7WZ01zgkW1qGRa1bN',
        },
      ],
    });
  });

  it('reads a failed refund as a failure and a still-pending one as nothing to do', () => {
    const failed = refundEvent('failed');
    const pending = refundEvent('pending');
    expect(verify(stripeDelivery(failed, sign(failed)))).toMatchObject({
      events: [{ kind: 'refund', succeeded: false }],
    });
    expect(verify(stripeDelivery(pending, sign(pending)))).toMatchObject({ events: [{ kind: 'ignored' }] });
  });

  it('refuses a tampered body, another secret, a missing header and a stale timestamp', () => {
    const body = refundEvent('succeeded');
    const signature = sign(body);
    const tampered = body.replace('"amount":300', '"amount":30000');
    expect(verify(stripeDelivery(tampered, signature))).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(stripeDelivery(body, sign(body, `whsec_${randomBytes(24).toString('hex')}`)))).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verify(stripeDelivery(body, undefined))).toMatchObject({ ok: false, reason: 'bad_signature' });
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const stale = verifyStripeDelivery(stripeDelivery(body, sign(body, stripeSecret, tenMinutesAgo)));
    expect(stale).toMatchObject({ ok: false, reason: 'bad_signature', message: expect.stringMatching(/tolerance/i) });
    // The same stale header is fine when it arrives within Stripe's 300 s tolerance of its timestamp.
    const onTime = verifyStripeDelivery(
      stripeDelivery(body, sign(body, stripeSecret, tenMinutesAgo)),
      (tenMinutesAgo + 60) * 1000,
    );
    expect(onTime).toMatchObject({ ok: true });
  });

  it('says when no webhookSecret is configured, and refuses a live event on a test processor', () => {
    const body = refundEvent('succeeded');
    expect(verify(stripeDelivery(body, sign(body), { secretKey: 'sk_test_0123456789abcdef' } as never))).toMatchObject({
      ok: false,
      reason: 'no_secret',
    });
    const live = body.replace('"livemode":false', '"livemode":true');
    expect(verify(stripeDelivery(live, sign(live)))).toMatchObject({ ok: false, reason: 'bad_signature' });
  });
});

const hmacKey = randomBytes(32).toString('hex').toUpperCase();
const refundItem: AdyenNotificationItem = {
  pspReference: 'MOD0000000000009',
  originalReference: 'QFQTPCQ8HXSKGK82',
  merchantAccountCode: 'AcmeECOM',
  merchantReference: 're_engineRefund0000000001',
  eventCode: 'REFUND_FAILED',
  eventDate: '2026-11-25T10:00:00+00:00',
  success: 'true',
  amount: { value: 300, currency: 'EUR' },
};
const adyenDelivery = (body: unknown, key: string | null = hmacKey, live = false): WebhookDelivery => ({
  rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8'),
  headers: {},
  credentials: { apiKey: 'AQE', merchantAccount: 'AcmeECOM', ...(key ? { hmacKey: key } : {}) },
  live,
});

describe('adyen webhooks (HMAC of each notification item)', () => {
  const verify = adyenProcessor.webhooks!.verify;
  const signed = buildNotification([refundItem], false, hmacKey);

  it('accepts a signed batch; REFUND_FAILED is a failed refund of the engine key whatever its success flag', () => {
    expect(verify(adyenDelivery(signed))).toEqual({
      ok: true,
      events: [
        {
          vendorEventId: 'REFUND_FAILED:MOD0000000000009:true',
          vendorType: 'REFUND_FAILED',
          kind: 'refund',
          succeeded: false,
          engineKey: 're_engineRefund0000000001',
          paymentReference: 'QFQTPCQ8HXSKGK82',
          operationReference: 'MOD0000000000009',
          amount: 300,
          currency: 'EUR',
        },
      ],
    });
    expect(adyenProcessor.webhooks!.acknowledgement).toEqual({ notificationResponse: '[accepted]' });
  });

  it('refuses a tampered item, another key, a missing key, the other environment and a body that is not JSON', () => {
    const tampered = structuredClone(signed);
    tampered.notificationItems[0]!.NotificationRequestItem.amount.value = 30000;
    expect(verify(adyenDelivery(tampered))).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(adyenDelivery(signed, randomBytes(32).toString('hex')))).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verify(adyenDelivery(signed, null))).toMatchObject({ ok: false, reason: 'no_secret' });
    expect(verify(adyenDelivery(signed, hmacKey, true))).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verify(adyenDelivery('{"live":'))).toMatchObject({ ok: false, reason: 'malformed' });
  });
});
