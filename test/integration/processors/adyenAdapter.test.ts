import { closedPort } from '../../helpers/closedPort';
import { adyenProcessor } from '../../../src/processors/adyen';
import type { ProcessorAdapter } from '../../../src/processors/types';
import { isOutcomeUnknown } from '../../../src/processors/declineCodes';
import type { AuthorizeRequest, ThreeDsValues } from '../../../src/processors/types';
import { checkoutRequestErrors } from '../../helpers/adyenSchemas';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';
import { until } from '../../helpers/until';

/** The Adyen adapter against the Adyen simulator over real HTTP; every request checked against Adyen's document. */
// Generous for a loaded machine: every call but the held ones must answer within it.
const timeoutMs = 1_000;
const holdMs = timeoutMs * 2.5;
let checked: CheckedSimulator;
let adapter: ProcessorAdapter;
let credentials: Record<string, string>;
let counter = 0;

beforeAll(async () => {
  checked = await startCheckedSimulator({ holdMs, apiKeys: ['AQE_test_key'] });
  adapter = adyenProcessor.createAdapter({ sandboxUrl: 'http://sandbox.invalid', timeoutMs });
  // Warm up fetch and the server so the first test does not spend its budget on that.
  await fetch(`${checked.simulator.url}/simulator/deliveries`);
});
afterAll(async () => {
  await checked?.simulator.stop();
});
beforeEach(() => {
  credentials = { apiKey: 'AQE_test_key', merchantAccount: `AcmeECOM${++counter}`, endpoint: checked.simulator.url };
});
afterEach(() => {
  expect(checked.problems()).toEqual([]);
});

const threeDs: ThreeDsValues = {
  eci: '05',
  authenticationValue: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
  transStatus: 'Y',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  messageVersion: '2.2.0',
  type: 'customer',
};

function request(number: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  const paymentId = `pay_adyen${++counter}`;
  return {
    idempotencyKey: `${paymentId}:1`,
    paymentId,
    amount: 1999,
    currency: 'EUR',
    card: { number, expMonth: 12, expYear: 2099, holderName: 'Ada Lovelace' },
    capture: true,
    initiatedBy: 'customer',
    credentials,
    ...overrides,
  };
}

const simPayment = (psp: string) => checked.simulator.state.payments.get(psp)!;
const followUp = (processorReference: string, idempotencyKey: string, amount = 1999) => ({
  idempotencyKey,
  processorReference,
  amount,
  currency: 'EUR',
  credentials,
});

describe('Adyen adapter: authorisation', () => {
  it('a purchase is authorised with automatic capture', async () => {
    const result = await adapter.authorize(request('4242424242424242'));
    expect(result).toMatchObject({ outcome: 'approved', captured: true });
    const psp = (result as { processorReference: string }).processorReference;
    expect(simPayment(psp)).toMatchObject({ manualCapture: false, captured: 1999, shopperInteraction: 'Ecommerce' });
  });

  it('an authorization asks for manual capture; a merchant-initiated one is ContAuth', async () => {
    const result = await adapter.authorize(request('5555555555554444', { capture: false, initiatedBy: 'merchant' }));
    expect(result).toMatchObject({ outcome: 'approved', captured: false });
    const psp = (result as { processorReference: string }).processorReference;
    expect(simPayment(psp)).toMatchObject({
      manualCapture: true,
      captured: 0,
      shopperInteraction: 'ContAuth',
      recurringProcessingModel: 'UnscheduledCardOnFile',
    });
  });

  it('forwards external 3DS values byte for byte, and they satisfy the challenge card', async () => {
    const result = await adapter.authorize(request('4000000000003220', { threeDs }));
    expect(result).toMatchObject({ outcome: 'approved' });
    const psp = (result as { processorReference: string }).processorReference;
    expect(simPayment(psp).mpiData).toEqual({
      cavv: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
      eci: '05',
      dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
      threeDSVersion: '2.2.0',
      directoryResponse: 'Y',
      authenticationResponse: 'Y',
    });
  });

  it.each(['4000000000003220', '4000002760003184'])('%s without 3DS values asks for 3-D Secure', async (number) => {
    expect(await adapter.authorize(request(number))).toMatchObject({
      outcome: 'requires_3ds',
      code: 'authentication_required',
    });
  });

  it.each([
    ['4000000000000002', 'card_declined', 'hard_decline'],
    ['4000000000009995', 'insufficient_funds', 'hard_decline'],
    ['4000000000009987', 'pickup_card', 'hard_decline'],
    ['4000000000009979', 'fraudulent', 'hard_decline'],
    ['4000000000000127', 'incorrect_cvc', 'hard_decline'],
    ['4000000000000069', 'expired_card', 'hard_decline'],
    ['4000000000000101', 'do_not_honor', 'soft_decline'],
    ['4000000000000135', 'authentication_required', 'soft_decline'],
    ['4000000000000119', 'processing_error', 'technical'],
    ['4000000000000010', 'processing_error', 'technical'],
  ])('%s is refused as data: %s (%s)', async (number, code, category) => {
    const result = await adapter.authorize(request(number));
    expect(result).toMatchObject({ outcome: 'declined', code, category, processorReference: expect.any(String) });
  });

  it('refuses failed authentication values and a card number Adyen cannot parse', async () => {
    expect(
      await adapter.authorize(request('4242424242424242', { threeDs: { ...threeDs, transStatus: 'N' } })),
    ).toMatchObject({ outcome: 'declined', code: 'authentication_failed', category: 'hard_decline' });
    expect(await adapter.authorize(request('4242424242424241'))).toMatchObject({
      outcome: 'declined',
      code: 'incorrect_number',
    });
  });

  it('reaches the live path shape when the credentials carry a live prefix', async () => {
    const live = { ...credentials, liveUrlPrefix: '1797a841fbb37ca7-AcmeCom' };
    expect(await adapter.authorize(request('4242424242424242', { credentials: live }))).toMatchObject({
      outcome: 'approved',
    });
    expect(checked.requests.at(-1)!.path).toBe('/checkout/v71/payments');
  });
});

