import { randomBytes, randomUUID } from 'node:crypto';
import { checkoutResponseErrors } from '../../helpers/adyenSchemas';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';

/**
 * The Adyen simulator's 3-D Secure redirect over real HTTP: RedirectShopper, the authentication
 * page, the redirect to returnUrl, /payments/details, AUTHORISATION; every request and answer
 * checked against CheckoutService-v71.json.
 */
let checked: CheckedSimulator;
let merchantAccount: string;
const apiKey = `AQE_3ds_${randomBytes(8).toString('hex')}`;
const returnUrl = 'https://shop.example/adyen/return?order=7';

beforeAll(async () => {
  checked = await startCheckedSimulator({ apiKeys: [apiKey], notificationDelayMs: 0 });
});
afterAll(() => checked.simulator.stop());
beforeEach(() => {
  merchantAccount = `ThreeDsECOM_${randomBytes(6).toString('hex')}`;
});
afterEach(() => expect(checked.problems()).toEqual([]));

async function adyen(path: string, body: object) {
  const answer = await fetch(`${checked.simulator.url}/v71${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
}

const pay = (number: string, extra: object = {}) =>
  adyen('/payments', {
    amount: { value: 1999, currency: 'EUR' },
    merchantAccount,
    reference: `pay_${randomBytes(6).toString('hex')}`,
    returnUrl,
    paymentMethod: { type: 'scheme', number, expiryMonth: '03', expiryYear: '2030', cvc: '737' },
    shopperInteraction: 'Ecommerce',
    ...extra,
  });

async function submit(pageUrl: string, outcome: 'approve' | 'fail'): Promise<URL> {
  const page = await fetch(pageUrl);
  const html = await page.text();
  expect(page.status).toBe(200);
  expect(html).toContain(`value="${outcome}"`);
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  const answer = await fetch(new URL(action!, pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!);
}

async function authorisations(pspReference: string) {
  await checked.simulator.sender.idle();
  return checked.simulator.sender.deliveries.filter((d) => d.pspReference === pspReference).map((d) => d.eventCode);
}

async function redirectAction(number: string) {
  const { status, body } = await pay(number);
  expect(status).toBe(200);
  expect(body.resultCode).toBe('RedirectShopper');
  expect(body.action).toMatchObject({ type: 'redirect', method: 'GET', paymentMethodType: 'scheme' });
  expect(String(body.action.url).startsWith(`${checked.simulator.url}/`)).toBe(true);
  expect(await authorisations(body.pspReference)).toEqual([]);
  return { pspReference: String(body.pspReference), url: String(body.action.url) };
}

describe.each(['4917610000000000', '5454545454545454', '4212345678910006', '4000002760003184'])('%s', (number) => {
  it('approved on the page: redirect to returnUrl with redirectResult, details Authorised once', async () => {
    const { pspReference, url } = await redirectAction(number);
    const target = await submit(url, 'approve');
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/adyen/return');
    expect(target.searchParams.get('order')).toBe('7');
    const redirectResult = target.searchParams.get('redirectResult')!;
    expect(redirectResult).toBeTruthy();
    // A second submit (even the other button) keeps the first answer.
    expect((await submit(url, 'fail')).searchParams.get('redirectResult')).toBe(redirectResult);

    const details = await adyen('/payments/details', { details: { redirectResult } });
    expect(details).toMatchObject({
      status: 200,
      body: { resultCode: 'Authorised', pspReference, amount: { value: 1999, currency: 'EUR' } },
    });
    expect(checkoutResponseErrors('/v71/payments/details', 200, details.body)).toEqual([]);
    const again = await adyen('/payments/details', { details: { redirectResult } });
    expect(again.body).toEqual(details.body);
    expect(await authorisations(pspReference)).toEqual(['AUTHORISATION']);

    const stored = await (await fetch(`${checked.simulator.url}/simulator/payments/${pspReference}`)).json();
    expect(stored).toMatchObject({ resultCode: 'Authorised', captured: 1999 });
  });

  it('failed on the page: details Refused 11 (3D Not Authenticated), one AUTHORISATION', async () => {
    const { pspReference, url } = await redirectAction(number);
    const redirectResult = (await submit(url, 'fail')).searchParams.get('redirectResult')!;
    const details = await adyen('/payments/details', { details: { redirectResult } });
    expect(details.body).toMatchObject({
      resultCode: 'Refused',
      refusalReasonCode: '11',
      refusalReason: '3D Not Authenticated',
    });
    expect(await authorisations(pspReference)).toEqual(['AUTHORISATION']);
    const stored = await (await fetch(`${checked.simulator.url}/simulator/payments/${pspReference}`)).json();
    expect(stored).toMatchObject({ resultCode: 'Refused', captured: 0 });
  });
});

it('the documented 3DS2 cards authorise a merchant-initiated (ContAuth) payment without a redirect', async () => {
  const { body } = await pay('4917610000000000', {
    shopperInteraction: 'ContAuth',
    recurringProcessingModel: 'UnscheduledCardOnFile',
  });
  expect(body.resultCode).toBe('Authorised');
  expect(body.action).toBeUndefined();
});

it('details with an unknown redirectResult is refused (422) and decides nothing', async () => {
  const answer = await adyen('/payments/details', { details: { redirectResult: 'bm90aGluZzpoZXJl' } });
  expect(answer.status).toBe(422);
  const missing = await adyen('/payments/details', { details: {} });
  expect(missing.status).toBe(422);
  checked.problems(); // the empty details is deliberately off the document's request schema
});

it('other cards answer as before; the page exists only for redirected payments', async () => {
  expect((await pay('4242424242424242')).body.resultCode).toBe('Authorised');
  const challenge = await pay('4000000000003220');
  expect(challenge.body).toMatchObject({ resultCode: 'ChallengeShopper', action: { type: 'threeDS2' } });
  const page = await fetch(`${checked.simulator.url}/simulator/redirect/${String(challenge.body.pspReference)}`);
  expect(page.status).toBe(404);
});
