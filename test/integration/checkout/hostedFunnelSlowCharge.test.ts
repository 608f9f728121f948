import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';
import { ok } from '../commerce/commerceHelpers';
import { hostedFunnelCheckout } from '../funnels/hostedFunnelFixtures';
import { cards, createPaymentTenant } from '../payments/paymentsFixtures';
import { formOf, linkOf, nextYearShort, Shopper } from './hostedShopper';

// As funnelUpsellSlowCharge.test.ts: the engine answers within 4 s, the acquirer holds the timeout
// card for 10 s (inside the 20 s the engine waits for it), so the upsell's charge outlasts the post.
describe('the hosted offer page while an accepted upsell is still charging (Postgres, dev server, sandbox acquirer)', () => {
  const harness = useHarness({ PAYMENT_RESPONSE_TIMEOUT_MS: '4000', PROCESSOR_TIMEOUT_MS: '20000' });

  it('shows "Adding the offer" (refreshing), a second click joins the same charge, then the final page', async () => {
    const t = await createPaymentTenant(harness, { credentials: { timeoutDelayMs: '0' } });
    const processorId = t.processorIds[0]!;
    const { session } = await hostedFunnelCheckout(harness, t);
    const shopper = new Shopper();
    const form = formOf((await shopper.open(session.url)).html, '/pay');
    const posted = await shopper.post(`${harness.url}${form.action}`, {
      ...form.fields,
      cardNumber: cards.timeout,
      expiry: `12 / ${nextYearShort}`,
      cvc: '123',
      cardholderName: 'Ada Lovelace',
    });
    const offer = await shopper.open(linkOf((await shopper.open(posted.location!)).html, 'continue-link'));
    expect(offer.html).toContain('One more thing for your order');
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId,
      updatedData: { credentials: { merchantId: t.acquirerMerchant[processorId]!, timeoutDelayMs: '10000' } },
    });
    const accept = formOf(offer.html, '/offer/answer');
    expect(accept.fields.answer).toBe('accept');
    const first = await shopper.post(`${harness.url}${accept.action}`, accept.fields);
    expect(first.status).toBe(303);
    expect(first.location).toContain('answered=processing');
    const charging = await shopper.open(first.location!);
    expect(charging.html).toContain('Adding the offer to your order');
    expect(charging.html).toContain('<meta http-equiv="refresh" content="2">');
    // Clicked again while the charge runs (an old tab): the same charge, nothing more.
    expect((await shopper.post(`${harness.url}${accept.action}`, accept.fields)).status).toBe(303);

    const final = await until(async () => {
      const page = await shopper.open(first.location!);
      return page.html.includes('your order is complete') ? page : undefined;
    }, 30_000);
    expect(final.html).toMatch(/Matching mug: €9\.90/);
    const upsells = await harness.db.payment.findMany({ where: { storeId: t.storeId, source: 'upsell' } });
    expect(upsells.map((payment) => [payment.status, payment.amount])).toEqual([['succeeded', 990]]);
    const approved = (await t.ledger(processorId, { operation: 'authorize' })).filter(
      (entry) => entry.outcome === 'approved',
    );
    expect(approved.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([990, 2 * 1999]);
  }, 60_000);
});
