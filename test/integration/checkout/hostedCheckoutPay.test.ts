import { ok } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, netCharged, type PaymentTenant } from '../payments/paymentsFixtures';
import { completeChallenge, threeDsCards } from '../threeds/threedsHelpers';
import { formOf, linkOf, nextYearShort, Shopper } from './hostedShopper';
import { useHarness } from '../../helpers/useHarness';

/** The card form's visible fields for a card number. */
const cardFields = (number: string) => ({
  cardNumber: number.replace(/(\d{4})/g, '$1 ').trim(),
  expiry: `12 / ${nextYearShort}`,
  cvc: '123',
  cardholderName: 'Ada Lovelace',
});

describe('hosted payment page: paying (real Postgres, Temporal dev server, sandbox acquirer and 3DS server)', () => {
  const harness = useHarness();

  async function session(t: PaymentTenant, extra: Record<string, unknown> = {}) {
    return ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: t.storeId,
      customerId: t.customerId,
      lineItems: [{ priceId: t.priceId, quantity: 2 }],
      successUrl: 'https://shop.example/thanks',
      ...extra,
    });
  }

  async function paymentsOf(sessionId: string) {
    return harness.db.payment.findMany({ where: { checkoutSessionId: sessionId }, orderBy: { createdAt: 'asc' } });
  }

  it('pays with an approved card: 303 to the result page with the order number, one charge', async () => {
    const t = await createPaymentTenant(harness);
    const s = await session(t);
    const shopper = new Shopper();
    const page = await shopper.open(s.url);
    expect(page.status).toBe(200);
    const form = formOf(page.html, '/pay');
    const posted = await shopper.post(`${harness.url}${form.action}`, { ...form.fields, ...cardFields(cards.approve) });
    expect(posted.status).toBe(303);
    const result = await shopper.open(posted.location!);
    expect(result.status).toBe(200);
    const [payment] = await paymentsOf(s.id);
    expect(payment!.status).toBe('succeeded');
    expect(payment!.paymentInstrumentId).not.toBeNull();
    expect(result.html).toContain('your payment went through');
    expect(result.html).toContain(`<strong id="order-number">${payment!.orderId}</strong>`);
    expect(linkOf(result.html, 'continue-link')).toBe('https://shop.example/thanks');
    const ledger = await t.ledger(t.processorIds[0]!);
    expect(netCharged(ledger)).toBe(2 * 1999);
    expect(ledger.filter((entry) => entry.operation === 'authorize')).toHaveLength(1);
    // The page of a paid session shows its result, never a form to pay again.
    const again = await shopper.open(s.url);
    expect(again.status).toBe(303);
    expect(again.location).toContain(`/checkout/${s.id}/result`);
  });

  it('ten posts of one form at once (a double click, a reload) make one payment and one charge', async () => {
    const t = await createPaymentTenant(harness);
    const s = await session(t);
    const shopper = new Shopper();
    const form = formOf((await shopper.open(s.url)).html, '/pay');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        shopper.post(`${harness.url}${form.action}`, { ...form.fields, ...cardFields(cards.approve) }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(303));
    expect(new Set(answers.map((answer) => answer.location)).size).toBe(1);
    const payments = await paymentsOf(s.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]!.status).toBe('succeeded');
    expect(await harness.db.paymentInstrument.count({ where: { customerId: t.customerId } })).toBe(1);
    const ledger = await t.ledger(t.processorIds[0]!);
    expect(ledger.filter((entry) => entry.operation === 'authorize')).toHaveLength(1);
    expect(netCharged(ledger)).toBe(2 * 1999);
  });

  it('a decline says why in the shopper’s words; another card then pays the same session once', async () => {
    const t = await createPaymentTenant(harness);
    const s = await session(t);
    const shopper = new Shopper();
    const first = formOf((await shopper.open(s.url)).html, '/pay');
    const declined = await shopper.post(`${harness.url}${first.action}`, {
      ...first.fields,
      ...cardFields(cards.hardDecline),
    });
    const declinedPage = await shopper.open(declined.location!);
    expect(declinedPage.html).toContain('Your payment did not go through');
    expect(declinedPage.html).toContain('Nothing was charged.');
    expect(declinedPage.html).not.toContain('card_declined');
    const retry = await shopper.open(linkOf(declinedPage.html, 'retry-link'));
    expect(retry.status).toBe(200);
    const second = formOf(retry.html, '/pay');
    expect(second.fields.attempt).not.toBe(first.fields.attempt);
    const paid = await shopper.post(`${harness.url}${second.action}`, {
      ...second.fields,
      ...cardFields(cards.approve),
    });
    expect((await shopper.open(paid.location!)).html).toContain('your payment went through');
    const payments = await paymentsOf(s.id);
    expect(payments.map((payment) => payment.status)).toEqual(['failed', 'succeeded']);
    const ledger = await t.ledger(t.processorIds[0]!);
    expect(ledger.filter((entry) => entry.operation === 'authorize' && entry.outcome === 'approved')).toHaveLength(1);
    expect(netCharged(ledger)).toBe(2 * 1999);
  });

  it('an engine-run 3-D Secure challenge happens inside the flow and comes back to the result page', async () => {
    const t = await createPaymentTenant(harness, { flow: { threeDsEnabled: true } });
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId: t.processorIds[0],
      updatedData: { enable3DS: true },
    });
    const s = await session(t);
    const shopper = new Shopper();
    const form = formOf((await shopper.open(s.url)).html, '/pay');
    const posted = await shopper.post(`${harness.url}${form.action}`, {
      ...form.fields,
      ...cardFields(threeDsCards.challenge),
    });
    const action = await shopper.open(posted.location!);
    expect(action.html).toContain('Confirm the payment with your bank');
    const challengeUrl = linkOf(action.html, 'continue-link');
    const [pending] = await paymentsOf(s.id);
    expect(pending!.status).toBe('requires_action');
    const { answer } = await completeChallenge(harness, challengeUrl, 'complete');
    expect(answer.status).toBe(303);
    expect(answer.location).toContain(`${harness.url}/checkout/${s.id}/result`);
    const result = await shopper.open(answer.location!);
    expect(result.html).toContain('your payment went through');
    const [payment] = await paymentsOf(s.id);
    expect(payment!.status).toBe('succeeded');
    const ledger = await t.ledger(t.processorIds[0]!);
    expect(ledger.filter((entry) => entry.operation === 'authorize')).toHaveLength(1);
  });

  it('checks the card on the server too: inline errors, the number never echoed, nothing charged', async () => {
    const t = await createPaymentTenant(harness);
    const s = await session(t);
    const shopper = new Shopper();
    const form = formOf((await shopper.open(s.url)).html, '/pay');
    const answer = await shopper.post(`${harness.url}${form.action}`, {
      ...form.fields,
      cardNumber: '4242 4242 4242 4241',
      expiry: '13 / 30',
      cvc: '12',
      cardholderName: '',
    });
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('This card number is not valid');
    expect(answer.html).toContain('The month must be between 01 and 12.');
    expect(answer.html).toContain('Enter the 3-digit security code.');
    expect(answer.html).toContain('Enter the name on the card.');
    expect(answer.html).toMatch(/id="cardNumber"[^>]*aria-invalid="true"/);
    expect(answer.html).not.toContain('4242424242424241');
    expect(answer.html).not.toContain('4242 4242 4242 4241');
    expect(await paymentsOf(s.id)).toHaveLength(0);
  });
});
