import { randomBytes, randomUUID } from 'node:crypto';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';

/**
 * The Adyen simulator's authentication-only flow (`authenticationData.authenticationOnly: true`)
 * over real HTTP: frictionless AuthenticationFinished with threeDS2Result, or RedirectShopper →
 * the authentication page → /payments/details → AuthenticationFinished; nothing authorised, no
 * AUTHORISATION notification. Every request and answer checked against CheckoutService-v71.json.
 */
let checked: CheckedSimulator;
let merchantAccount: string;
const apiKey = `AQE_authonly_${randomBytes(8).toString('hex')}`;
const returnUrl = 'https://engine.example/api/public/v1/threeds/3ds_x/return?token=t';

beforeAll(async () => {
  checked = await startCheckedSimulator({ apiKeys: [apiKey], notificationDelayMs: 0 });
});
afterAll(() => checked.simulator.stop());
beforeEach(() => {
  merchantAccount = `AuthOnly_${randomBytes(6).toString('hex')}`;
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

const authenticate = (number: string, shopperInteraction = 'Ecommerce') =>
  adyen('/payments', {
    amount: { value: 1999, currency: 'EUR' },
    merchantAccount,
    reference: `3ds_${randomBytes(6).toString('hex')}`,
    returnUrl,
    paymentMethod: { type: 'scheme', number, expiryMonth: '03', expiryYear: '2030' },
    authenticationData: { authenticationOnly: true, threeDSRequestData: { nativeThreeDS: 'disabled' } },
    channel: 'Web',
    shopperInteraction,
  });

async function notified(pspReference: string) {
  await checked.simulator.sender.idle();
  return checked.simulator.sender.deliveries.filter((d) => d.pspReference === pspReference);
}

it('a card without 3DS behaviour, and any card on ContAuth, authenticates frictionlessly', async () => {
  for (const [number, interaction] of [
    ['4242424242424242', 'Ecommerce'],
    ['5555555555554444', 'Ecommerce'],
    ['4917610000000000', 'ContAuth'],
  ] as const) {
    const { status, body } = await authenticate(number, interaction);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      resultCode: 'AuthenticationFinished',
      threeDS2Result: {
        transStatus: 'Y',
        eci: number.startsWith('5') ? '02' : '05',
        authenticationValue: expect.any(String),
        dsTransID: expect.any(String),
        messageVersion: '2.2.0',
      },
    });
    expect(body.action).toBeUndefined();
    expect(await notified(body.pspReference)).toEqual([]);
  }
});

it.each([
  ['4917610000000000', 'approve', 'Y', '05'],
  ['5454545454545454', 'fail', 'N', '00'],
  ['4000000000003220', 'approve', 'Y', '05'],
])(
  '%s: RedirectShopper, the shopper answers %s, /payments/details gives transStatus %s',
  async (number, outcome, transStatus, eci) => {
    const started = await authenticate(number);
    expect(started.body).toMatchObject({ resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'GET' } });
    const submitted = await fetch(started.body.action.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome }).toString(),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(303);
    const back = new URL(submitted.headers.get('location')!);
    expect(back.searchParams.get('token')).toBe('t');
    const redirectResult = back.searchParams.get('redirectResult')!;
    const details = await adyen('/payments/details', { details: { redirectResult } });
    expect(details.body).toMatchObject({ resultCode: 'AuthenticationFinished', threeDS2Result: { transStatus, eci } });
    // Asked again: the same answer, still nothing authorised or notified.
    expect((await adyen('/payments/details', { details: { redirectResult } })).body).toEqual(details.body);
    expect(await notified(started.body.pspReference)).toEqual([]);
    const ledger = await fetch(
      `${checked.simulator.url}/simulator/payments?${new URLSearchParams({ merchantAccount }).toString()}`,
    );
    const [payment] = ((await ledger.json()) as { payments: { resultCode: string; captured: number }[] }).payments;
    expect(payment).toMatchObject({ resultCode: 'AuthenticationFinished', captured: 0 });
  },
);
