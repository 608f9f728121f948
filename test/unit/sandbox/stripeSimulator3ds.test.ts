import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { startStripeSimulator, type RunningStripeSimulator } from '../../../simulators/vendors/stripe/server';

/** The Stripe simulator's 3-D Secure test cards over real HTTP: confirm, the authentication page, retrieve. */
let simulator: RunningStripeSimulator;
let secretKey: string;

beforeAll(async () => {
  simulator = await startStripeSimulator();
});
afterAll(() => simulator.stop());
beforeEach(() => {
  secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
});

const returnUrl = 'https://shop.example/checkout/return?order=42';

async function stripe(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) {
  const answer = await fetch(`${simulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    ...(method === 'POST' ? { body: new URLSearchParams(params).toString() } : {}),
  });
  return { status: answer.status, body: (await answer.json()) as Stripe.PaymentIntent };
}

const confirm = (number: string, extra: Record<string, string> = {}) =>
  stripe('POST', '/v1/payment_intents', {
    amount: '1999',
    currency: 'eur',
    confirm: 'true',
    capture_method: 'automatic',
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': number,
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': '2099',
    return_url: returnUrl,
    ...extra,
  });

/** Submits the page's form as a browser would, without following the redirect. */
async function submit(pageUrl: string, outcome: 'approve' | 'fail') {
  const page = await fetch(pageUrl);
  const html = await page.text();
  expect(page.status).toBe(200);
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  expect(html).toContain(`value="${outcome}"`);
  const answer = await fetch(new URL(action!, pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!);
}

async function eventTypes(): Promise<string[]> {
  const answer = await fetch(`${simulator.url}/_simulator/events?${new URLSearchParams({ secretKey }).toString()}`);
  return ((await answer.json()) as { events: { type: string }[] }).events.map((event) => event.type);
}

function redirectOf(intent: Stripe.PaymentIntent): Stripe.PaymentIntent.NextAction.RedirectToUrl {
  expect(intent.status).toBe('requires_action');
  expect(intent.next_action?.type).toBe('redirect_to_url');
  const redirect = intent.next_action!.redirect_to_url!;
  expect(redirect.return_url).toBe(returnUrl);
  expect(redirect.url!.startsWith(`${simulator.url}/`)).toBe(true);
  return redirect;
}

describe.each(['4000002760003184', '4000000000003220', '4000002500003155'])('%s on session', (number) => {
  it('requires action; approving succeeds once, redirects to return_url, sends payment_intent.succeeded', async () => {
    const { status, body: intent } = await confirm(number);
    expect(status).toBe(200);
    const redirect = redirectOf(intent);
    const target = await submit(redirect.url!, 'approve');
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/checkout/return');
    expect(target.searchParams.get('order')).toBe('42');
    expect(target.searchParams.get('payment_intent')).toBe(intent.id);
    expect(target.searchParams.get('payment_intent_client_secret')).toBe(intent.client_secret);
    expect(target.searchParams.get('redirect_status')).toBe('succeeded');

    const retrieved = (await stripe('GET', `/v1/payment_intents/${intent.id}`)).body;
    expect(retrieved).toMatchObject({ status: 'succeeded', amount_received: 1999, next_action: null });
    expect(typeof retrieved.latest_charge).toBe('string');

    // A second submit (even the other button) settles nothing more.
    const again = await submit(redirect.url!, 'fail');
    expect(again.searchParams.get('payment_intent')).toBe(intent.id);
    expect((await stripe('GET', `/v1/payment_intents/${intent.id}`)).body).toMatchObject({
      status: 'succeeded',
      latest_charge: retrieved.latest_charge,
    });
    expect(await eventTypes()).toEqual(['payment_intent.succeeded']);
  });

  it('failing authentication leaves requires_payment_method with last_payment_error', async () => {
    const { body: intent } = await confirm(number);
    const target = await submit(redirectOf(intent).url!, 'fail');
    expect(target.searchParams.get('redirect_status')).toBe('failed');
    const retrieved = (await stripe('GET', `/v1/payment_intents/${intent.id}`)).body;
    expect(retrieved).toMatchObject({
      status: 'requires_payment_method',
      latest_charge: null,
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });
    await submit(redirectOf(intent).url!, 'approve');
    expect((await stripe('GET', `/v1/payment_intents/${intent.id}`)).body.status).toBe('requires_payment_method');
    expect(await eventTypes()).toEqual(['payment_intent.payment_failed']);
  });
});

it('4000008260003178 requires action, then declines for insufficient funds once authenticated', async () => {
  const { body: intent } = await confirm('4000008260003178');
  const target = await submit(redirectOf(intent).url!, 'approve');
  expect(target.searchParams.get('redirect_status')).toBe('failed');
  expect((await stripe('GET', `/v1/payment_intents/${intent.id}`)).body).toMatchObject({
    status: 'requires_payment_method',
    latest_charge: null,
    last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
  });
  expect(await eventTypes()).toEqual(['payment_intent.payment_failed']);
});

it('4000002500003155 off session succeeds without authentication; 4000002760003184 off session still asks', async () => {
  const { body: offSession } = await confirm('4000002500003155', { off_session: 'true' });
  expect(offSession).toMatchObject({ status: 'succeeded', next_action: null, amount_received: 1999 });
  const { body: always } = await confirm('4000002760003184', { off_session: 'true' });
  expect(always.status).toBe('requires_action');
});

it('a manual-capture intent becomes requires_capture on approval (payment_intent.amount_capturable_updated)', async () => {
  const { body: intent } = await confirm('4000002760003184', { capture_method: 'manual' });
  await submit(redirectOf(intent).url!, 'approve');
  expect((await stripe('GET', `/v1/payment_intents/${intent.id}`)).body).toMatchObject({
    status: 'requires_capture',
    amount_capturable: 1999,
  });
  expect(await eventTypes()).toEqual(['payment_intent.amount_capturable_updated']);
});

it('cancel works while requires_action; the page then settles nothing', async () => {
  const { body: intent } = await confirm('4000002760003184');
  const canceled = await stripe('POST', `/v1/payment_intents/${intent.id}/cancel`);
  expect(canceled).toMatchObject({ status: 200, body: { status: 'canceled', next_action: null } });
  const target = await submit(redirectOf(intent).url!, 'approve');
  expect(target.searchParams.get('redirect_status')).toBe('failed');
  expect((await stripe('GET', `/v1/payment_intents/${intent.id}`)).body.status).toBe('canceled');
  expect(await eventTypes()).toEqual([]);
});

it('without a return_url the 3DS cards keep the SDK next action; other cards answer as before', async () => {
  const { body: sdk } = await confirm('4000000000003220', { return_url: '' });
  expect(sdk).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
  const { body: plain } = await confirm('4242424242424242');
  expect(plain).toMatchObject({ status: 'succeeded', next_action: null });
  const declined = await confirm('4000000000009995');
  expect(declined.status).toBe(402);
});

it('an unknown authentication page is 404', async () => {
  expect((await fetch(`${simulator.url}/_simulator/authenticate/auth_nothing`)).status).toBe(404);
});
