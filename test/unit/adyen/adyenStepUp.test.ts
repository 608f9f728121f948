import { detailsRequest, paymentRequest } from '../../../src/processors/adyen/requests';
import { toAuthorizeResult } from '../../../src/processors/adyen/responses';
import { detailsIdempotencyKey, toDetailsResult } from '../../../src/processors/adyen/stepUp';
import { adyenWebhooks, buildNotification, type AdyenNotificationItem } from '../../../src/processors/adyen/webhooks';
import { ProcessorTechnicalError, type AuthorizeRequest } from '../../../src/processors/types';
import { checkoutRequestErrors, checkoutResponseErrors, webhookErrors } from '../../helpers/adyenSchemas';

const credentials = { apiKey: 'AQE_key', merchantAccount: 'AcmeECOM' };
const amount = { value: 1999, currency: 'EUR' };
const returnUrl = 'https://pay.example.com/api/public/v1/payments/pay_abc/authentication/return?attempt=1&token=t';

function authorize(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    idempotencyKey: 'pay_abc:1',
    paymentId: 'pay_abc',
    amount: 1999,
    currency: 'EUR',
    card: { number: '4917610000000000', expMonth: 3, expYear: 2030 },
    capture: true,
    initiatedBy: 'customer',
    credentials,
    ...overrides,
  };
}

const redirectAnswer = (action: object, extra: object = {}) => ({
  status: 200,
  body: { pspReference: 'QFQTPCQ8HXSKGK82', resultCode: 'RedirectShopper', amount, action, ...extra },
});
const getAction = { type: 'redirect', method: 'GET', paymentMethodType: 'scheme', url: 'https://acs.example/3ds' };
const sent = { capture: true, amount, reference: 'pay_abc', stepUp: true };

describe('Adyen step-up: the payment request', () => {
  it("with the engine's return URL: sent as returnUrl, channel Web, origin, the attempt's key as metadata", () => {
    const body = paymentRequest(authorize({ returnUrl }), credentials);
    expect(body).toMatchObject({
      returnUrl,
      channel: 'Web',
      origin: 'https://pay.example.com',
      metadata: { engineKey: 'pay_abc:1' },
    });
    expect(checkoutRequestErrors('/v71/payments', body)).toEqual([]);
  });

  it('a merchant-initiated charge never steps up, whatever it is given', () => {
    const body = paymentRequest(authorize({ returnUrl, initiatedBy: 'merchant' }), credentials);
    expect(body.returnUrl).not.toBe(returnUrl);
    expect(body.channel).toBeUndefined();
    expect(body.metadata).toBeUndefined();
  });

  it('details carry redirectResult, else threeDSResult; nothing usable is no request', () => {
    expect(detailsRequest({ redirectResult: 'abc' })).toEqual({ details: { redirectResult: 'abc' } });
    expect(detailsRequest({ threeDSResult: 'xyz' })).toEqual({ details: { threeDSResult: 'xyz' } });
    expect(detailsRequest({ redirectResult: ' ' })).toBeUndefined();
    expect(detailsRequest(undefined)).toBeUndefined();
    expect(checkoutRequestErrors('/v71/payments/details', detailsRequest({ redirectResult: 'abc' }))).toEqual([]);
  });

  it("the details key is the attempt's, per return data, within Adyen's 64 characters", () => {
    const attemptKey = 'pay_0123456789abcdefghij:12';
    const one = detailsIdempotencyKey(attemptKey, { details: { redirectResult: 'a'.repeat(5000) } });
    expect(one.startsWith(`${attemptKey}:details:`)).toBe(true);
    expect(one.length).toBeLessThanOrEqual(64);
    expect(detailsIdempotencyKey(attemptKey, { details: { redirectResult: 'a'.repeat(5000) } })).toBe(one);
    expect(detailsIdempotencyKey(attemptKey, { details: { redirectResult: 'b' } })).not.toBe(one);
  });
});

describe('Adyen step-up: the /payments answer', () => {
  it('RedirectShopper with a GET redirect action is requires_action at that URL', () => {
    expect(checkoutResponseErrors('/v71/payments', 200, redirectAnswer(getAction).body)).toEqual([]);
    expect(toAuthorizeResult(redirectAnswer(getAction), sent)).toEqual({
      outcome: 'requires_action',
      processorReference: 'QFQTPCQ8HXSKGK82',
      action: { url: 'https://acs.example/3ds', method: 'GET' },
    });
  });

  it('ChallengeShopper with a POST redirect is a form posted with its data; no pspReference yet: the reference', () => {
    const action = { type: 'redirect', method: 'POST', url: 'https://acs.example/post', data: { MD: 'm', PaReq: 'p' } };
    const answer = redirectAnswer(action, { resultCode: 'ChallengeShopper', pspReference: undefined });
    expect(toAuthorizeResult(answer, sent)).toEqual({
      outcome: 'requires_action',
      processorReference: 'pay_abc',
      action: { url: 'https://acs.example/post', method: 'POST', data: { MD: 'm', PaReq: 'p' } },
    });
  });

  it('without a return URL sent, or with a native threeDS2 action, it stays requires_3ds', () => {
    expect(toAuthorizeResult(redirectAnswer(getAction), { ...sent, stepUp: false })).toMatchObject({
      outcome: 'requires_3ds',
    });
    const native = { type: 'threeDS2', subtype: 'challenge', paymentMethodType: 'scheme', token: 'dG9r' };
    expect(toAuthorizeResult(redirectAnswer(native), sent)).toMatchObject({ outcome: 'requires_3ds' });
  });

  it('an action of an unexpected shape is not followed, and the answer stays readable', () => {
    const odd = { type: 'redirect', url: 'https://acs.example/3ds', method: 'POST', data: { MD: 1 } };
    expect(toAuthorizeResult(redirectAnswer(odd), sent)).toMatchObject({ outcome: 'requires_3ds' });
    const script = { ...getAction, url: 'javascript:alert(1)' };
    expect(toAuthorizeResult(redirectAnswer(script), sent)).toMatchObject({ outcome: 'requires_3ds' });
  });
});

