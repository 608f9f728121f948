import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from '../../helpers/harness';
import { stripeKit } from '../processors/kits/stripe';
import type { KitAccount } from '../processors/kits/types';
import { attemptsOf, crossTypeTenant } from './crossTypeTenant';
import { netCharged } from './paymentsFixtures';

/**
 * A cascade across processor types, through the engine: a flow of stripe (the Stripe simulator)
 * then sandbox (the sandbox acquirer) falls back on soft declines and technical failures exactly
 * as between two sandboxes, with at most one charge standing in the end.
 */
const stripe = stripeKit();

describe('cascade stripe → sandbox (Postgres, dev server, Stripe simulator, sandbox acquirer)', () => {
  let harness: Harness;
  beforeAll(async () => {
    await stripe.start();
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.stop();
    await stripe.stop();
  });

  async function tenant() {
    const stripeAccount: KitAccount = await stripe.account({ timeoutMs: 5000, holdMs: 0 });
    const acquirerMerchant = `m_${randomUUID()}`;
    // The merchant enables KWD on both; only the sandbox's type takes it.
    const { processorIds, pay } = await crossTypeTenant(
      harness,
      [
        { name: 'Stripe', type: 'stripe', credentials: stripeAccount.credentials },
        { name: 'Sandbox', type: 'sandbox', credentials: { merchantId: acquirerMerchant } },
      ],
      ['EUR', 'KWD'],
    );
    const sandboxLedger = async (reference: string) => {
      const query = new URLSearchParams({ merchantId: acquirerMerchant, reference });
      return ((await (await fetch(`${harness.sandboxUrl}/acquirer/ledger?${query.toString()}`)).json()) as any).entries;
    };
    return {
      stripeId: processorIds[0]!,
      sandboxId: processorIds[1]!,
      stripeAccount,
      sandboxLedger,
      pay: (card: string, currency = 'EUR') => pay(card, { currency }),
    };
  }

  it('falls back to the sandbox on a soft decline at Stripe; one charge in the end', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000005100');
    expect(detail).toMatchObject({ status: 'succeeded', processorId: t.sandboxId, amountCaptured: 1999 });
    expect(attemptsOf(detail)).toEqual([
      [1, t.stripeId, 'declined', 'do_not_honor'],
      [2, t.sandboxId, 'approved', null],
    ]);
    expect(await t.stripeAccount.netCharged(detail.id)).toBe(0);
    expect(netCharged(await t.sandboxLedger(detail.id))).toBe(1999);
  });

  it('Stripe charged but answered 500: the lookup finds the charge, it is reversed, then the sandbox charges', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000005001');
    expect(detail).toMatchObject({ status: 'succeeded', processorId: t.sandboxId });
    expect(attemptsOf(detail)).toEqual([
      [1, t.stripeId, 'error', 'processor_error'],
      [2, t.sandboxId, 'approved', null],
    ]);
    expect(detail.attempts[0].message).toContain('reversed by idempotency key (1999 reversed)');
    expect(await t.stripeAccount.netCharged(detail.id)).toBe(0);
    expect(netCharged(await t.sandboxLedger(detail.id))).toBe(1999);
  });

  it('Stripe answered 500 before charging: the lookup finds nothing, nothing is reversed, the sandbox charges', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000005019');
    expect(detail).toMatchObject({ status: 'succeeded', processorId: t.sandboxId });
    expect(detail.attempts[0]).toMatchObject({ outcome: 'error', errorCode: 'processor_error' });
    expect(detail.attempts[0].message).toContain('confirmed nothing stands');
    const secretKey = t.stripeAccount.credentials.secretKey!;
    const requests = await stripeRequests(t.stripeAccount.credentials.endpoint!, secretKey);
    expect(requests.filter((r) => r.path === '/v1/refunds' || r.path.endsWith('/cancel'))).toEqual([]);
    expect(await t.stripeAccount.netCharged(detail.id)).toBe(0);
    expect(netCharged(await t.sandboxLedger(detail.id))).toBe(1999);
  });

  it('stops on a hard decline at Stripe: the sandbox is never called', async () => {
    const t = await tenant();
    const detail = await t.pay('4000000000000002');
    expect(detail).toMatchObject({ status: 'failed', declineCode: 'card_declined', declineCategory: 'hard_decline' });
    expect(attemptsOf(detail)).toEqual([[1, t.stripeId, 'declined', 'card_declined']]);
    expect(await t.sandboxLedger(detail.id)).toEqual([]);
  });

  it('skips Stripe for a currency its type does not take (capabilities.currencies), even when the merchant enabled it', async () => {
    const t = await tenant();
    const detail = await t.pay('4242424242424242', 'KWD');
    expect(detail).toMatchObject({ status: 'succeeded', currency: 'KWD', processorId: t.sandboxId });
    expect(attemptsOf(detail)).toEqual([[1, t.sandboxId, 'approved', null]]);
    const requests = await stripeRequests(
      t.stripeAccount.credentials.endpoint!,
      t.stripeAccount.credentials.secretKey!,
    );
    expect(requests).toEqual([]);
  });
});

async function stripeRequests(endpoint: string, secretKey: string): Promise<{ path: string }[]> {
  const answer = await fetch(`${endpoint}/_simulator/requests?${new URLSearchParams({ secretKey }).toString()}`);
  return ((await answer.json()) as { requests: { path: string }[] }).requests;
}
