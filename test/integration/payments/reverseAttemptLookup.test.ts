import { attemptIdempotencyKey } from '../../../src/payments/attemptRows';
import { getProcessorAdapter } from '../../../src/processors/registry';
import { authorizeActivitiesOn, cards, netCharged } from './paymentsFixtures';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';

/**
 * reverseAttempt resolves an unknown attempt outcome by asking the processor first (`lookup`):
 * only what stands charged (or is still being processed) is reversed by the attempt's key.
 */
describe('reverseAttempt asks lookup before reversing (Postgres, sandbox acquirer)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);
  let processorId: string;
  let counter = 0;
  beforeAll(async () => {
    processorId = t.processorIds[0]!;
  });

  const reverse = (paymentId: string) => {
    const { activities, env } = authorizeActivitiesOn(harness);
    return env.run(activities.reverseAttempt, {
      paymentId,
      attemptNumber: 1,
      processorId,
      accountId: t.merchant.accountId,
      mode: 'test' as const,
      amount: 1999,
      currency: 'EUR',
    });
  };

  /** An authorization sent straight to the acquirer under the attempt's key, as a lost answer leaves it. */
  async function authorizeUnderKey(card: string, capture = true) {
    const paymentId = `pay_lookup${Date.now()}${++counter}`;
    const adapter = getProcessorAdapter('sandbox', { sandboxUrl: harness.sandboxUrl, timeoutMs: 5000 });
    const result = await adapter.authorize({
      idempotencyKey: attemptIdempotencyKey(paymentId, 1),
      paymentId,
      amount: 1999,
      currency: 'EUR',
      card: { number: card, expMonth: 12, expYear: 2099 },
      capture,
      initiatedBy: 'customer',
      credentials: { merchantId: t.acquirerMerchant[processorId]! },
    });
    return { paymentId, result };
  }

  const entriesOf = (paymentId: string) => t.ledger(processorId, { reference: paymentId });
  const reversalsOf = async (paymentId: string) =>
    (await t.ledger(processorId, { idempotencyKey: `${attemptIdempotencyKey(paymentId, 1)}:reversal` })).length;

  it('a key the processor never saw: nothing to reverse, and no reversal is sent', async () => {
    const paymentId = `pay_neverSent${Date.now()}`;
    expect(await reverse(paymentId)).toEqual({ outcome: 'nothing_to_reverse' });
    expect(await reversalsOf(paymentId)).toBe(0);
  });

  it('a declined authorization: nothing to reverse, and no reversal is sent', async () => {
    const { paymentId, result } = await authorizeUnderKey(cards.hardDecline);
    expect(result).toMatchObject({ outcome: 'declined' });
    expect(await reverse(paymentId)).toEqual({ outcome: 'nothing_to_reverse' });
    expect(await reversalsOf(paymentId)).toBe(0);
  });

  it.each([
    ['a captured purchase', true],
    ['an uncaptured authorization', false],
  ])('%s that stands is reversed by the key: nothing stays charged', async (_name, capture) => {
    const { paymentId, result } = await authorizeUnderKey(cards.approve, capture);
    if (result.outcome !== 'approved') throw new Error(`expected approval, got ${result.outcome}`);
    expect(await reverse(paymentId)).toEqual({
      outcome: 'reversed',
      processorReference: result.processorReference,
      amount: 1999,
    });
    expect(netCharged(await entriesOf(paymentId))).toBe(0);
    // Asked again (a retried activity): the lookup now finds it undone, and sends nothing more.
    expect(await reverse(paymentId)).toEqual({ outcome: 'nothing_to_reverse' });
    expect(await reversalsOf(paymentId)).toBe(1);
  });
});
