import { adyenProcessor } from '../../../src/processors/adyen';
import { lookupProbeCardNumber } from '../../../src/processors/adyen/requests';
import type { AuthorizeRequest, ProcessorAdapter } from '../../../src/processors/types';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';
import { authorizeRequest } from './kits/requests';

/**
 * What the Adyen adapter does beyond the contract suite, over real HTTP against the simulator:
 * how its lookup reads and closes an idempotency key (docs/processors-adyen.md "Lookup"), what it
 * refuses without sending, and Adyen's holderName test triggers as the simulator serves them.
 */
let checked: CheckedSimulator;
let adapter: ProcessorAdapter;
let credentials: Record<string, string>;
let counter = 0;

beforeAll(async () => {
  checked = await startCheckedSimulator({ holdMs: 2_000, apiKeys: ['AQE_lookup_key'] });
  adapter = adyenProcessor.createAdapter({ sandboxUrl: 'http://sandbox.invalid', timeoutMs: 1_000 });
  await fetch(`${checked.simulator.url}/simulator/deliveries`);
});
afterAll(async () => {
  await checked?.simulator.stop();
});
beforeEach(() => {
  credentials = {
    apiKey: 'AQE_lookup_key',
    merchantAccount: `LookupECOM${++counter}`,
    endpoint: checked.simulator.url,
  };
});
afterEach(() => {
  expect(checked.problems()).toEqual([]);
});

const request = (number: string, overrides: Partial<AuthorizeRequest> = {}) =>
  authorizeRequest(credentials, number, overrides);
const sentUnder = (key: string) =>
  checked.requests.filter((r) => r.headers['idempotency-key'] === key).map((r) => r.path);
const paymentsOf = (reference: string) =>
  [...checked.simulator.state.payments.values()].filter((p) => p.reference === reference);

describe('Adyen lookup', () => {
  it('an unused key: the probe is refused unprocessed, the fence closes the key, a late original is not processed', async () => {
    const call = request('4242424242424242');
    expect(await adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials })).toEqual({
      outcome: 'not_found',
    });
    expect(sentUnder(call.idempotencyKey)).toEqual(['/v71/payments', '/v71/paymentMethods']);
    const probe = checked.requests.find((r) => r.headers['idempotency-key'] === call.idempotencyKey)!;
    expect(probe.body).toMatchObject({ amount: { value: 0 }, paymentMethod: { number: lookupProbeCardNumber } });

    // Asked again, the probe gets the fence's stored answer: still nothing, nothing more sent.
    expect(await adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials })).toEqual({
      outcome: 'not_found',
    });
    expect(sentUnder(call.idempotencyKey)).toEqual(['/v71/payments', '/v71/paymentMethods', '/v71/payments']);

    await expect(adapter.authorize(call)).rejects.toMatchObject({ code: 'idempotency_conflict' });
    expect(paymentsOf(call.paymentId)).toEqual([]);
  });

  it('a key that holds a payment is answered by the probe alone; the fence is never sent', async () => {
    const call = request('4242424242424242', { capture: false });
    const approved = await adapter.authorize(call);
    expect(await adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials })).toEqual({
      outcome: 'found',
      processorReference: (approved as { processorReference: string }).processorReference,
      status: 'authorized',
      amount: 1999,
    });
    expect(sentUnder(call.idempotencyKey)).toEqual(['/v71/payments', '/v71/payments']);
  });

  it('an outage answers 500 with Transient-Error: processor_unavailable, and the key stays unused', async () => {
    const call = request('4242424242424242');
    const outage = (enabled: boolean) =>
      fetch(`${checked.simulator.url}/simulator/outage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchantAccount: credentials.merchantAccount, enabled }),
      });
    await outage(true);
    await expect(adapter.authorize(call)).rejects.toMatchObject({ code: 'processor_unavailable' });
    await outage(false);
    expect(await adapter.authorize(call)).toMatchObject({ outcome: 'approved' });
    expect(paymentsOf(call.paymentId)).toHaveLength(1);
  });
});

describe('Adyen adapter: refused before sending', () => {
  it('3-D Secure 2 values without a dsTransID, and a capture or refund of no amount', async () => {
    const call = request('4242424242424242', {
      threeDs: {
        eci: '05',
        authenticationValue: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
        transStatus: 'Y',
        messageVersion: '2.2.0',
        type: 'customer',
      },
    });
    expect(await adapter.authorize(call)).toMatchObject({
      outcome: 'declined',
      code: 'invalid_authentication_data',
      category: 'hard_decline',
    });
    const followUp = { idempotencyKey: `${call.paymentId}:capture`, processorReference: 'ABCDEF0123456789' };
    expect(await adapter.capture({ ...followUp, amount: 0, currency: 'EUR', credentials })).toMatchObject({
      outcome: 'failed',
      code: 'invalid_amount',
    });
    expect(await adapter.refund({ ...followUp, amount: -5, currency: 'EUR', credentials })).toMatchObject({
      outcome: 'failed',
      code: 'invalid_amount',
    });
    expect(sentUnder(call.idempotencyKey)).toEqual([]);
    expect(sentUnder(followUp.idempotencyKey)).toEqual([]);
  });
});

describe("the simulator's holderName triggers (Adyen's test environment feature)", () => {
  it.each([
    ['DECLINED', 'do_not_honor', 'soft_decline'],
    ['NOT_ENOUGH_BALANCE', 'insufficient_funds', 'hard_decline'],
    ['ERROR', 'processing_error', 'technical'],
  ])('holderName %s on an approving card is refused: %s (%s)', async (holderName, code, category) => {
    const call = request('4242424242424242');
    const result = await adapter.authorize({ ...call, card: { ...call.card, holderName } });
    expect(result).toMatchObject({ outcome: 'declined', code, category });
    expect(paymentsOf(call.paymentId).map((p) => p.captured)).toEqual([0]);
  });
});
