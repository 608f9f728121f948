import { linkToken } from '../../../src/checkout/hostedPage/links';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from '../commerce/commerceHelpers';
import { hostedFunnelCheckout } from '../funnels/hostedFunnelFixtures';
import { createPaymentTenant, netCharged, type PaymentTenant } from '../payments/paymentsFixtures';
import { decodeHTML, formOf, linkOf, nextYearShort, Shopper, type PageAnswer } from './hostedShopper';

const cardFields = {
  cardNumber: '4242 4242 4242 4242',
  expiry: `12 / ${nextYearShort}`,
  cvc: '123',
  cardholderName: 'Ada Lovelace',
};

/** The hidden fields of the offer page's accept or decline form (both post to …/offer/answer). */
function answerForm(html: string, answer: 'accept' | 'decline') {
  const forms = [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((match) => match[2]!.includes(`name="answer" value="${answer}"`));
  if (!form) throw new Error(`no ${answer} form`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[input[1]!] = decodeHTML(input[2]!);
  return { action: decodeHTML(form[1]!), fields };
}

describe('hosted checkout → funnel offer pages (real Postgres, Temporal dev server, sandbox acquirer)', () => {
  const harness = useHarness();

  /** Pays the session's hosted page with an approved card and answers its result page. */
  async function payAndOpenResult(shopper: Shopper, url: string): Promise<PageAnswer> {
    const form = formOf((await shopper.open(url)).html, '/pay');
    const posted = await shopper.post(`${harness.url}${form.action}`, { ...form.fields, ...cardFields });
    expect(posted.status).toBe(303);
    return shopper.open(posted.location!);
  }

  const upsellsOf = (t: PaymentTenant) =>
    harness.db.payment.findMany({ where: { storeId: t.storeId, source: 'upsell' } });

  it('leads from the paid result to the upsell; ten accepts at once charge the saved card once; then the final page', async () => {
    const t = await createPaymentTenant(harness);
    const { session, funnelSession, stepId } = await hostedFunnelCheckout(harness, t);
    expect(session.funnelSessionId).toBe(funnelSession.id);
    const shopper = new Shopper({ 'accept-language': 'de-DE,de;q=0.9' });
    const result = await payAndOpenResult(shopper, session.url);
    expect(result.html).toContain('your payment went through');
    const offerUrl = linkOf(result.html, 'continue-link');
    expect(offerUrl).toContain(`/checkout/${session.id}/offer?t=`);

    const offer = await shopper.open(offerUrl);
    expect(offer.status).toBe(200);
    const csp = offer.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toContain("form-action 'self'");
    expect(offer.headers.get('cache-control')).toBe('no-store');
    expect(offer.html).not.toMatch(/(src|href)="https?:\/\/(?!shop\.example)/);
    // The title in the shopper's language, the amount in their format (Intl.NumberFormat, de: "9,90 €").
    expect(offer.html).toContain('Passender Becher');
    expect(offer.html).toMatch(/9,90\s€/);
    // The session's checkout was attached through the funnel API's own update: it stands on the upsell.
    const checkoutPayment = await harness.db.payment.findFirstOrThrow({ where: { checkoutSessionId: session.id } });
    const attached = await ok(harness, 'GET', `/funnel-sessions/${funnelSession.id}`, t.token);
    expect(attached).toMatchObject({ currentStepId: stepId('up'), checkoutPaymentId: checkoutPayment.id });

    const accept = answerForm(offer.html, 'accept');
    expect(accept.fields.step).toBe(stepId('up'));
    const clicks = await Promise.all(
      Array.from({ length: 10 }, () => shopper.post(`${harness.url}${accept.action}`, accept.fields)),
    );
    expect(clicks.map((click) => click.status)).toEqual(Array(10).fill(303));
    const upsells = await upsellsOf(t);
    expect(upsells).toHaveLength(1);
    expect(upsells[0]).toMatchObject({ status: 'succeeded', amount: 990, initiatedBy: 'merchant' });
    expect(upsells[0]!.paymentInstrumentId).toBe(checkoutPayment.paymentInstrumentId);
    const ledger = await t.ledger(t.processorIds[0]!, { operation: 'authorize' });
    expect(ledger.filter((entry) => entry.outcome === 'approved' && entry.amount === 990)).toHaveLength(1);
    expect(netCharged(await t.ledger(t.processorIds[0]!))).toBe(2 * 1999 + 990);
    expect(await harness.db.funnelOfferAnswer.count({ where: { sessionId: funnelSession.id } })).toBe(1);

    const final = await shopper.open(clicks[0]!.location!);
    expect(final.status).toBe(200);
    expect(final.html).toContain('Thank you: your order is complete');
    expect(final.html).toContain('Added to your order. Thank you!');
    expect(final.html).toMatch(/Passender Becher: 9,90\s€/);
    expect(linkOf(final.html, 'continue-link')).toBe('https://shop.example/thanks');
    // A reload of the accept (the browser re-sending it) after the end charges nothing more.
    const resent = await shopper.post(`${harness.url}${accept.action}`, accept.fields);
    expect(resent.status).toBe(303);
    expect(await upsellsOf(t)).toHaveLength(1);
  });

  it('a decline moves to the downsell; declining it too ends with nothing more charged', async () => {
    const t = await createPaymentTenant(harness);
    const { session, funnelSession, stepId } = await hostedFunnelCheckout(harness, t);
    const shopper = new Shopper();
    const offer = await shopper.open(linkOf((await payAndOpenResult(shopper, session.url)).html, 'continue-link'));
    expect(offer.html).toContain('Matching mug');
    expect(offer.html).toContain('€9.90');
    const declined = await shopper.post(
      `${harness.url}${answerForm(offer.html, 'decline').action}`,
      answerForm(offer.html, 'decline').fields,
    );
    expect(declined.status).toBe(303);
    const downsell = await shopper.open(declined.location!);
    expect(downsell.html).toContain('How about this instead?');
    expect(downsell.html).toContain('Coaster');
    expect(downsell.html).toContain('€4.90');
    expect(answerForm(downsell.html, 'accept').fields.step).toBe(stepId('down'));
    const second = answerForm(downsell.html, 'decline');
    const end = await shopper.open((await shopper.post(`${harness.url}${second.action}`, second.fields)).location!);
    expect(end.html).toContain('Thank you: your order is complete');
    expect(end.html).not.toContain('Added to your order');
    expect(await upsellsOf(t)).toHaveLength(0);
    expect(netCharged(await t.ledger(t.processorIds[0]!))).toBe(2 * 1999);
    const done = await ok(harness, 'GET', `/funnel-sessions/${funnelSession.id}`, t.token);
    expect(done).toMatchObject({ status: 'completed', currentStepId: stepId('thanks') });
    expect(done.answers.map((answer: { status: string }) => answer.status)).toEqual(['declined', 'declined']);
  });

  it('admits only its signed, unexpired link, and only sessions of a funnel; never a stack trace', async () => {
    const t = await createPaymentTenant(harness);
    const { session, funnelSession } = await hostedFunnelCheckout(harness, t);
    const shopper = new Shopper();
    const offerUrl = linkOf((await payAndOpenResult(shopper, session.url)).html, 'continue-link');
    const token = new URL(offerUrl).searchParams.get('t')!;
    const changed = offerUrl.replace(`t=${encodeURIComponent(token)}`, `t=${token.slice(0, -2)}xx`);
    const other = await ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: t.storeId,
      customerId: t.customerId,
      lineItems: [{ priceId: t.priceId, quantity: 1 }],
    });
    const otherToken = new URL(other.url).searchParams.get('t')!;
    const past = linkToken(harness.config, session.id, new Date(Date.now() - 60_000));
    const answers = {
      changed: await shopper.open(changed),
      foreignToken: await shopper.open(`${harness.url}/checkout/${session.id}/offer?t=${otherToken}`),
      unknown: await shopper.open(`${harness.url}/checkout/ch_doesNotExist/offer?t=${token}`),
      expired: await shopper.open(`${harness.url}/checkout/${session.id}/offer?t=${past}`),
      // A session of no funnel has no offer page.
      noFunnel: await shopper.open(`${harness.url}/checkout/${other.id}/offer?t=${otherToken}`),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status]))).toEqual({
      changed: 404,
      foreignToken: 404,
      unknown: 404,
      expired: 410,
      noFunnel: 404,
    });
    for (const answer of Object.values(answers)) {
      expect(answer.headers.get('content-type')).toContain('text/html');
      expect(answer.html).not.toMatch(/at .*\.ts:\d+|"code"/);
    }
    expect(answers.expired.html).toContain('expired');
    // A funnel session that ended idle (as its row says once its workflow closed): the offer has expired.
    await harness.db.funnelSession.update({ where: { id: funnelSession.id }, data: { status: 'expired' } });
    const ended = await shopper.open(offerUrl);
    expect(ended.status).toBe(410);
    expect(ended.html).toContain('This offer has expired');
    expect(ended.html).toContain('href="https://shop.example/thanks"');
  });

  it('refuses answers from another site (no cookie, forged token, foreign Origin) and charges nothing', async () => {
    const t = await createPaymentTenant(harness);
    const { session } = await hostedFunnelCheckout(harness, t);
    const shopper = new Shopper();
    const offer = await shopper.open(linkOf((await payAndOpenResult(shopper, session.url)).html, 'continue-link'));
    const accept = answerForm(offer.html, 'accept');
    const url = `${harness.url}${accept.action}`;
    const stranger = new Shopper();
    const refused = [
      await stranger.post(url, accept.fields),
      await shopper.post(url, { ...accept.fields, csrf: 'A'.repeat(43) }),
      await shopper.post(url, accept.fields, { origin: 'https://evil.example' }),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([403, 403, 403]);
    for (const answer of refused) expect(answer.html).toContain('Please try again');
    expect(await upsellsOf(t)).toHaveLength(0);
    expect(netCharged(await t.ledger(t.processorIds[0]!))).toBe(2 * 1999);
  });

  it('a checkout session joins only an active funnel session of its own account, store and customer', async () => {
    const t = await createPaymentTenant(harness);
    const stranger = await createPaymentTenant(harness);
    const { funnelSession } = await hostedFunnelCheckout(harness, t);
    const create = (tenant: PaymentTenant, customerId: string) =>
      call<any>(harness, 'POST', `${api}/checkout-sessions`, {
        token: tenant.token,
        body: {
          storeId: tenant.storeId,
          customerId,
          lineItems: [{ priceId: tenant.priceId, quantity: 1 }],
          funnelSessionId: funnelSession.id,
        },
      });
    const foreign = await create(stranger, stranger.customerId);
    expect(foreign.status).toBe(404);
    const otherCustomer = await ok(harness, 'POST', '/customers', t.token, {
      storeId: t.storeId,
      email: 'someone-else@example.com',
    });
    const mismatch = await create(t, otherCustomer.id);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.code).toBe('CUSTOMER_MISMATCH');
  });
});
