import { adyenProcessor } from '../../../src/processors/adyen';
import type { AuthorizeRequest, ProcessorAdapter } from '../../../src/processors/types';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';

/**
 * The Adyen adapter's step-up against the Adyen simulator over real HTTP, every request and answer
 * checked against CheckoutService-v71.json: the redirect, /payments/details (once, replayed under
 * its key), and the cancel of an abandoned authentication (a late details call then charges nothing).
 */
let checked: CheckedSimulator;
let adapter: ProcessorAdapter;
let credentials: Record<string, string>;
let counter = 0;
const returnUrl = 'https://engine.example/api/public/v1/payments/pay_x/authentication/return?attempt=1&token=t';

beforeAll(async () => {
  checked = await startCheckedSimulator({ holdMs: 0, apiKeys: ['AQE_stepup_key'] });
  adapter = adyenProcessor.createAdapter({ sandboxUrl: 'http://sandbox.invalid', timeoutMs: 5000 });
});
afterAll(async () => {
  await checked?.simulator.stop();
});
beforeEach(() => {
  credentials = {
    apiKey: 'AQE_stepup_key',
    merchantAccount: `StepUpECOM${++counter}`,
    endpoint: checked.simulator.url,
  };
});
afterEach(() => {
  expect(checked.problems()).toEqual([]);
});

function request(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  const paymentId = `pay_stepup${++counter}`;
  return {
    idempotencyKey: `${paymentId}:1`,
    paymentId,
    amount: 1999,
    currency: 'EUR',
    card: { number: '5454545454545454', expMonth: 12, expYear: 2099 },
    capture: true,
    initiatedBy: 'customer',
    returnUrl,
    credentials,
    ...overrides,
  };
}

/** The simulator's page, submitted: the redirectResult the browser brings back. */
async function shopper(url: string, outcome: 'approve' | 'fail'): Promise<string> {
  const submitted = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
  expect(submitted.status).toBe(303);
  const back = new URL(submitted.headers.get('location')!);
  expect(back.toString().startsWith(returnUrl)).toBe(true);
  return back.searchParams.get('redirectResult')!;
}

async function redirected(authorize: AuthorizeRequest) {
  const result = await adapter.authorize(authorize);
  if (result.outcome !== 'requires_action') throw new Error(`expected requires_action, got ${result.outcome}`);
  return result;
}

const simPayment = (psp: string) => checked.simulator.state.payments.get(psp)!;

it('a documented 3DS2 card: requires_action at the simulator page; details after approval authorise once', async () => {
  const authorize = request();
  const result = await redirected(authorize);
  expect(result.action).toEqual({ url: expect.stringContaining('/simulator/redirect/'), method: 'GET' });
  const redirectResult = await shopper(result.action.url, 'approve');
  const ask = () =>
    adapter.authenticationResult!({
      processorReference: result.processorReference,
      idempotencyKey: authorize.idempotencyKey,
      returnData: { redirectResult },
      capture: true,
      credentials,
    });
  const first = await ask();
  expect(first).toEqual({ outcome: 'approved', processorReference: result.processorReference, captured: true });
  expect(await ask()).toEqual(first);
  expect(simPayment(result.processorReference)).toMatchObject({ resultCode: 'Authorised', captured: 1999 });
  const details = checked.requests.filter((exchange) => exchange.path.endsWith('/payments/details'));
  expect(details).toHaveLength(2);
  expect(new Set(details.map((exchange) => exchange.headers['idempotency-key'])).size).toBe(1);
});

it('without the return data Adyen cannot be asked: pending, and nothing is sent', async () => {
  const authorize = request();
  const result = await redirected(authorize);
  const before = checked.requests.length;
  expect(
    await adapter.authenticationResult!({
      processorReference: result.processorReference,
      idempotencyKey: authorize.idempotencyKey,
      capture: true,
      credentials,
    }),
  ).toEqual({ outcome: 'pending' });
  expect(checked.requests).toHaveLength(before);
});

it('a failed authentication is declined authentication_failed', async () => {
  const authorize = request({ capture: false });
  const result = await redirected(authorize);
  const redirectResult = await shopper(result.action.url, 'fail');
  expect(
    await adapter.authenticationResult!({
      processorReference: result.processorReference,
      idempotencyKey: authorize.idempotencyKey,
      returnData: { redirectResult },
      capture: false,
      credentials,
    }),
  ).toMatchObject({
    outcome: 'declined',
    code: 'authentication_failed',
    processorReference: result.processorReference,
  });
});

it('abandoned: the reversal by key cancels the waiting payment; a late approval then charges nothing', async () => {
  const authorize = request();
  const result = await redirected(authorize);
  const reversal = await adapter.reverseByIdempotencyKey({
    idempotencyKey: `${authorize.idempotencyKey}:reversal`,
    originalIdempotencyKey: authorize.idempotencyKey,
    amount: 1999,
    currency: 'EUR',
    credentials,
  });
  expect(reversal).toMatchObject({ outcome: 'reversed', processorReference: result.processorReference });
  const redirectResult = await shopper(result.action.url, 'approve');
  const late = await adapter.authenticationResult!({
    processorReference: result.processorReference,
    idempotencyKey: authorize.idempotencyKey,
    returnData: { redirectResult },
    capture: true,
    credentials,
  });
  expect(late).toMatchObject({ outcome: 'declined' });
  expect(simPayment(result.processorReference)).toMatchObject({ cancelled: true, captured: 0 });
});

it('without a return URL the same card is requires_3ds, as before', async () => {
  const { returnUrl: _unused, ...withoutReturn } = request();
  expect(await adapter.authorize(withoutReturn)).toMatchObject({
    outcome: 'requires_3ds',
    code: 'authentication_required',
  });
});
