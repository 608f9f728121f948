import { verifyWebhook } from '../../../clients/typescript/src';
import { signWebhookPayload, verifyWebhookSignature } from '../../../src/webhooks/signing';

/** The client's receiver-side check against the engine's own signer (src/webhooks/signing.ts). */
describe('verifyWebhook (typed client)', () => {
  const secret = 'whsec_current';
  const previous = 'whsec_previous';
  const signedAt = 1_800_000_000;
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'payment/refunded',
    mode: 'test',
    createdAt: '2027-01-15T08:00:00.000Z',
    data: { id: 'evt_1', eventType: 's_payment_refunded', properties: { paymentId: 'pay_1', amount: 500 } },
  });
  const header = signWebhookPayload(body, [secret], signedAt);

  it('accepts what the engine signed, as a string or as the raw bytes, and returns the parsed event', () => {
    const fromString = verifyWebhook(body, header, secret, { now: signedAt });
    expect(fromString).toEqual({ valid: true, timestamp: signedAt, event: JSON.parse(body) });
    expect(verifyWebhook(Buffer.from(body), header, secret, { now: signedAt })).toEqual(fromString);
    expect(verifyWebhook(new TextEncoder().encode(body), [header], secret, { now: signedAt })).toEqual(fromString);
  });

  it('accepts either secret while a rotation overlaps (two v1= entries)', () => {
    const both = signWebhookPayload(body, [secret, previous], signedAt);
    expect(verifyWebhook(body, both, secret, { now: signedAt })).toMatchObject({ valid: true });
    expect(verifyWebhook(body, both, previous, { now: signedAt })).toMatchObject({ valid: true });
    expect(verifyWebhook(body, both, 'whsec_other', { now: signedAt })).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
  });

  it('refuses a changed body, another secret, or a signature moved to another timestamp', () => {
    const changed = body.replace('"amount":500', '"amount":5000');
    expect(verifyWebhook(changed, header, secret, { now: signedAt })).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    expect(verifyWebhook(body, header, 'whsec_other', { now: signedAt })).toMatchObject({ valid: false });
    const moved = header.replace(`t=${signedAt}`, `t=${signedAt + 1}`);
    expect(verifyWebhook(body, moved, secret, { now: signedAt })).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
  });

  it('takes 300 s either way by default, and the tolerance given', () => {
    for (const now of [signedAt - 300, signedAt + 300])
      expect(verifyWebhook(body, header, secret, { now })).toMatchObject({ valid: true });
    for (const now of [signedAt - 301, signedAt + 301])
      expect(verifyWebhook(body, header, secret, { now })).toEqual({
        valid: false,
        reason: 'timestamp_out_of_tolerance',
      });
    expect(verifyWebhook(body, header, secret, { now: signedAt + 30, toleranceSeconds: 10 })).toMatchObject({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
    // The clock is the default: a signature made now passes, one from an hour ago does not.
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(body, signWebhookPayload(body, [secret], now), secret)).toMatchObject({ valid: true });
    expect(verifyWebhook(body, signWebhookPayload(body, [secret], now - 3600), secret)).toMatchObject({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['no timestamp', header.replace(`t=${signedAt},`, '')],
    ['no signature', `t=${signedAt}`],
    ['a short signature', `t=${signedAt},v1=abcd`],
    ['an upper-case signature', header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1=')],
    ['a non-numeric timestamp', header.replace(`t=${signedAt}`, 't=soon')],
    ['two header values', [header, header]],
  ])('calls %s malformed', (_label, value) => {
    expect(verifyWebhook(body, value, secret, { now: signedAt })).toEqual({ valid: false, reason: 'malformed' });
  });

  it('calls a correctly signed body that is not JSON malformed', () => {
    const text = 'not json';
    expect(verifyWebhook(text, signWebhookPayload(text, [secret], signedAt), secret, { now: signedAt })).toEqual({
      valid: false,
      reason: 'malformed',
    });
  });

  it("gives the engine's own verifier's verdict on every case (same scheme, same tolerance)", () => {
    const cases: [string, string | undefined, number][] = [
      [body, header, signedAt],
      [body, header, signedAt + 300],
      [body, header, signedAt + 301],
      [body, header, signedAt - 301],
      [body.replace('evt_1', 'evt_2'), header, signedAt],
      [body, signWebhookPayload(body, ['whsec_other', secret], signedAt), signedAt],
      [body, `v1=${'0'.repeat(64)},t=${signedAt}`, signedAt],
      [body, ` t=${signedAt} , ${header.split(',')[1]} `, signedAt],
      [body, undefined, signedAt],
      [body, 'garbage', signedAt],
    ];
    for (const [payload, signature, now] of cases) {
      const engine = verifyWebhookSignature(payload, signature, secret, { now });
      const client = verifyWebhook(payload, signature, secret, { now });
      expect({ signature, now, valid: client.valid, reason: client.valid ? undefined : client.reason }).toEqual({
        signature,
        now,
        valid: engine.valid,
        reason: engine.valid ? undefined : engine.reason,
      });
    }
  });
});