describe('Adyen adapter: idempotency and technical failures', () => {
  it('a retry under the same key gets the stored answer and charges once', async () => {
    const call = request('4242424242424242');
    const first = await adapter.authorize(call);
    expect(await adapter.authorize(call)).toEqual(first);
    const payments = [...checked.simulator.state.payments.values()].filter((p) => p.reference === call.paymentId);
    expect(payments).toHaveLength(1);
  });

  it('the same key for another payment is an idempotency conflict, not that payment’s approval', async () => {
    const call = request('4242424242424242');
    await adapter.authorize(call);
    await expect(adapter.authorize({ ...call, amount: 5 })).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it('a 5xx leaves the outcome unknown; the lookup finds nothing and there is nothing to reverse', async () => {
    const call = request('4000000000000200');
    const error = await adapter.authorize(call).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ProcessorTechnicalError', code: 'processor_error' });
    expect(isOutcomeUnknown((error as { code: string }).code)).toBe(true);
    expect(await adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials })).toEqual({
      outcome: 'not_found',
    });
    const reversal = { idempotencyKey: `${call.idempotencyKey}:reversal`, originalIdempotencyKey: call.idempotencyKey };
    expect(await adapter.reverseByIdempotencyKey({ ...reversal, amount: 1999, currency: 'EUR', credentials })).toEqual({
      outcome: 'nothing_to_reverse',
    });
  });

  it('an answer lost after Adyen charged: the lookup finds the payment and the reversal undoes it once', async () => {
    const call = request('4000000000000077');
    await expect(adapter.authorize(call)).rejects.toMatchObject({ code: 'timeout' });
    const found = await adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials });
    expect(found).toMatchObject({ outcome: 'found', status: 'authorized', amount: 1999 });
    const psp = (found as { processorReference: string }).processorReference;
    const reversal = {
      idempotencyKey: `${call.idempotencyKey}:reversal`,
      originalIdempotencyKey: call.idempotencyKey,
      amount: 1999,
      currency: 'EUR',
      credentials,
    };
    expect(await adapter.reverseByIdempotencyKey(reversal)).toEqual({
      outcome: 'reversed',
      processorReference: psp,
      amount: 1999,
    });
    expect(await adapter.reverseByIdempotencyKey(reversal)).toEqual({
      outcome: 'reversed',
      processorReference: psp,
      amount: 1999,
    });
    expect(simPayment(psp)).toMatchObject({ refunded: 1999, captured: 1999 });
    const reversalCalls = checked.requests.filter((r) => r.path === `/v71/payments/${psp}/reversals`);
    expect(reversalCalls).toHaveLength(2);
    expect(new Set(reversalCalls.map((r) => r.headers['idempotency-key']))).toEqual(new Set([reversal.idempotencyKey]));
  });

  it('while Adyen is still processing a key, the lookup does not guess; afterwards it finds the payment', async () => {
    const call = request('4000000000000085');
    await expect(adapter.authorize(call)).rejects.toMatchObject({ code: 'timeout' });
    await expect(adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials })).rejects.toMatchObject({
      code: 'idempotency_conflict',
    });
    const found = await until(
      () => adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials }).catch(() => undefined),
      holdMs * 5,
    );
    expect(found).toMatchObject({ outcome: 'found', status: 'authorized' });
  });

  it('a declined payment is found as declined and needs no reversal', async () => {
    const call = request('4000000000009995');
    const declined = await adapter.authorize(call);
    const found = await adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials });
    expect(found).toMatchObject({ outcome: 'found', status: 'declined' });
    expect(found).toMatchObject({
      processorReference: (declined as { processorReference: string }).processorReference,
    });
    const reversal = { idempotencyKey: `${call.idempotencyKey}:reversal`, originalIdempotencyKey: call.idempotencyKey };
    expect(await adapter.reverseByIdempotencyKey({ ...reversal, amount: 1999, currency: 'EUR', credentials })).toEqual({
      outcome: 'nothing_to_reverse',
    });
  });

  it('rejected credentials and an unreachable Adyen are technical failures that charged nothing', async () => {
    await expect(
      adapter.authorize(request('4242424242424242', { credentials: { ...credentials, apiKey: 'AQE_revoked' } })),
    ).rejects.toMatchObject({ code: 'invalid_credentials' });
    await expect(
      adapter.authorize(request('4242424242424242', { credentials: { apiKey: 'k' } })),
    ).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    await expect(
      adapter.authorize(request('4242424242424242', { credentials: { ...credentials, endpoint } })),
    ).rejects.toMatchObject({ code: 'processor_unreachable' });
  });
});

