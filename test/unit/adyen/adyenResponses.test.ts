import {
  afterFence,
  mayHoldMoney,
  readKeyAnswer,
  toLookupResult,
  type KeyAnswer,
  type StoredUnderKey,
} from '../../../src/processors/adyen/lookup';
import { toAuthorizeResult, toFollowUpResult } from '../../../src/processors/adyen/responses';
import { isOutcomeUnknown } from '../../../src/processors/declineCodes';
import { ProcessorTechnicalError } from '../../../src/processors/types';

const amount = { value: 1999, currency: 'EUR' };
const payment = (resultCode: string, extra: object = {}) => ({
  status: 200,
  body: { pspReference: 'QFQTPCQ8HXSKGK82', resultCode, amount, merchantReference: 'pay_abc', ...extra },
});
const serviceError = (status: number, errorCode: string) => ({
  status,
  body: { status, errorCode, message: 'm', errorType: 'validation' },
});

const purchase = { capture: true, amount, reference: 'pay_abc' };
const auth = { ...purchase, capture: false };

function thrownCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ProcessorTechnicalError) return error.code;
    throw error;
  }
  throw new Error('did not throw');
}

describe('Adyen payment answer → AuthorizeResult', () => {
  it('Authorised is approved; captured follows the capture mode', () => {
    expect(toAuthorizeResult(payment('Authorised'), purchase)).toEqual({
      outcome: 'approved',
      processorReference: 'QFQTPCQ8HXSKGK82',
      captured: true,
    });
    expect(toAuthorizeResult(payment('Authorised'), auth)).toMatchObject({ captured: false });
  });

  it('Refused is a decline as data, classified by refusalReasonCode', () => {
    const refused = payment('Refused', { refusalReasonCode: '24', refusalReason: 'CVC Declined' });
    expect(toAuthorizeResult(refused, purchase)).toEqual({
      outcome: 'declined',
      code: 'incorrect_cvc',
      category: 'hard_decline',
      message: 'CVC Declined',
      processorReference: 'QFQTPCQ8HXSKGK82',
    });
    const soft = payment('Refused', { refusalReasonCode: '2', refusalReason: 'Refused' });
    expect(toAuthorizeResult(soft, purchase)).toMatchObject({ code: 'do_not_honor', category: 'soft_decline' });
  });

  it('Error is a technical decline that cascades', () => {
    expect(toAuthorizeResult(payment('Error'), purchase)).toMatchObject({
      outcome: 'declined',
      code: 'processing_error',
      category: 'technical',
    });
  });

  it.each(['RedirectShopper', 'ChallengeShopper', 'IdentifyShopper'])('%s asks for 3-D Secure', (resultCode) => {
    expect(toAuthorizeResult(payment(resultCode), purchase)).toMatchObject({
      outcome: 'requires_3ds',
      code: 'authentication_required',
    });
  });

  it.each(['Pending', 'Received', 'PartiallyAuthorised'])('%s leaves the outcome unknown (reversed by key)', (code) => {
    expect(isOutcomeUnknown(thrownCode(() => toAuthorizeResult(payment(code), purchase)))).toBe(true);
  });

  it('a shape Adyen never sends is an unknown outcome, never an approval', () => {
    expect(thrownCode(() => toAuthorizeResult(payment('Authorised', { pspReference: undefined }), purchase))).toBe(
      'invalid_response',
    );
    expect(thrownCode(() => toAuthorizeResult(payment('Splendid'), purchase))).toBe('invalid_response');
    expect(thrownCode(() => toAuthorizeResult(payment('Success'), purchase))).toBe('invalid_response');
  });

  it('an answer stored for another amount or reference is an idempotency conflict, never that payment’s answer', () => {
    expect(
      thrownCode(() => toAuthorizeResult(payment('Authorised'), { ...purchase, amount: { ...amount, value: 5 } })),
    ).toBe('idempotency_conflict');
    expect(thrownCode(() => toAuthorizeResult(payment('Refused'), { ...purchase, reference: 'pay_other' }))).toBe(
      'idempotency_conflict',
    );
  });

  it('a request refused before processing: card data is a hard decline, the rest is thrown', () => {
    expect(toAuthorizeResult(serviceError(422, '101'), purchase)).toMatchObject({
      outcome: 'declined',
      code: 'incorrect_number',
      category: 'hard_decline',
    });
    expect(thrownCode(() => toAuthorizeResult(serviceError(422, '704'), purchase))).toBe('idempotency_conflict');
    expect(thrownCode(() => toAuthorizeResult(serviceError(422, '14_030'), purchase))).toBe('invalid_request');
    expect(thrownCode(() => toAuthorizeResult(serviceError(401, '000'), purchase))).toBe('invalid_credentials');
    expect(thrownCode(() => toAuthorizeResult(serviceError(403, '010'), purchase))).toBe('invalid_credentials');
    expect(thrownCode(() => toAuthorizeResult(serviceError(429, '000'), purchase))).toBe('rate_limited');
    expect(thrownCode(() => toAuthorizeResult({ status: 404, body: 'Not Found' }, purchase))).toBe('invalid_request');
  });
});

