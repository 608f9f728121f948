import { followUpFromLookup } from '../../src/payments/followUpLookup';
import type { FollowUpCall } from '../../src/payments/followUpTypes';
import type { LookupResult } from '../../src/processors/types';

/** After a long wait without webhook, only an unambiguous payment state settles a pending follow-up. */
const call: FollowUpCall = {
  processorId: 'proc_a',
  processorReference: 'pi_1',
  amount: 500,
  currency: 'EUR',
  idempotencyKey: 'pay_1:capture',
};
const found = (status: Extract<LookupResult, { outcome: 'found' }>['status']): LookupResult => ({
  outcome: 'found',
  processorReference: 'pi_1',
  status,
  amount: 500,
});

describe('a pending follow-up read from the processor lookup', () => {
  it.each([
    ['capture', 'captured', 'succeeded'],
    ['capture', 'refunded', 'succeeded'],
    ['capture', 'voided', 'failed'],
    ['capture', 'declined', 'failed'],
    ['capture', 'authorized', 'pending'],
    ['capture', 'pending', 'pending'],
    ['void', 'voided', 'succeeded'],
    ['void', 'captured', 'failed'],
    ['void', 'authorized', 'pending'],
    ['refund', 'voided', 'failed'],
    ['refund', 'refunded', 'pending'],
    ['refund', 'captured', 'pending'],
  ] as const)('%s with the payment %s → %s', (operation, status, outcome) => {
    expect(followUpFromLookup(operation, found(status), call).outcome).toBe(outcome);
  });

  it('not found settles nothing', () => {
    expect(followUpFromLookup('capture', { outcome: 'not_found' }, call)).toEqual({
      outcome: 'pending',
      processorReference: 'pi_1',
    });
  });
});
