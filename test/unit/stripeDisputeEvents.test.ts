import { vendorDocument } from '../../simulators/vendors/documents';
import { stripeEventToProcessorEvent } from '../../src/processors/stripe/webhooks';

// Stripe's own example dispute object (vendor/stripe/fixtures3.json), on a PaymentIntent.
const example = vendorDocument<{ resources: Record<string, Record<string, unknown>> }>('stripe/fixtures3.json')
  .resources.dispute!;
const dispute = (status: string) => ({
  ...example,
  status,
  payment_intent: 'pi_3Disputed',
  amount: 1999,
  currency: 'eur',
});
const event = (type: string, object: Record<string, unknown>) => ({ id: 'evt_1', type, data: { object } });

describe('Stripe dispute events as the engine takes them', () => {
  it('charge.dispute.created opens a dispute on the PaymentIntent, named by the dispute id', () => {
    expect(stripeEventToProcessorEvent(event('charge.dispute.created', dispute('needs_response')))).toEqual({
      vendorEventId: 'evt_1',
      vendorType: 'charge.dispute.created',
      kind: 'dispute_opened',
      succeeded: true,
      operationReference: example.id,
      paymentReference: 'pi_3Disputed',
      amount: 1999,
      currency: 'EUR',
      reason: example.reason,
    });
  });

  it.each([
    ['won', 'dispute_won'],
    ['lost', 'dispute_lost'],
  ])('charge.dispute.closed with status %s is %s, naming the same dispute', (status, kind) => {
    expect(stripeEventToProcessorEvent(event('charge.dispute.closed', dispute(status)))).toMatchObject({
      kind,
      vendorType: 'charge.dispute.closed',
      operationReference: example.id,
      paymentReference: 'pi_3Disputed',
    });
  });

  it('ignores an inquiry closed without becoming a dispute, and other dispute updates', () => {
    expect(stripeEventToProcessorEvent(event('charge.dispute.closed', dispute('warning_closed')))).toMatchObject({
      kind: 'ignored',
    });
    expect(stripeEventToProcessorEvent(event('charge.dispute.updated', dispute('under_review')))).toMatchObject({
      kind: 'ignored',
    });
  });
});
