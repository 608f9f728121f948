import { api, createProduct, ok } from '../commerce/commerceHelpers';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { cards } from '../payments/paymentsFixtures';
import { formOf, nextYearShort, Shopper } from './hostedShopper';

const approvedCard = {
  cardNumber: cards.approve,
  expiry: `12 / ${nextYearShort}`,
  cvc: '123',
  cardholderName: 'Ada Lovelace',
};

describe('hosted payment page: links, CSRF, rendering (real Postgres and Temporal)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  const session = (extra: Record<string, unknown> = {}) =>
    ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: t.storeId,
      customerId: t.customerId,
      lineItems: [{ priceId: t.priceId, quantity: 1 }],
      ...extra,
    });

  it('answers url: a signed link on the engine that expires with the session', async () => {
    const s = await session({ expiresInMinutes: 30 });
    const url = new URL(s.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${harness.url}/checkout/${s.id}`);
    const [expires] = url.searchParams.get('t')!.split('.');
    expect(Number(expires) * 1000).toBeGreaterThanOrEqual(new Date(s.expiresAt).getTime());
    expect(Number(expires) * 1000 - new Date(s.expiresAt).getTime()).toBeLessThan(1000);
    const read = await ok(harness, 'GET', `/checkout-sessions/${s.id}`, t.token);
    expect(read.url).toBe(s.url);
  });

  it('refuses a tampered link, another session’s link and an unknown session with a page, not a stack trace', async () => {
    const [a, b] = [await session(), await session()];
    const shopper = new Shopper();
    const tokenOf = (url: string) => new URL(url).searchParams.get('t')!;
    const tampered = tokenOf(a.url).replace(/.$/, (last: string) => (last === 'A' ? 'B' : 'A'));
    for (const url of [
      `${harness.url}/checkout/${a.id}?t=${tampered}`,
      `${harness.url}/checkout/${a.id}?t=${tokenOf(b.url)}`,
      `${harness.url}/checkout/${a.id}`,
      `${harness.url}/checkout/ch_doesnotexist?t=${tokenOf(a.url)}`,
      `${harness.url}/checkout/nothing/at/all`,
    ]) {
      const answer = await shopper.open(url);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toContain('text/html');
      expect(answer.html).toMatch(/not found|no payment page/i);
      expect(answer.html).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('shows an expired session (or a link past its time) as expired, with the way back to the store', async () => {
    const s = await session({ cancelUrl: 'https://shop.example/cart' });
    await harness.db.checkoutSession.update({ where: { id: s.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const answer = await new Shopper().open(s.url);
    expect(answer.status).toBe(410);
    expect(answer.html).toContain('This payment link has expired');
    expect(answer.html).toContain('href="https://shop.example/cart"');
    const expired = await session();
    await ok(harness, 'POST', '/checkout-sessions/expire', t.token, { id: expired.id });
    expect((await new Shopper().open(expired.url)).status).toBe(410);
  });

  it('refuses posts from another site: no cookie, a forged token, a foreign Origin; nothing is charged', async () => {
    const s = await session();
    const shopper = new Shopper();
    const form = formOf((await shopper.open(s.url)).html, '/pay');
    const payUrl = `${harness.url}${form.action}`;
    const attacker = new Shopper();
    expect((await attacker.post(payUrl, { ...form.fields, ...approvedCard })).status).toBe(403);
    expect((await shopper.post(payUrl, { ...form.fields, csrf: 'x'.repeat(43), ...approvedCard })).status).toBe(403);
    const foreign = await shopper.post(payUrl, { ...form.fields, ...approvedCard }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    // Another session's form token does not open this one.
    const other = await session();
    const otherForm = formOf((await shopper.open(other.url)).html, '/pay');
    expect((await shopper.post(payUrl, { ...form.fields, csrf: otherForm.fields.csrf!, ...approvedCard })).status).toBe(
      403,
    );
    expect(await harness.db.payment.count({ where: { checkoutSessionId: s.id } })).toBe(0);
    // The same browser's own post goes through.
    const own = await shopper.post(payUrl, { ...form.fields, ...approvedCard }, { origin: harness.url });
    expect(own.status).toBe(303);
  });

  it('sends a strict CSP whose nonce is the only way to run or style anything, and a SameSite=Strict cookie', async () => {
    const s = await session();
    const answer = await new Shopper().open(s.url);
    const csp = answer.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const scripts = [...answer.html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toBe(` nonce="${nonce}"`);
    expect(answer.html).not.toMatch(/(src|href)="https?:\/\/(?!shop\.example)/);
    expect(answer.headers.getSetCookie().join()).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/);
    // A second page gets a new nonce.
    const again = await new Shopper().open(s.url);
    expect(again.headers.get('content-security-policy')).not.toBe(csp);
  });

  it('escapes what merchants and shoppers typed, shows lines in the shopper’s language, totals for the locale', async () => {
    const evil = '<img src=x onerror=alert(1)>"\'&';
    const store = await ok(harness, 'POST', '/stores', t.token, { name: evil, baseCurrency: 'EUR' });
    await harness.db.store.update({ where: { id: store.id }, data: { defaultPaymentFlowId: t.flowId } });
    const product = await createProduct(harness, t.token, store.id, [{ unitAmount: 123456, currency: 'EUR' }], 'Mug');
    const s = await ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: store.id,
      customer: { email: 'shopper@example.com' },
      lineItems: [
        { priceId: product.variants[0].prices[0].id, quantity: 3, titleTrans: { de: 'Tasse', fr: '<b>Tasse</b>' } },
      ],
    });
    const german = await new Shopper({ 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' }).open(s.url);
    expect(german.html).toContain('<html lang="de-AT">');
    expect(german.html).toContain('Tasse');
    expect(german.html).toContain(
      new Intl.NumberFormat('de-AT', { style: 'currency', currency: 'EUR' }).format(3703.68),
    );
    expect(german.html).not.toContain(evil);
    expect(german.html).toContain('&lt;img src=x onerror=alert(1)&gt;&#34;&#39;&amp;');
    expect(german.html).toContain('shopper@example.com');
    const french = await new Shopper({ 'accept-language': 'fr' }).open(s.url);
    expect(french.html).toContain('&lt;b&gt;Tasse&lt;/b&gt;');
    const english = await new Shopper({ 'accept-language': 'en-US' }).open(s.url);
    expect(english.html).toContain('Mug');
    expect(english.html).toContain('€3,703.68');
    const pinned = await ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: store.id,
      customer: { email: 'shopper@example.com' },
      locale: 'de',
      lineItems: [{ priceId: product.variants[0].prices[0].id, quantity: 1, titleTrans: { de: 'Tasse' } }],
    });
    expect((await new Shopper({ 'accept-language': 'en' }).open(pinned.url)).html).toContain('Tasse');
  });

  it('validates successUrl and cancelUrl (http or https only) and the per-line titles', async () => {
    for (const bad of [
      { successUrl: 'javascript:alert(1)' },
      { cancelUrl: 'not a url' },
      { locale: 'german' },
      { lineItems: [{ priceId: t.priceId, quantity: 1, titleTrans: { 'not a language': 'x' } }] },
    ]) {
      const answer = await call(harness, 'POST', `${api}/checkout-sessions`, {
        token: t.token,
        body: {
          storeId: t.storeId,
          customerId: t.customerId,
          lineItems: [{ priceId: t.priceId, quantity: 1 }],
          ...bad,
        },
      });
      expect(answer.status).toBe(400);
    }
  });

  it('applies a promotion code typed on the page once, and refuses unknown codes inline', async () => {
    const promotion = await ok(harness, 'POST', '/promotions', t.token, {
      storeId: t.storeId,
      name: 'Spring <sale>',
      discountType: 'percentage',
      percentBasisPoints: 1000,
    });
    await ok(harness, 'POST', '/promotion-codes', t.token, {
      promotionId: promotion.id,
      code: 'SPRING10',
      usageLimit: 5,
    });
    const s = await session();
    const shopper = new Shopper();
    const promo = formOf((await shopper.open(s.url)).html, '/promotion-code');
    const unknown = await shopper.post(`${harness.url}${promo.action}`, { ...promo.fields, promotionCode: 'NOPE' });
    expect(unknown.status).toBe(422);
    expect(unknown.html).toContain('This promotion code does not exist for this store.');
    const applied = await Promise.all(
      Array.from({ length: 10 }, () =>
        shopper.post(`${harness.url}${promo.action}`, { ...promo.fields, promotionCode: 'spring10' }),
      ),
    );
    expect(applied.map((answer) => answer.status)).toEqual(Array(10).fill(303));
    const page = await shopper.open(applied[0]!.location!);
    expect(page.html).toContain('Promotion code SPRING10 applied.');
    expect(page.html).toContain('Spring &lt;sale&gt; (SPRING10)');
    const read = await ok(harness, 'GET', `/checkout-sessions/${s.id}`, t.token);
    expect(read.discountTotal).toBe(200);
    expect(read.total).toBe(1799);
    const code = await harness.db.promotionCode.findFirstOrThrow({
      where: { code: 'SPRING10', accountId: t.merchant.accountId },
    });
    expect(code.timesRedeemed).toBe(1);
    // The page's payment charges the new total.
    const pay = formOf(page.html, '/pay');
    const paid = await shopper.post(`${harness.url}${pay.action}`, { ...pay.fields, ...approvedCard });
    expect(paid.status).toBe(303);
    const payment = await harness.db.payment.findFirstOrThrow({ where: { checkoutSessionId: s.id } });
    expect(payment.amount).toBe(1799);
  });
});