describe('Adyen modification answer → FollowUpResult', () => {
  const received = {
    merchantAccount: 'AcmeECOM',
    paymentPspReference: 'QFQTPCQ8HXSKGK82',
    pspReference: 'MOD0000000000001',
    status: 'received',
  };

  it('"received" is pending under the modification’s own pspReference', () => {
    expect(toFollowUpResult({ status: 201, body: received })).toEqual({
      outcome: 'pending',
      processorReference: 'MOD0000000000001',
    });
  });

  it('an unknown payment is a hard failure as data; a wrong shape is an unknown outcome', () => {
    expect(toFollowUpResult(serviceError(422, '167'))).toMatchObject({
      outcome: 'failed',
      code: 'transaction_not_found',
      category: 'hard_decline',
    });
    expect(thrownCode(() => toFollowUpResult({ status: 201, body: { ...received, status: 'done' } }))).toBe(
      'invalid_response',
    );
  });
});

/** What the adapter's lookup concludes from the probe's answer and, when it found nothing, the fence's. */
function storedUnder(probeAnswer: { status: number; body: unknown }, fenceAnswer?: { status: number; body: unknown }) {
  const probe = readKeyAnswer(probeAnswer);
  if (probe.kind === 'payment') return { found: true, payment: probe.payment } as StoredUnderKey;
  if (probe.kind === 'fenced') return { found: false } as StoredUnderKey;
  if (!fenceAnswer) throw new Error('the lookup sends the fence next');
  return afterFence(readKeyAnswer(fenceAnswer), probe.errorCode);
}
const fenceAnswer = { status: 200, body: { paymentMethods: [{ name: 'Cards', type: 'scheme' }] } };

describe('Adyen lookup by idempotency key replay', () => {
  it('a stored authorisation is found with its reference and amount', () => {
    const stored = storedUnder(payment('Authorised'));
    expect(toLookupResult(stored)).toEqual({
      outcome: 'found',
      processorReference: 'QFQTPCQ8HXSKGK82',
      status: 'authorized',
      amount: 1999,
    });
    expect(stored.found && mayHoldMoney(stored.payment)).toBe(true);
  });

  it.each([
    ['Refused', 'declined', false],
    ['Error', 'declined', false],
    ['ChallengeShopper', 'pending', true],
    ['RedirectShopper', 'pending', true],
    ['Pending', 'pending', true],
  ] as const)('stored %s is %s (may hold money: %s)', (resultCode, status, holds) => {
    const stored = storedUnder(payment(resultCode));
    expect(toLookupResult(stored)).toMatchObject({ outcome: 'found', status });
    expect(stored.found && mayHoldMoney(stored.payment)).toBe(holds);
  });

  it('the probe refused as a new request, then the key closed by the fence (or by the stored refusal): not found', () => {
    expect(toLookupResult(storedUnder(serviceError(422, '101'), fenceAnswer))).toEqual({ outcome: 'not_found' });
    expect(toLookupResult(storedUnder(serviceError(422, '101'), serviceError(422, '101')))).toEqual({
      outcome: 'not_found',
    });
    // A key an earlier lookup closed answers the probe with the fence's stored answer.
    expect(toLookupResult(storedUnder(fenceAnswer))).toEqual({ outcome: 'not_found' });
  });

  it('the original arriving between probe and fence is found; a fence Adyen refused leaves the outcome open', () => {
    expect(toLookupResult(storedUnder(serviceError(422, '101'), payment('Authorised')))).toMatchObject({
      outcome: 'found',
      status: 'authorized',
    });
    expect(thrownCode(() => storedUnder(serviceError(422, '101'), serviceError(422, '000')))).toBe('invalid_response');
    const refusedFence: KeyAnswer = { kind: 'refused', errorCode: '901' };
    expect(thrownCode(() => afterFence(refusedFence, undefined))).toBe('invalid_response');
  });

  it('a key still in progress, a stored 5xx, or another payment than expected, is not an answer', () => {
    expect(thrownCode(() => readKeyAnswer(serviceError(422, '704')))).toBe('idempotency_conflict');
    expect(thrownCode(() => readKeyAnswer(serviceError(409, '704')))).toBe('idempotency_conflict');
    expect(thrownCode(() => readKeyAnswer(serviceError(409, '000')))).toBe('invalid_response');
    expect(thrownCode(() => storedUnder(serviceError(422, '101'), serviceError(422, '704')))).toBe(
      'idempotency_conflict',
    );
    expect(thrownCode(() => toLookupResult(storedUnder(payment('Authorised')), 'OTHER00000000000'))).toBe(
      'invalid_response',
    );
    expect(thrownCode(() => toLookupResult(storedUnder(payment('Authorised', { amount: undefined }))))).toBe(
      'invalid_response',
    );
  });
});
