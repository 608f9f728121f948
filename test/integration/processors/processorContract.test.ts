import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { getProcessorAdapter, processorTypes } from '../../../src/processors/registry';
import {
  ProcessorTechnicalError,
  type AuthorizeRequest,
  type ProcessorAdapter,
  type ThreeDsValues,
} from '../../../src/processors/types';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server';

/** One suite, every registered adapter, over real HTTP against the sandbox acquirer. */
const engineTimeoutMs = 400;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox(0);
  // The first request pays for warming up fetch and the server; on a loaded machine that alone
  // can outlast the 400 ms the first contract test gives a processor call.
  await fetch(`${sandbox.url}/health`);
});
afterAll(async () => {
  await sandbox?.stop();
});

async function ledger(query: Record<string, string>) {
  const response = await fetch(`${sandbox.url}/acquirer/ledger?${new URLSearchParams(query)}`);
  return ((await response.json()) as { entries: any[] }).entries;
}

/** A port nothing listens on: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function setOutage(merchantId: string, enabled: boolean) {
  const response = await fetch(`${sandbox.url}/acquirer/outage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ merchantId, enabled }),
  });
  expect(response.status).toBe(200);
}

const threeDs: ThreeDsValues = {
  eci: '05',
  authenticationValue: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
  transStatus: 'Y',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  acsTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e',
  threeDSServerTransID: 'e4a2c7b6-9c1d-4b2a-8f3e-1a2b3c4d5e6f',
  messageVersion: '2.2.0',
  type: 'customer',
};

describe.each(processorTypes.map((type) => [type]))('processor adapter contract: %s', (type) => {
  let adapter: ProcessorAdapter;
  let merchantId: string;
  let credentials: Record<string, string>;
  let counter = 0;
  beforeAll(() => {
    adapter = getProcessorAdapter(type, { sandboxUrl: sandbox.url, timeoutMs: engineTimeoutMs });
  });
  beforeEach(() => {
    merchantId = `m_${randomUUID()}`;
    credentials = { merchantId, apiKey: 'sk_sandbox_ok', timeoutDelayMs: String(engineTimeoutMs * 2) };
  });

  const request = (number: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => {
    const paymentId = `pay_${type}${++counter}`;
    return {
      idempotencyKey: `${paymentId}:1`,
      paymentId,
      amount: 1999,
      currency: 'EUR',
      card: { number, expMonth: 12, expYear: 2099 },
      capture: true,
      initiatedBy: 'customer',
      credentials,
      ...overrides,
    };
  };

  it('declares its type and capabilities as data', () => {
    expect(adapter.type).toBe(type);
    expect(adapter.capabilities.captureModes.length).toBeGreaterThan(0);
    expect(adapter.capabilities.externalThreeDs && adapter.capabilities.hostedThreeDs).toBe(false);
  });

  it.each(['4242424242424242', '5555555555554444'])('approves %s with one ledger entry', async (number) => {
    const call = request(number);
    const result = await adapter.authorize(call);
    expect(result).toMatchObject({ outcome: 'approved', captured: true });
    const entries = await ledger({ merchantId, reference: call.paymentId });
    expect(entries).toEqual([
      expect.objectContaining({
        operation: 'authorize',
        outcome: 'approved',
        amount: 1999,
        currency: 'EUR',
        idempotencyKey: call.idempotencyKey,
        cardLast4: number.slice(-4),
      }),
    ]);
  });

  it.each([
    ['4000000000000002', 'card_declined', 'hard_decline'],
    ['4000000000009995', 'insufficient_funds', 'hard_decline'],
    ['4000000000009987', 'lost_card', 'hard_decline'],
    ['4000000000000101', 'do_not_honor', 'soft_decline'],
    ['4000000000000119', 'processing_error', 'technical'],
    ['4242424242424241', 'incorrect_number', 'hard_decline'],
  ])('answers %s with a decline as data: %s (%s)', async (number, code, category) => {
    const result = await adapter.authorize(request(number));
    expect(result).toMatchObject({ outcome: 'declined', code, category });
  });

  it('declines an expired card', async () => {
    expect(
      await adapter.authorize(
        request('4242424242424242', { card: { number: '4242424242424242', expMonth: 1, expYear: 2020 } }),
      ),
    ).toMatchObject({ outcome: 'declined', code: 'expired_card', category: 'hard_decline' });
  });

  it('makes a retry that arrives while the first call is held wait for that same answer', async () => {
    const call = request('4000000000000077');
    const slowAdapter = getProcessorAdapter(type, { sandboxUrl: sandbox.url, timeoutMs: engineTimeoutMs * 4 });
    const [first, second] = await Promise.all([slowAdapter.authorize(call), slowAdapter.authorize(call)]);
    expect(second).toEqual(first);
    expect(await ledger({ merchantId, operation: 'authorize' })).toHaveLength(1);
  });

  it('replays the same idempotency key with the same answer and no second ledger entry', async () => {
    const call = request('4242424242424242');
    const first = await adapter.authorize(call);
    const again = await adapter.authorize(call);
    expect(again).toEqual(first);
    expect(await ledger({ merchantId, idempotencyKey: call.idempotencyKey })).toHaveLength(1);
  });

  it('throws a technical error when the same key comes with another request', async () => {
    const call = request('4242424242424242');
    await adapter.authorize(call);
    await expect(adapter.authorize({ ...call, amount: 5 })).rejects.toMatchObject({
      name: 'ProcessorTechnicalError',
      code: 'idempotency_conflict',
    });
  });

  it('throws ProcessorTechnicalError during an outage and works again after it', async () => {
    await setOutage(merchantId, true);
    const call = request('4242424242424242');
    await expect(adapter.authorize(call)).rejects.toBeInstanceOf(ProcessorTechnicalError);
    await expect(adapter.authorize(call)).rejects.toMatchObject({ code: 'processor_unavailable' });
    expect(await ledger({ merchantId })).toHaveLength(0);
    await setOutage(merchantId, false);
    expect(await adapter.authorize(call)).toMatchObject({ outcome: 'approved' });
  });

  it('throws on bad credentials and on an unreachable acquirer', async () => {
    await expect(adapter.authorize(request('4242424242424242', { credentials: {} }))).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    await expect(
      adapter.authorize(request('4242424242424242', { credentials: { merchantId, apiKey: 'invalid_key' } })),
    ).rejects.toMatchObject({ code: 'invalid_credentials' });
    // Port 1 is refused by fetch itself without a connection code: treated as "may have been sent".
    const blocked = getProcessorAdapter(type, { sandboxUrl: 'http://127.0.0.1:1', timeoutMs: engineTimeoutMs });
    await expect(blocked.authorize(request('4242424242424242'))).rejects.toMatchObject({
      name: 'ProcessorTechnicalError',
      code: 'network_error',
    });
    const refused = getProcessorAdapter(type, {
      sandboxUrl: `http://127.0.0.1:${await closedPort()}`,
      timeoutMs: engineTimeoutMs,
    });
    await expect(refused.authorize(request('4242424242424242'))).rejects.toMatchObject({
      name: 'ProcessorTechnicalError',
      code: 'processor_unreachable',
    });
  });

  const reversal = (call: AuthorizeRequest, key = `${call.idempotencyKey}:reversal`) => ({
    idempotencyKey: key,
    originalIdempotencyKey: call.idempotencyKey,
    amount: call.amount,
    currency: call.currency,
    credentials,
  });
  const netCharged = (entries: any[]) =>
    entries
      .filter((e) => e.operation === 'authorize' && e.outcome === 'approved')
      .reduce((sum, e) => sum + e.amount, 0) -
    entries
      .filter((e) => e.operation === 'reversal' && e.outcome === 'succeeded')
      .reduce((sum, e) => sum + e.amount, 0);

  it('reverses an approved purchase by its idempotency key; a replayed reversal applies once', async () => {
    const call = request('4242424242424242');
    const approved = await adapter.authorize(call);
    if (approved.outcome !== 'approved') throw new Error('expected approval');
    const reversed = await adapter.reverseByIdempotencyKey(reversal(call));
    expect(reversed).toEqual({ outcome: 'reversed', processorReference: approved.processorReference, amount: 1999 });
    expect(await adapter.reverseByIdempotencyKey(reversal(call))).toEqual(reversed);
    const entries = await ledger({ merchantId });
    expect(entries.map((e) => [e.operation, e.outcome, e.amount])).toEqual([
      ['authorize', 'approved', 1999],
      ['reversal', 'succeeded', 1999],
    ]);
    expect(netCharged(entries)).toBe(0);
    // Reversing again under a new key finds nothing left to undo; a refund is refused.
    expect(await adapter.reverseByIdempotencyKey(reversal(call, 'again'))).toMatchObject({
      outcome: 'reversed',
      amount: 0,
    });
    const follow = {
      idempotencyKey: 'r1',
      processorReference: approved.processorReference,
      amount: 1,
      currency: 'EUR',
      credentials,
    };
    expect(await adapter.refund(follow)).toMatchObject({
      outcome: 'failed',
      code: 'already_reversed',
      category: 'hard_decline',
    });
  });

  it('voids an uncaptured authorization when reversing it', async () => {
    const call = request('5555555555554444', { capture: false, amount: 700 });
    await adapter.authorize(call);
    expect(await adapter.reverseByIdempotencyKey(reversal(call))).toMatchObject({ outcome: 'reversed', amount: 700 });
    expect(netCharged(await ledger({ merchantId }))).toBe(0);
  });

  it('a reversal for a key the processor never saw stands: the authorization arriving later never charges', async () => {
    const call = request('4242424242424242');
    expect(await adapter.reverseByIdempotencyKey(reversal(call))).toEqual({ outcome: 'nothing_to_reverse' });
    expect(await adapter.authorize(call)).toMatchObject({
      outcome: 'declined',
      code: 'authorization_reversed',
      category: 'technical',
    });
    expect(netCharged(await ledger({ merchantId }))).toBe(0);
  });

  it('a reversal while the timeout card is held answers at once, and the held authorization never charges', async () => {
    const call = request('4000000000000077');
    await expect(adapter.authorize(call)).rejects.toMatchObject({ code: 'timeout' });
    expect(await adapter.reverseByIdempotencyKey(reversal(call))).toEqual({ outcome: 'nothing_to_reverse' });
    await new Promise((resolve) => setTimeout(resolve, engineTimeoutMs * 1.5));
    const entries = await ledger({ merchantId });
    expect(entries.map((e) => [e.operation, e.outcome, e.code])).toEqual([
      ['reversal', 'succeeded', 'nothing_to_reverse'],
      ['authorize', 'declined', 'authorization_reversed'],
    ]);
    expect(netCharged(entries)).toBe(0);
  });

  it('a reversal during an outage throws technically (the engine cannot count it as done)', async () => {
    const call = request('4242424242424242');
    await adapter.authorize(call);
    await setOutage(merchantId, true);
    await expect(adapter.reverseByIdempotencyKey(reversal(call))).rejects.toMatchObject({
      name: 'ProcessorTechnicalError',
      code: 'processor_unavailable',
    });
    await setOutage(merchantId, false);
    expect(netCharged(await ledger({ merchantId }))).toBe(1999);
  });

  it('times out on the timeout card, then the retry with the same key gets the one approval', async () => {
    const call = request('4000000000000077');
    await expect(adapter.authorize(call)).rejects.toMatchObject({ name: 'ProcessorTechnicalError', code: 'timeout' });
    expect(await ledger({ merchantId })).toHaveLength(0);
    // The acquirer holds the answer for 2 × the engine's timeout, then really approves.
    await new Promise((resolve) => setTimeout(resolve, engineTimeoutMs * 1.5));
    expect(await ledger({ merchantId })).toEqual([expect.objectContaining({ outcome: 'approved' })]);
    const retried = await adapter.authorize(call);
    expect(retried).toMatchObject({ outcome: 'approved', captured: true });
    const entries = await ledger({ merchantId, reference: call.paymentId });
    expect(entries).toEqual([
      expect.objectContaining({ operation: 'authorize', outcome: 'approved', idempotencyKey: call.idempotencyKey }),
    ]);
  });

  it('authorizes, captures partially, refunds in parts and never above the capture', async () => {
    const auth = await adapter.authorize(request('4242424242424242', { capture: false, amount: 5000 }));
    if (auth.outcome !== 'approved') throw new Error(`expected approval, got ${auth.outcome}`);
    expect(auth.captured).toBe(false);
    const ref = auth.processorReference;
    const follow = (key: string, amount: number) => ({
      idempotencyKey: key,
      processorReference: ref,
      amount,
      currency: 'EUR',
      credentials,
    });
    expect(await adapter.capture(follow(`${ref}:cap`, 4000))).toMatchObject({ outcome: 'succeeded' });
    expect(await adapter.capture(follow(`${ref}:cap2`, 4000))).toMatchObject({
      outcome: 'failed',
      code: 'already_captured',
      category: 'hard_decline',
    });
    expect(await adapter.void(follow(`${ref}:void`, 0))).toMatchObject({ outcome: 'failed', code: 'already_captured' });
    expect(await adapter.refund(follow(`${ref}:r1`, 2500))).toMatchObject({ outcome: 'succeeded' });
    expect(await adapter.refund(follow(`${ref}:r1`, 2500))).toMatchObject({ outcome: 'succeeded' });
    expect(await adapter.refund(follow(`${ref}:r2`, 1501))).toMatchObject({
      outcome: 'failed',
      code: 'refund_exceeds_capture',
      category: 'hard_decline',
    });
    expect(await adapter.refund(follow(`${ref}:r3`, 1500))).toMatchObject({ outcome: 'succeeded' });
    expect(await adapter.refund(follow(`${ref}:r4`, 0))).toMatchObject({ outcome: 'failed', code: 'invalid_amount' });
    expect(await adapter.refund({ ...follow(`${ref}:r5`, 1), currency: 'USD' })).toMatchObject({
      outcome: 'failed',
      code: 'currency_mismatch',
      category: 'hard_decline',
    });
    const refunds = (await ledger({ merchantId, operation: 'refund' })).filter((e) => e.outcome === 'succeeded');
    expect(refunds.map((e) => e.amount)).toEqual([2500, 1500]);
  });

  it('voids an uncaptured authorization once', async () => {
    const auth = await adapter.authorize(request('5555555555554444', { capture: false }));
    if (auth.outcome !== 'approved') throw new Error('expected approval');
    const follow = (key: string) => ({
      idempotencyKey: key,
      processorReference: auth.processorReference,
      amount: 1999,
      currency: 'EUR',
      credentials,
    });
    expect(await adapter.void(follow('v1'))).toMatchObject({
      outcome: 'succeeded',
      processorReference: auth.processorReference,
    });
    expect(await adapter.capture(follow('c1'))).toMatchObject({ outcome: 'failed', code: 'already_voided' });
    expect(await adapter.refund(follow('r1'))).toMatchObject({ outcome: 'failed', code: 'not_captured' });
  });

  it('answers a follow-up on an unknown or foreign authorization as a failure', async () => {
    const result = await adapter.capture({
      idempotencyKey: 'x',
      processorReference: 'acq_nope',
      amount: 1,
      currency: 'EUR',
      credentials,
    });
    expect(result).toMatchObject({ outcome: 'failed', code: 'transaction_not_found' });
  });

  it('opens a dispute on capture of the dispute card (purchase and separate capture)', async () => {
    expect(await adapter.authorize(request('4000000000000259'))).toMatchObject({
      outcome: 'approved',
      disputeOpened: { reason: 'fraudulent', amount: 1999 },
    });
    const auth = await adapter.authorize(request('4000000000000259', { capture: false }));
    if (auth.outcome !== 'approved') throw new Error('expected approval');
    expect(auth.disputeOpened).toBeUndefined();
    const capture = await adapter.capture({
      idempotencyKey: 'cap',
      processorReference: auth.processorReference,
      amount: 1000,
      currency: 'EUR',
      credentials,
    });
    expect(capture).toMatchObject({ outcome: 'succeeded', disputeOpened: { reason: 'fraudulent', amount: 1000 } });
  });

  it('asks for 3DS on the 3DS card without values', async () => {
    expect(await adapter.authorize(request('4000000000003220'))).toMatchObject({
      outcome: 'requires_3ds',
      code: 'authentication_required',
    });
  });

  it('handles external 3DS values according to its capabilities', async () => {
    const call = request('4000000000003220', { threeDs });
    const result = await adapter.authorize(call);
    const [entry] = await ledger({ merchantId, reference: call.paymentId });
    if (adapter.capabilities.externalThreeDs) {
      expect(result).toMatchObject({ outcome: 'approved' });
      expect(entry.threeDs).toBe(JSON.stringify(threeDs));
      const missingDs = await adapter.authorize(
        request('4242424242424242', { threeDs: { ...threeDs, dsTransID: undefined } }),
      );
      expect(missingDs).toMatchObject({
        outcome: 'declined',
        code: 'invalid_authentication_data',
        category: 'hard_decline',
      });
      const failed = await adapter.authorize(
        request('4242424242424242', { threeDs: { ...threeDs, transStatus: 'N' } }),
      );
      expect(failed).toMatchObject({ outcome: 'declined', code: 'authentication_failed' });
    } else {
      // Hosted 3DS: external values are never forwarded, so the acquirer still asks for 3DS.
      expect(result).toMatchObject({ outcome: 'requires_3ds' });
      expect(entry.threeDs).toBeNull();
    }
  });
});

it('rejects an unknown processor type', () => {
  expect(() => getProcessorAdapter('acme', { sandboxUrl: 'http://x', timeoutMs: 1 })).toThrow(
    /Unknown processor type "acme"/,
  );
});