describe('Adyen adapter: modifications', () => {
  it('capture, refunds and cancel are received (pending) under their own references', async () => {
    const auth = await adapter.authorize(request('4242424242424242', { capture: false }));
    const psp = (auth as { processorReference: string }).processorReference;
    const capture = await adapter.capture(followUp(psp, `${psp}:capture`, 1500));
    expect(capture).toEqual({ outcome: 'pending', processorReference: expect.any(String) });
    expect((capture as { processorReference: string }).processorReference).not.toBe(psp);
    expect(await adapter.refund(followUp(psp, 're_1', 500))).toMatchObject({ outcome: 'pending' });
    expect(await adapter.refund(followUp(psp, 're_2', 1000))).toMatchObject({ outcome: 'pending' });
    expect(simPayment(psp)).toMatchObject({ captured: 1500, refunded: 1500 });

    const other = await adapter.authorize(request('4242424242424242', { capture: false }));
    const otherPsp = (other as { processorReference: string }).processorReference;
    expect(await adapter.void(followUp(otherPsp, `${otherPsp}:void`))).toMatchObject({ outcome: 'pending' });
    expect(simPayment(otherPsp).cancelled).toBe(true);
  });

  it('a retried capture under the same key is received once', async () => {
    const auth = await adapter.authorize(request('4242424242424242', { capture: false }));
    const psp = (auth as { processorReference: string }).processorReference;
    const first = await adapter.capture(followUp(psp, `${psp}:capture`, 700));
    expect(await adapter.capture(followUp(psp, `${psp}:capture`, 700))).toEqual(first);
    expect(simPayment(psp).captured).toBe(700);
  });

  it('a modification of a payment Adyen does not know fails as data', async () => {
    expect(await adapter.capture(followUp('UNKNOWN000000000', 'cap_unknown'))).toMatchObject({
      outcome: 'failed',
      code: 'transaction_not_found',
      category: 'hard_decline',
    });
  });
});

describe('the request check itself', () => {
  it('fails when a request carries what Adyen would reject', async () => {
    await adapter.authorize(request('4242424242424242', { threeDs }));
    const sent = checked.requests.at(-1)!.body as Record<string, any>;
    expect(checkoutRequestErrors('/v71/payments', sent)).toEqual([]);
    const { returnUrl: _dropped, ...withoutReturnUrl } = sent;
    for (const wrong of [
      { ...sent, capture: true },
      withoutReturnUrl,
      { ...sent, paymentMethod: { ...sent.paymentMethod, expiryMonth: 12 } },
      { ...sent, paymentMethod: { ...sent.paymentMethod, expMonth: '12' } },
      { ...sent, mpiData: { ...sent.mpiData, authenticationResponse: 'C' } },
      { ...sent, mpiData: { ...sent.mpiData, cavv: 'not base64!' } },
      { ...sent, amount: { value: '19.99', currency: 'EUR' } },
    ])
      expect(checkoutRequestErrors('/v71/payments', wrong)).not.toEqual([]);
  });
});
