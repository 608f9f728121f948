import { chargeResultOf } from '../../src/domain/subscriptionChargeResult';
import type { PaymentOutcome, PaymentStatus } from '../../src/payments/workflowTypes';

function payment(status: PaymentStatus, declineCode: string | null = null): PaymentOutcome {
  return {
    kind: 'payment',
    paymentId: 'pay_1',
    status,
    amount: 1500,
    currency: 'EUR',
    declineCode,
    declineMessage: null,
    redirectUrl: null,
    order: null,
  };
}

describe('a payment outcome as a subscription charge result', () => {
  it('is paid when the payment succeeded', () => {
    expect(chargeResultOf(payment('succeeded'), 'visa')).toMatchObject({
      status: 'paid',
      paymentId: 'pay_1',
      hardDecline: false,
    });
  });

  it.each([
    ['insufficient_funds', true],
    ['do_not_honor', false],
    // Reversed by key before the payment failed: nothing stands, dunning may retry.
    ['processor_error', false],
    // The reversal of a possible charge was not confirmed: retrying could charge twice.
    ['processor_outcome_unknown', true],
  ])('a failed payment with %s is a decline, hard (no reattempt on this card): %s', (code, hard) => {
    expect(chargeResultOf(payment('failed', code), 'visa')).toEqual({
      status: 'declined',
      paymentId: 'pay_1',
      hardDecline: hard,
      declineCode: code,
      redirectUrl: null,
      cardBrand: 'visa',
    });
  });

  it('a rejected request is a hard decline without a payment', () => {
    const result = chargeResultOf(
      { kind: 'rejected', error: { kind: 'not_found', code: 'NOT_FOUND', message: 'Payment instrument not found' } },
      null,
    );
    expect(result).toMatchObject({ status: 'declined', paymentId: null, hardDecline: true, declineCode: 'NOT_FOUND' });
  });
});
