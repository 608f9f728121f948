import { randomUUID } from 'node:crypto';
import { processorDefinition } from '../../../src/processors/registry';
import type { AuthorizeRequest, ThreeDsValues } from '../../../src/processors/types';
import { vendorDocument } from '../../../simulators/vendors/documents';
import { stripeKit } from './kits/stripe';
import type { KitAccount } from './kits/types';

/**
 * What the Stripe adapter sends beyond the shared contract (processorContract*.test.ts): the
 * requests as Stripe takes them (built by the official SDK, read back from the simulator's log),
 * Idempotency-Key on every POST, Stripe's amount units, pending refunds.
 */
const kit = stripeKit();
let account: KitAccount;

beforeAll(() => kit.start());
afterAll(() => kit.stop());
beforeEach(async () => {
  account = await kit.account({ timeoutMs: 2000, holdMs: 0 });
});

interface LoggedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: any;
}

async function requests(): Promise<LoggedRequest[]> {
  const query = new URLSearchParams({ secretKey: account.credentials.secretKey! });
  const answer = await fetch(`${account.credentials.endpoint}/_simulator/requests?${query.toString()}`);
  return ((await answer.json()) as { requests: LoggedRequest[] }).requests;
}

const request = (number: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => {
  const paymentId = `pay_${randomUUID().replace(/-/g, '')}`;
  return {
    idempotencyKey: `${paymentId}:1`,
    paymentId,
    amount: 1999,
    currency: 'EUR',
    card: { number, expMonth: 12, expYear: 2099, holderName: 'Ada Lovelace' },
    capture: false,
    initiatedBy: 'customer',
    credentials: account.credentials,
    ...overrides,
  };
};

const threeDs: ThreeDsValues = {
  eci: '05',
  authenticationValue: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
  transStatus: 'Y',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  messageVersion: '2.2.0',
  type: 'customer',
};

it('creates a confirmed PaymentIntent with the card, the capture method, the key in metadata and the 3DS values unchanged', async () => {
  const call = request('4000000000003220', { threeDs });
  expect(await account.adapter.authorize(call)).toMatchObject({ outcome: 'approved', captured: false });
  const [create] = await requests();
  expect(create).toMatchObject({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: call.idempotencyKey });
  expect(create!.params).toMatchObject({
    amount: '1999',
    currency: 'eur',
    confirm: 'true',
    capture_method: 'manual',
    payment_method_data: {
      type: 'card',
      card: { number: '4000000000003220', exp_month: '12', exp_year: '2099' },
      billing_details: { name: 'Ada Lovelace' },
    },
    metadata: { idempotency_key: call.idempotencyKey, payment_id: call.paymentId },
    payment_method_options: {
      card: {
        three_d_secure: {
          cryptogram: threeDs.authenticationValue,
          electronic_commerce_indicator: '05',
          ares_trans_status: 'Y',
          transaction_id: threeDs.dsTransID,
          version: '2.2.0',
        },
      },
    },
  });
});

it('sends the engine key as Idempotency-Key on every POST of a payment life cycle', async () => {
  const purchase = request('4242424242424242', { capture: false, amount: 3000 });
  const auth = await account.adapter.authorize(purchase);
  if (auth.outcome !== 'approved') throw new Error('expected approval');
  const follow = (key: string, amount: number) => ({
    idempotencyKey: key,
    processorReference: auth.processorReference,
    amount,
    currency: 'EUR',
    credentials: account.credentials,
  });
  await account.adapter.capture(follow('cap-1', 3000));
  await account.adapter.refund(follow('ref-1', 1000));
  await account.adapter.reverseByIdempotencyKey({
    idempotencyKey: 'rev-1',
    originalIdempotencyKey: purchase.idempotencyKey,
    amount: 3000,
    currency: 'EUR',
    credentials: account.credentials,
  });
  const other = request('4242424242424242');
  await account.adapter.lookup({ idempotencyKey: other.idempotencyKey, credentials: account.credentials });
  const posts = (await requests()).filter((r) => r.method === 'POST');
  expect(posts.map((r) => [r.path, r.idempotencyKey])).toEqual([
    ['/v1/payment_intents', purchase.idempotencyKey],
    [`/v1/payment_intents/${auth.processorReference}/capture`, 'cap-1'],
    ['/v1/refunds', 'ref-1'],
    ['/v1/refunds', 'rev-1'],
    // A lookup that finds nothing claims the key (a Customer under it).
    ['/v1/customers', other.idempotencyKey],
  ]);
  expect(posts[1]!.params).toEqual({ amount_to_capture: '3000' });
  // The refund carries the engine's key in its metadata: its webhooks name the engine's refund by it.
  expect(posts[2]!.params).toEqual({
    payment_intent: auth.processorReference,
    amount: '1000',
    metadata: { engine_key: 'ref-1' },
  });
  // The reversal refunds what is left, without an amount, so a replay sends the same request.
  expect(posts[3]!.params).toEqual({ payment_intent: auth.processorReference });
});

it('answers a refund Stripe keeps pending as pending, not as succeeded', async () => {
  const auth = await account.adapter.authorize(request('4000000000007726', { capture: true }));
  if (auth.outcome !== 'approved') throw new Error('expected approval');
  const refund = await account.adapter.refund({
    idempotencyKey: 'ref-pending',
    processorReference: auth.processorReference,
    amount: 500,
    currency: 'EUR',
    credentials: account.credentials,
  });
  expect(refund).toEqual({ outcome: 'pending', processorReference: expect.stringMatching(/^re_/) });
});

it('sends ISK in the two-decimal units Stripe takes, and reads them back in ISO minor units', async () => {
  const call = request('4242424242424242', { currency: 'ISK', amount: 500, capture: true });
  await account.adapter.authorize(call);
  const [create] = await requests();
  expect(create!.params).toMatchObject({ amount: '50000', currency: 'isk' });
  expect(
    await account.adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials: account.credentials }),
  ).toMatchObject({ status: 'captured', amount: 500 });
});

