import type { Browser } from 'playwright-core';
import { startHarness, type Harness } from '../helpers/harness';
import { ok } from '../integration/commerce/commerceHelpers';
import { createPaymentTenant } from '../integration/payments/paymentsFixtures';
import { adyenKit } from '../integration/processors/kits/adyen';
import { stripeKit } from '../integration/processors/kits/stripe';
import { launchChromium } from './chromium';

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
const stripe = stripeKit();
const adyen = adyenKit();

/**
 * Processor-hosted 3-D Secure in a real headless browser: the hosted page pays through a stripe
 * processor (the Stripe simulator), the issuer asks for authentication, the browser follows the
 * payment's redirectUrl to the simulator's authentication page, passes it, comes back through the
 * engine's return link and lands on the page's result (its returnUrl) with status=succeeded.
 */
describe('step-up authentication in a real headless browser', () => {
  let harness: Harness;
  let browser: Browser;
  beforeAll(async () => {
    await stripe.start();
    await adyen.start();
    browser = await launchChromium();
    harness = await startHarness();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.stop();
    await stripe.stop();
    await adyen.stop();
  });

  /** A hosted checkout of one item on a tenant whose processor is `type` on `credentials`. */
  async function hostedCheckout(type: 'stripe' | 'adyen', credentials: Record<string, string>) {
    const t = await createPaymentTenant(harness);
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId: t.processorIds[0],
      updatedData: { name: type, type, credentials },
    });
    return ok(harness, 'POST', '/checkout-sessions', t.token, {
      storeId: t.storeId,
      customerId: t.customerId,
      lineItems: [{ priceId: t.priceId, quantity: 1 }],
    });
  }

  /** Pays the session's page with `card`, passes the processor's page with `button`; the navigations and the payment. */
  async function payThroughProcessorPage(session: { id: string; url: string }, card: string, button: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const visited: string[] = [];
    // Every page the browser asked for, redirects included.
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });
    await page.goto(session.url);
    await page.getByLabel('Card number').fill(card);
    await page.getByLabel('Expiry (MM / YY)').fill(`12 / ${nextYear}`);
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByLabel('Name on card').fill('Ada Lovelace');
    await page.getByRole('button', { name: /^Pay / }).click();
    // The result page sends the browser on (redirectUrl → the processor's page) by itself.
    await page.getByRole('button', { name: button }).click();
    await page.getByRole('heading', { name: 'Thank you: your payment went through' }).waitFor();
    const landed = new URL(page.url());
    await context.close();
    const payment = await harness.db.payment.findFirstOrThrow({ where: { checkoutSessionId: session.id } });
    expect(payment.status).toBe('succeeded');
    expect(landed.pathname).toBe(`/checkout/${session.id}/result`);
    expect(landed.searchParams.get('paymentId')).toBe(payment.id);
    expect(landed.searchParams.get('status')).toBe('succeeded');
    expect(visited.some((url) => url.includes(`/api/public/v1/payments/${payment.id}/authentication?`))).toBe(true);
    expect(visited.some((url) => url.includes(`/api/public/v1/payments/${payment.id}/authentication/return`))).toBe(
      true,
    );
    return { payment, visited };
  }

  it('Stripe: the shopper authenticates at the processor’s page and comes back to a paid result; one charge', async () => {
    const account = await stripe.account({ timeoutMs: 5000, holdMs: 0 });
    const session = await hostedCheckout('stripe', account.credentials);
    const { payment, visited } = await payThroughProcessorPage(
      session,
      '4000 0027 6000 3184',
      'Complete authentication',
    );
    expect(visited.some((url) => url.startsWith(`${account.credentials.endpoint}/_simulator/authenticate/`))).toBe(
      true,
    );
    expect(await account.netCharged(payment.id)).toBe(payment.amount);
  });

  it('Adyen: the shopper authenticates at the processor’s page and comes back to a paid result; one charge', async () => {
    const account = await adyen.account({ timeoutMs: 5000, holdMs: 0 });
    const session = await hostedCheckout('adyen', account.credentials);
    const { payment, visited } = await payThroughProcessorPage(session, '4917 6100 0000 0000', 'Authenticate');
    expect(visited.some((url) => url.startsWith(`${account.credentials.endpoint}/simulator/redirect/`))).toBe(true);
    expect(await account.netCharged(payment.id)).toBe(payment.amount);
  });
});
