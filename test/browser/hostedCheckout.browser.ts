import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { verifyWebhookSignature } from '../../src/webhooks/signing';
import { call, startHarness, type Harness } from '../helpers/harness';
import { until } from '../helpers/until';
import { api, ok } from '../integration/commerce/commerceHelpers';
import { cards, createPaymentTenant, netCharged, type PaymentTenant } from '../integration/payments/paymentsFixtures';
import { hostedFunnelCheckout } from '../integration/funnels/hostedFunnelFixtures';
import { threeDsCards } from '../integration/threeds/threedsHelpers';
import { launchChromium } from './chromium';

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const imagesDir = path.join(__dirname, '..', '..', 'docs', 'images');
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');

/**
 * axe-core run inside the page (through the DevTools protocol, so the page's CSP stays as served):
 * the violations that matter, serious or critical, as readable lines.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<any> } }).axe;
    return (await axe.run()).violations as {
      id: string;
      impact: string;
      help: string;
      nodes: { target: string[] }[];
    }[];
  });
  return results
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
}

describe('the hosted payment page in a real headless browser', () => {
  let harness: Harness;
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    harness = await startHarness();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.stop();
  });

  async function shop(options: { threeDs?: boolean } = {}) {
    const t = await createPaymentTenant(harness, { flow: { threeDsEnabled: options.threeDs ?? false } });
    if (options.threeDs)
      await ok(harness, 'POST', '/processors/update', t.token, {
        processorId: t.processorIds[0],
        updatedData: { enable3DS: true },
      });
    const session = await ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: t.storeId,
      customerId: t.customerId,
      lineItems: [{ priceId: t.priceId, quantity: 2, titleTrans: { de: 'Kaffeebecher' } }],
      successUrl: 'https://shop.example/thanks',
      cancelUrl: 'https://shop.example/cart',
    });
    return { t, session };
  }

  /** A page that records console errors (a CSP violation is one) and requests to other origins. */
  async function shopperPage(options: { mobile?: boolean; locale?: string } = {}) {
    const context = await browser.newContext({
      viewport: options.mobile ? { width: 390, height: 844 } : { width: 1200, height: 900 },
      isMobile: options.mobile ?? false,
      locale: options.locale ?? 'en-US',
    });
    const page = await context.newPage();
    const problems: string[] = [];
    // The engine's pages only: the sandbox's challenge page (the bank's, in life) is not ours to judge.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.startsWith(harness.sandboxUrl))
        problems.push(`${message.text()} ${message.location().url}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { page, problems, close: () => context.close() };
  }

  async function fillCard(page: Page, number: string) {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry (MM / YY)').fill(`12 / ${nextYear}`);
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
  }

  async function paymentsOf(t: PaymentTenant, sessionId: string) {
    const payments = await harness.db.payment.findMany({
      where: { checkoutSessionId: sessionId },
      orderBy: { createdAt: 'asc' },
    });
    const ledger = await t.ledger(t.processorIds[0]!);
    return { statuses: payments.map((payment) => payment.status), ledger };
  }

  it('buys with an approved card: accessible pages, the order number, one charge, the receipt and the webhook', async () => {
    const { t, session } = await shop();
    // The store's webhooks go to the sandbox's inbox, as `npm run demo` sets it up.
    const inboxUrl = `${harness.sandboxUrl}/inbox/browser_${session.id}`;
    const created = await call<{ secret: string }>(harness, 'POST', `${api}/webhooks`, {
      token: t.token,
      body: { storeId: t.storeId, url: inboxUrl, eventTypes: ['payment/succeeded', 'order/paid'] },
    });
    expect(created.status).toBe(201);
    const endpoint = created.body;
    const { page, problems, close } = await shopperPage();
    await page.goto(session.url);
    await page.getByRole('heading', { name: 'Order summary' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(imagesDir, 'hosted-checkout-desktop.png'), fullPage: true });
    await fillCard(page, '4242 4242 4242 4242');
    expect(await page.locator('#card-brand').innerText()).toBe('Visa');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Thank you: your payment went through' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(imagesDir, 'hosted-checkout-paid.png'), fullPage: true });
    const { statuses, ledger } = await paymentsOf(t, session.id);
    expect(statuses).toEqual(['succeeded']);
    const payment = await harness.db.payment.findFirstOrThrow({ where: { checkoutSessionId: session.id } });
    expect(await page.locator('#order-number').innerText()).toBe(payment.orderId);
    expect(ledger.filter((entry) => entry.operation === 'authorize')).toHaveLength(1);
    expect(netCharged(ledger)).toBe(2 * 1999);
    expect(problems).toEqual([]);
    await close();
    // The receipt in the sandbox outbox, and the signed webhook in the inbox.
    const receipt = await until(async () => {
      const outbox = await fetch(`${harness.sandboxUrl}/outbox/messages?to=${encodeURIComponent(t.customerEmail)}`);
      const { data } = (await outbox.json()) as { data: { subject: string; text: string }[] };
      return data.find((mail) => `${mail.subject}\n${mail.text}`.includes(payment.orderId!));
    });
    expect(receipt.subject).toContain(payment.orderId);
    const delivery = await until(async () => {
      const { data } = (await (await fetch(inboxUrl)).json()) as {
        data: { headers: Record<string, string>; body: string }[];
      };
      return data.find((item) => item.headers['x-webhook-event-type'] === 'payment/succeeded');
    });
    expect(delivery.body).toContain(payment.id);
    expect(
      verifyWebhookSignature(delivery.body, delivery.headers['x-webhook-signature'], endpoint.secret),
    ).toMatchObject({ valid: true });
  });

  it('accepts an upsell of a funnel in one click after paying: accessible offer page, the saved card charged once', async () => {
    const t = await createPaymentTenant(harness);
    const { session } = await hostedFunnelCheckout(harness, t);
    const { page, problems, close } = await shopperPage();
    await page.goto(session.url);
    await fillCard(page, cards.approve);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Thank you: your payment went through' }).waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'One more thing for your order' }).waitFor();
    expect(await page.locator('#offer-title').innerText()).toBe('Matching mug');
    expect(await page.locator('#offer-amount').innerText()).toBe('€9.90');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(imagesDir, 'hosted-checkout-upsell.png'), fullPage: true });
    await page.getByRole('button', { name: 'Yes, add it for €9.90' }).click();
    await page.getByRole('heading', { name: 'Thank you: your order is complete' }).waitFor();
    expect(await page.locator('#bought').innerText()).toContain('Matching mug: €9.90');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.getByRole('link', { name: 'Continue to Shop' }).getAttribute('href')).toBe(
      'https://shop.example/thanks',
    );
    const upsells = await harness.db.payment.findMany({ where: { storeId: t.storeId, source: 'upsell' } });
    expect(upsells.map((payment) => [payment.status, payment.amount])).toEqual([['succeeded', 990]]);
    const ledger = await t.ledger(t.processorIds[0]!);
    expect(ledger.filter((entry) => entry.operation === 'authorize' && entry.outcome === 'approved')).toHaveLength(2);
    expect(netCharged(ledger)).toBe(2 * 1999 + 990);
    expect(problems).toEqual([]);
    await close();
  });

  it('shows inline errors before posting, on a phone-sized screen, in the shopper’s language', async () => {
    const { session } = await shop();
    const { page, problems, close } = await shopperPage({ mobile: true, locale: 'de-DE' });
    await page.goto(session.url);
    expect(await page.locator('body').innerText()).toContain('Kaffeebecher');
    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('This card number is not valid').waitFor();
    expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Enter the name on the card.').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(imagesDir, 'hosted-checkout-mobile-errors.png'), fullPage: true });
    expect(await harness.db.payment.count({ where: { checkoutSessionId: session.id } })).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });

  it('passes an engine-run 3-D Secure challenge and comes back to the page', async () => {
    const { t, session } = await shop({ threeDs: true });
    const { page, problems, close } = await shopperPage();
    await page.goto(session.url);
    await fillCard(page, threeDsCards.challenge);
    await page.getByRole('button', { name: /^Pay / }).click();
    // The result page sends the browser on to the bank's challenge by itself.
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByRole('heading', { name: 'Thank you: your payment went through' }).waitFor();
    expect(page.url()).toContain(`/checkout/${session.id}/result`);
    const { statuses, ledger } = await paymentsOf(t, session.id);
    expect(statuses).toEqual(['succeeded']);
    expect(ledger.filter((entry) => entry.operation === 'authorize')).toHaveLength(1);
    expect(problems).toEqual([]);
    await close();
  });

  it('is declined, says so in plain words, and pays with another card', async () => {
    const { t, session } = await shop();
    const { page, problems, close } = await shopperPage();
    await page.goto(session.url);
    await fillCard(page, cards.hardDecline);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Your payment did not go through' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(imagesDir, 'hosted-checkout-declined.png'), fullPage: true });
    await page.getByRole('link', { name: 'Try another card' }).click();
    await fillCard(page, cards.approve);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Thank you: your payment went through' }).waitFor();
    const { statuses, ledger } = await paymentsOf(t, session.id);
    expect(statuses).toEqual(['failed', 'succeeded']);
    expect(ledger.filter((entry) => entry.operation === 'authorize' && entry.outcome === 'approved')).toHaveLength(1);
    expect(netCharged(ledger)).toBe(2 * 1999);
    expect(problems).toEqual([]);
    await close();
  });
});
