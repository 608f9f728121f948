import { refundExceedsMessage } from '../../src/payments/refundReservation';

describe('the message of a refund above what is left', () => {
  it('with refunds pending for all of the capture, says nothing is left (a refund of the rest asks no amount)', () => {
    expect(refundExceedsMessage({ amountCaptured: 500, amountRefunded: 500, currency: 'KWD' }, null)).toBe(
      'Nothing is left to refund on this payment: 0 KWD is refundable (minor units; 500 captured, 500 already refunded or pending)',
    );
  });

  it('counts in minor units of the payment currency, whatever its decimals', () => {
    expect(refundExceedsMessage({ amountCaptured: 1000, amountRefunded: 1, currency: 'JPY' }, 1000)).toBe(
      'A refund of 1000 JPY would exceed the captured amount: 999 JPY is still refundable (minor units; 1000 captured, ' +
        '1 already refunded or pending); send an amount up to 999, or none to refund all that is left',
    );
  });
});