it('declares merchant-initiated calls off_session', async () => {
  await account.adapter.authorize(request('4242424242424242', { initiatedBy: 'merchant' }));
  const [create] = await requests();
  expect(create!.params.off_session).toBe('true');
});

it("answers with Stripe's own example objects, changed only where the simulation decides", async () => {
  const call = request('4242424242424242');
  await account.adapter.authorize(call);
  const query = new URLSearchParams({ secretKey: account.credentials.secretKey! });
  const { intents } = (await (await fetch(`${account.credentials.endpoint}/_simulator/intents?${query}`)).json()) as {
    intents: Record<string, unknown>[];
  };
  const fixture = vendorDocument<{ resources: Record<string, Record<string, unknown>> }>('stripe/fixtures3.json')
    .resources.payment_intent!;
  expect(Object.keys(intents[0]!).sort()).toEqual(Object.keys(fixture).sort());
  expect(intents[0]).toMatchObject({
    object: 'payment_intent',
    payment_method_configuration_details: fixture.payment_method_configuration_details,
  });
});

it('checks its credentials: a secret key is required, a webhook secret must look like one, nothing else is taken', () => {
  const schema = processorDefinition('stripe').credentialsSchema;
  const pathsOf = (value: unknown) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.') || issue.message);
  };
  expect(pathsOf({ secretKey: 'sk_test_1234567890abc' })).toEqual([]);
  expect(pathsOf({ secretKey: 'sk_live_1234567890abc', webhookSecret: 'whsec_abcdefgh1234' })).toEqual([]);
  expect(pathsOf({})).toEqual(['secretKey']);
  expect(pathsOf({ secretKey: 'pk_test_1234567890abc' })).toEqual(['secretKey']);
  expect(pathsOf({ secretKey: 'sk_test_1234567890abc', webhookSecret: 'secret' })).toEqual(['webhookSecret']);
  expect(pathsOf({ secretKey: 'sk_test_1234567890abc', endpoint: 'ftp://x' })).toEqual(['endpoint']);
  expect(pathsOf({ secretKey: 'sk_test_1234567890abc', apiKey: 'x' })[0]).toMatch(/apiKey/);
});
