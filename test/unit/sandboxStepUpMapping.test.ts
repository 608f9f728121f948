import { authorizeBody } from '../../src/processors/sandbox/requests';
import { toAuthenticationResult, toAuthorizeResult } from '../../src/processors/sandbox/responses';
import type { AuthorizeRequest } from '../../src/processors/types';

/** The sandbox adapter's step-up mapping (src/processors/sandbox/requests.ts, responses.ts), without an acquirer. */
const request: AuthorizeRequest = {
  idempotencyKey: 'pay_1:1',
  paymentId: 'pay_1',
  amount: 2500,
  currency: 'EUR',
  card: { number: '4000000000003220', expMonth: 12, expYear: 2099 },
  capture: true,
  initiatedBy: 'customer',
  returnUrl: 'https://engine.example/return',
  credentials: {},
};
const credentials = { merchantId: 'm_1' };

describe('sandbox step-up mapping', () => {
  it('sends the returnUrl only for a step-up variant', () => {
    expect(authorizeBody(request, credentials, { forwardThreeDs: false, stepUp: true })).toMatchObject({
      returnUrl: 'https://engine.example/return',
    });
    expect(authorizeBody(request, credentials, { forwardThreeDs: true, stepUp: false })).not.toHaveProperty(
      'returnUrl',
    );
  });

  it('maps requires_action to the contract; an answer without a page is refused as technical', () => {
    const action = { url: 'http://127.0.0.1:1/acquirer/authenticate/acq_1/tok', method: 'GET' };
    expect(toAuthorizeResult(200, { status: 'requires_action', id: 'acq_1', action })).toEqual({
      outcome: 'requires_action',
      processorReference: 'acq_1',
      action,
    });
    expect(() => toAuthorizeResult(200, { status: 'requires_action', id: 'acq_1' })).toThrow(
      expect.objectContaining({ name: 'ProcessorTechnicalError', code: 'invalid_response' }),
    );
  });

  it.each([
    ['pending', undefined, { outcome: 'pending' }],
    ['captured', undefined, { outcome: 'approved', processorReference: 'acq_1', captured: true }],
    ['authorized', undefined, { outcome: 'approved', processorReference: 'acq_1', captured: false }],
    [
      'declined',
      'authentication_failed',
      { outcome: 'declined', code: 'authentication_failed', category: 'hard_decline', processorReference: 'acq_1' },
    ],
    ['declined', undefined, { outcome: 'declined', code: 'card_declined', processorReference: 'acq_1' }],
    ['voided', undefined, { outcome: 'declined', code: 'authentication_timeout', category: 'soft_decline' }],
  ])('reads an authorization %s (%s) as %j', (status, code, expected) => {
    const body = { found: true, id: 'acq_1', status, amount: 2500, currency: 'EUR', ...(code ? { code } : {}) };
    expect(toAuthenticationResult(200, body)).toMatchObject(expected);
  });

  it('an authorization the acquirer does not know is a technical error, never a decision', () => {
    expect(() => toAuthenticationResult(200, { found: false })).toThrow(
      expect.objectContaining({ name: 'ProcessorTechnicalError' }),
    );
  });
});
