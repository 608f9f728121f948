import {
  adyenWebhooks,
  buildNotification,
  notificationSigningString,
  signNotificationItem,
  verifyNotification,
  type AdyenNotificationItem,
} from '../../../src/processors/adyen/webhooks';
import { webhookErrors } from '../../helpers/adyenSchemas';

// The HMAC test vector of Adyen's own Node library.
const vectorKey = 'DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00';
const vectorItem: AdyenNotificationItem = {
  pspReference: 'pspReference',
  originalReference: 'originalReference',
  merchantAccountCode: 'merchantAccount',
  merchantReference: 'reference',
  amount: { currency: 'EUR', value: 1000 },
  eventCode: 'CAPTURE',
  eventDate: '1970-01-01T00:00:00+00:00',
  success: 'true',
};

const hmacKey = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const capture: AdyenNotificationItem = {
  pspReference: 'MOD0000000000001',
  originalReference: 'QFQTPCQ8HXSKGK82',
  merchantAccountCode: 'AcmeECOM',
  merchantReference: 'pay_abc:capture',
  eventCode: 'CAPTURE',
  eventDate: '2026-11-25T10:00:00+00:00',
  success: 'true',
  amount: { value: 1999, currency: 'EUR' },
  paymentMethod: 'visa',
};

describe('Adyen webhook signature', () => {
  it('matches Adyen’s own test vector', () => {
    expect(notificationSigningString(vectorItem)).toBe(
      'pspReference:originalReference:merchantAccount:reference:1000:EUR:CAPTURE:true',
    );
    expect(signNotificationItem(vectorItem, vectorKey)).toBe('xhpHvYq2u2Np0rstbZ6QjLGu7JWhvf7Iwaa6EviJSX0=');
  });

  it('signs an absent originalReference as an empty field', () => {
    const { originalReference: _omitted, ...authorisation } = { ...capture, eventCode: 'AUTHORISATION' };
    expect(notificationSigningString(authorisation)).toBe(
      'MOD0000000000001::AcmeECOM:pay_abc:capture:1999:EUR:AUTHORISATION:true',
    );
  });

  it('verifies a signed batch and reads its events', () => {
    const verified = verifyNotification(buildNotification([capture], false, hmacKey), hmacKey, false);
    expect(verified).toEqual({
      ok: true,
      live: false,
      events: [
        {
          eventId: 'CAPTURE:MOD0000000000001:true',
          kind: 'capture',
          eventCode: 'CAPTURE',
          success: true,
          paymentPspReference: 'QFQTPCQ8HXSKGK82',
          pspReference: 'MOD0000000000001',
          merchantAccount: 'AcmeECOM',
          merchantReference: 'pay_abc:capture',
          amount: { value: 1999, currency: 'EUR' },
          eventDate: '2026-11-25T10:00:00+00:00',
        },
      ],
    });
  });

  it.each([
    ['a changed amount', (item: any) => ({ ...item, amount: { ...item.amount, value: 1 } })],
    ['a changed outcome', (item: any) => ({ ...item, success: 'false' })],
    ['another payment', (item: any) => ({ ...item, originalReference: 'OTHER00000000000' })],
    ['no signature', (item: any) => ({ ...item, additionalData: {} })],
  ])('refuses a batch with %s', (_what, tamper) => {
    const batch = buildNotification([capture, { ...capture, pspReference: 'MOD0000000000002' }], false, hmacKey);
    const second = batch.notificationItems[1]!;
    second.NotificationRequestItem = tamper(second.NotificationRequestItem);
    expect(verifyNotification(batch, hmacKey)).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it('refuses another key, the other environment and what is not a batch', () => {
    const batch = buildNotification([capture], false, hmacKey);
    expect(verifyNotification(batch, vectorKey)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(verifyNotification(batch, hmacKey, true)).toMatchObject({ ok: false, reason: 'wrong_environment' });
    expect(verifyNotification({ live: 'false', notificationItems: [] }, hmacKey)).toMatchObject({
      reason: 'malformed',
    });
    expect(verifyNotification('[accepted]', hmacKey)).toMatchObject({ reason: 'malformed' });
  });

  it.each([
    ['CAPTURE', 'false', 'capture', false],
    ['CAPTURE_FAILED', 'true', 'capture_failed', true],
    ['CANCELLATION', 'true', 'void', true],
    ['CANCEL_OR_REFUND', 'true', 'reversal', true],
    ['REFUND', 'true', 'refund', true],
    ['REFUND_FAILED', 'true', 'refund_failed', true],
    ['CHARGEBACK', 'true', 'dispute_opened', true],
    ['CHARGEBACK_REVERSED', 'true', 'dispute_won', true],
    ['SECOND_CHARGEBACK', 'true', 'dispute_lost', true],
    ['REPORT_AVAILABLE', 'true', 'unhandled', true],
  ] as const)('%s (success %s) is %s', (eventCode, success, kind, succeeded) => {
    const item = { ...capture, eventCode, success };
    const verified = verifyNotification(buildNotification([item], false, hmacKey), hmacKey);
    expect(verified).toMatchObject({ ok: true, events: [{ kind, success: succeeded, eventCode }] });
  });

  it.each([
    ['CHARGEBACK', 'true', 'dispute_opened'],
    ['CHARGEBACK_REVERSED', 'true', 'dispute_won'],
    ['CHARGEBACK_REVERSED', 'false', 'ignored'],
    ['SECOND_CHARGEBACK', 'true', 'dispute_lost'],
    ['SECOND_CHARGEBACK', 'false', 'ignored'],
    ['NOTIFICATION_OF_CHARGEBACK', 'true', 'ignored'],
  ] as const)(
    'the engine takes %s (success %s) as %s, naming the payment and the dispute',
    (eventCode, success, kind) => {
      const item = { ...capture, eventCode, success, pspReference: 'DISP000000000001', reason: 'Fraud' };
      const verified = adyenWebhooks.verify({
        rawBody: Buffer.from(JSON.stringify(buildNotification([item], false, hmacKey))),
        headers: {},
        credentials: { hmacKey },
        live: false,
      });
      expect(verified).toEqual({
        ok: true,
        events: [
          expect.objectContaining({
            kind,
            vendorType: eventCode,
            paymentReference: capture.originalReference,
            operationReference: 'DISP000000000001',
            amount: 1999,
            currency: 'EUR',
          }),
        ],
      });
    },
  );
});

describe('Adyen webhook payloads against Webhooks-v1.json', () => {
  it.each(['AUTHORISATION', 'CAPTURE', 'CAPTURE_FAILED', 'CANCELLATION', 'REFUND', 'REFUND_FAILED', 'CHARGEBACK'])(
    'a built %s notification is valid',
    (eventCode) => {
      // A payment's own event names no original payment.
      const { originalReference, ...rest } = capture;
      const item =
        eventCode === 'AUTHORISATION' ? { ...rest, eventCode } : { ...capture, originalReference, eventCode };
      expect(webhookErrors(buildNotification([item], false, hmacKey))).toEqual([]);
    },
  );

  it('the check fails on what Adyen never sends', () => {
    expect(webhookErrors(buildNotification([{ ...capture, eventCode: 'AUTHORISATION' }], false, hmacKey))).not.toEqual(
      [],
    );
    const batch = buildNotification([capture], false, hmacKey);
    const item = batch.notificationItems[0]!.NotificationRequestItem as any;
    expect(
      webhookErrors({ ...batch, notificationItems: [{ NotificationRequestItem: { ...item, success: true } }] }),
    ).not.toEqual([]);
    expect(
      webhookErrors({ ...batch, notificationItems: [{ NotificationRequestItem: { ...item, eventCode: 'PAID' } }] }),
    ).not.toEqual([]);
    expect(webhookErrors({ ...batch, notificationItems: [{ Item: item }] })).not.toEqual([]);
  });
});