describe('Adyen step-up: the /payments/details answer', () => {
  const details = (resultCode: string, extra: object = {}) => ({
    status: 200,
    body: { pspReference: 'QFQTPCQ8HXSKGK82', merchantReference: 'pay_abc', resultCode, amount, ...extra },
  });
  const asked = { processorReference: 'QFQTPCQ8HXSKGK82', capture: true };

  it("Authorised is approved; captured follows the payment's capture mode", () => {
    expect(toDetailsResult(details('Authorised'), asked)).toEqual({
      outcome: 'approved',
      processorReference: 'QFQTPCQ8HXSKGK82',
      captured: true,
    });
    expect(toDetailsResult(details('Authorised'), { ...asked, capture: false })).toMatchObject({ captured: false });
  });

  it('Refused 11 (3D Not Authenticated) is authentication_failed; another refusal keeps its own code', () => {
    const failed = details('Refused', { refusalReasonCode: '11', refusalReason: '3D Not Authenticated' });
    expect(toDetailsResult(failed, asked)).toMatchObject({ outcome: 'declined', code: 'authentication_failed' });
    const funds = details('Refused', { refusalReasonCode: '12', refusalReason: 'Not enough balance' });
    expect(toDetailsResult(funds, asked)).toMatchObject({ outcome: 'declined', code: 'insufficient_funds' });
  });

  it.each(['Pending', 'Received', 'RedirectShopper'])('%s is pending', (resultCode) => {
    expect(toDetailsResult(details(resultCode), asked)).toEqual({ outcome: 'pending' });
  });

  it('a refused details request (redirectResult unknown) is pending, never a decline', () => {
    const refused = {
      status: 422,
      body: { status: 422, errorCode: '101', message: 'Invalid', errorType: 'validation' },
    };
    expect(toDetailsResult(refused, asked)).toEqual({ outcome: 'pending' });
  });

  it('an answer about another payment is refused as a technical error', () => {
    expect(() =>
      toDetailsResult(details('Authorised', { pspReference: 'OTHER', merchantReference: 'pay_x' }), asked),
    ).toThrow(ProcessorTechnicalError);
  });
});

describe('Adyen step-up: the AUTHORISATION webhook', () => {
  const hmacKey = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
  const item = (additionalData?: AdyenNotificationItem['additionalData']): AdyenNotificationItem => ({
    pspReference: 'QFQTPCQ8HXSKGK82',
    merchantAccountCode: 'AcmeECOM',
    merchantReference: 'pay_abc',
    eventCode: 'AUTHORISATION',
    eventDate: '2026-01-01T10:00:00+00:00',
    success: 'true',
    amount,
    ...(additionalData ? { additionalData } : {}),
  });
  const verify = (notification: unknown) =>
    adyenWebhooks.verify({
      rawBody: Buffer.from(JSON.stringify(notification)),
      headers: {},
      credentials: { ...credentials, hmacKey },
      live: false,
    });

  it("with the attempt's key in its metadata it is an authorization event for that key", () => {
    const notification = buildNotification([item({ metadata: { engineKey: 'pay_abc:1' } })], false, hmacKey);
    expect(webhookErrors(notification)).toEqual([]);
    const verified = verify(notification);
    expect(verified).toMatchObject({
      ok: true,
      events: [{ kind: 'authorization', engineKey: 'pay_abc:1', succeeded: true }],
    });
  });

  it("the flat form of Adyen's prose (metadata.engineKey) is read too", () => {
    const notification = buildNotification([item({ 'metadata.engineKey': 'pay_abc:2' })], false, hmacKey);
    expect(verify(notification)).toMatchObject({
      ok: true,
      events: [{ kind: 'authorization', engineKey: 'pay_abc:2' }],
    });
  });

  it('without it (not a step-up payment) it is ignored', () => {
    expect(verify(buildNotification([item()], false, hmacKey))).toMatchObject({
      ok: true,
      events: [{ kind: 'ignored' }],
    });
  });
});
