import { createHmac } from 'node:crypto';
import { newWebhookSecret, signWebhookPayload, verifyWebhookSignature } from '../../src/webhooks/signing';
import { eventCatalogue, recordTypeOf, webhookTypeOf } from '../../src/webhooks/catalogue';
import { signingSecrets } from '../../src/webhooks/delivery';

describe('webhook signing', () => {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ id: 'evt_1', type: 'order/paid', data: { amount: 1999 } });
  const now = 1_800_000_000;

  it('signs HMAC-SHA256 over "t.body" in a t=…,v1=… header', () => {
    const header = signWebhookPayload(body, [secret], now);
    const expected = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    expect(header).toBe(`t=${now},v1=${expected}`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it('verifies a genuine signature within tolerance', () => {
    const header = signWebhookPayload(body, [secret], now);
    expect(verifyWebhookSignature(body, header, secret, { now: now + 299, toleranceSeconds: 300 })).toEqual({
      valid: true,
      timestamp: now,
    });
    expect(verifyWebhookSignature(Buffer.from(body), header, secret, { now })).toEqual({ valid: true, timestamp: now });
  });

  it('rejects a tampered body, a wrong secret, an old timestamp and malformed headers', () => {
    const header = signWebhookPayload(body, [secret], now);
    expect(verifyWebhookSignature(body.replace('1999', '1'), header, secret, { now })).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    expect(verifyWebhookSignature(body, header, newWebhookSecret(), { now })).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    expect(verifyWebhookSignature(body, header, secret, { now: now + 301, toleranceSeconds: 300 })).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verifyWebhookSignature(body, header.replace(`t=${now}`, `t=${now + 5}`), secret, { now })).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    for (const bad of [undefined, '', 'v1=abc', `t=${now}`, `t=x,v1=${'0'.repeat(64)}`]) {
      expect(verifyWebhookSignature(body, bad, secret, { now })).toEqual({ valid: false, reason: 'malformed' });
    }
  });

  it('signs with both secrets during a rotation overlap, and each verifies', () => {
    const previous = newWebhookSecret();
    const current = newWebhookSecret();
    const endpoint = {
      secret: current,
      previousSecret: previous,
      previousSecretExpiresAt: new Date(now * 1000 + 60_000),
    };
    const during = signingSecrets(endpoint, new Date(now * 1000));
    expect(during).toEqual([current, previous]);
    const header = signWebhookPayload(body, during, now);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhookSignature(body, header, previous, { now }).valid).toBe(true);
    expect(verifyWebhookSignature(body, header, current, { now }).valid).toBe(true);
    expect(signingSecrets(endpoint, new Date(now * 1000 + 60_001))).toEqual([current]);
  });
});

describe('event catalogue', () => {
  it('maps every record type to a unique slash webhook type and back', () => {
    expect(webhookTypeOf('s_order_paid')).toBe('order/paid');
    expect(recordTypeOf('payment/succeeded')).toBe('s_payment_succeeded');
    expect(webhookTypeOf('s_nope')).toBeUndefined();
    const webhookTypes = eventCatalogue.map((entry) => entry.webhookType);
    expect(new Set(webhookTypes).size).toBe(webhookTypes.length);
    for (const entry of eventCatalogue) {
      expect(entry.recordType).toMatch(/^s_[a-z_]+$/);
      expect(entry.webhookType).toMatch(/^[a-z_]+\/[a-z_]+$/);
      expect(recordTypeOf(webhookTypeOf(entry.recordType)!)).toBe(entry.recordType);
    }
  });
});
