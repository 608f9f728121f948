import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { getProcessorAdapter } from '../../../src/processors/registry';
import type { AuthorizeRequest, ProcessorAdapter, ThreeDsValues } from '../../../src/processors/types';
import { armHold } from '../../helpers/acquirerHolds';
import { startSandbox, type RunningSandbox } from '../../../simulators/server';

/**
 * What the sandbox acquirer does beyond the processor contract (processorContract*.test.ts):
 * its ledger, held retries, its dispute card and the exact 3DS values it received.
 */
const engineTimeoutMs = 400;
let sandbox: RunningSandbox;
let adapter: ProcessorAdapter;
let merchantId: string;
let credentials: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox(0);
  await fetch(`${sandbox.url}/health`);
  adapter = getProcessorAdapter('sandbox', { sandboxUrl: sandbox.url, timeoutMs: engineTimeoutMs });
});
afterAll(async () => {
  await sandbox?.stop();
});
beforeEach(() => {
  merchantId = `m_${randomUUID()}`;
  credentials = { merchantId, apiKey: 'sk_sandbox_ok', timeoutDelayMs: String(engineTimeoutMs * 2) };
});

async function ledger(query: Record<string, string>) {
  const response = await fetch(`${sandbox.url}/acquirer/ledger?${new URLSearchParams(query).toString()}`);
  return ((await response.json()) as { entries: any[] }).entries;
}

const request = (number: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => {
  const paymentId = `pay_${randomUUID().replace(/-/g, '')}`;
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

it('writes one ledger entry per processed call, none for a replay or during an outage', async () => {
  const call = request('4242424242424242');
  await adapter.authorize(call);
  await adapter.authorize(call);
  expect(await ledger({ merchantId })).toEqual([
    expect.objectContaining({
      operation: 'authorize',
      outcome: 'approved',
      amount: 1999,
      currency: 'EUR',
      idempotencyKey: call.idempotencyKey,
      reference: call.paymentId,
      cardLast4: '4242',
    }),
  ]);
  await fetch(`${sandbox.url}/acquirer/outage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ merchantId, enabled: true }),
  });
  await expect(adapter.authorize(request('4242424242424242'))).rejects.toMatchObject({ code: 'processor_unavailable' });
  expect(await ledger({ merchantId })).toHaveLength(1);
});

it('declines an expired card', async () => {
  const expired = request('4242424242424242', { card: { number: '4242424242424242', expMonth: 1, expYear: 2020 } });
  expect(await adapter.authorize(expired)).toMatchObject({ outcome: 'declined', code: 'expired_card' });
});

it('makes a retry that arrives while the first call is held wait for that same answer', async () => {
  const call = request('4000000000000077');
  const slow = getProcessorAdapter('sandbox', { sandboxUrl: sandbox.url, timeoutMs: engineTimeoutMs * 4 });
  const [first, second] = await Promise.all([slow.authorize(call), slow.authorize(call)]);
  expect(second).toEqual(first);
  expect(await ledger({ merchantId, operation: 'authorize' })).toHaveLength(1);
});

it('times out on a held call, then the retry with the same key gets the one approval once it is released', async () => {
  const call = request('4242424242424242');
  const hold = await armHold(sandbox.url, { merchantId, idempotencyKey: call.idempotencyKey });
  await expect(adapter.authorize(call)).rejects.toMatchObject({ code: 'timeout' });
  expect(await hold.holding()).toBe(call.idempotencyKey);
  expect(await ledger({ merchantId })).toHaveLength(0);
  await hold.release();
  expect(await adapter.authorize(call)).toMatchObject({ outcome: 'approved', captured: true });
  expect(await ledger({ merchantId, reference: call.paymentId })).toEqual([
    expect.objectContaining({ operation: 'authorize', outcome: 'approved', idempotencyKey: call.idempotencyKey }),
  ]);
});

it('holds only the call a hold matches (merchant, key, card), one call per hold; a hold released unused catches nothing', async () => {
  const controls = `${sandbox.url}/acquirer/_simulator/holds`;
  const post = (url: string, body?: unknown) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  expect((await post(controls, { idempotencyKey: 'k' })).status).toBe(400);
  expect((await post(controls, { merchantId, cardLast4: '42' })).status).toBe(400);
  expect((await fetch(`${controls}/hold_unknown`)).status).toBe(404);
  expect((await post(`${controls}/hold_unknown/release`)).status).toBe(404);

  const unused = await armHold(sandbox.url, { merchantId, cardLast4: '0002' });
  await unused.release();
  const byCard = await armHold(sandbox.url, { merchantId, cardLast4: '4444' });
  // Other cards and other merchants pass a hold by; the disarmed one holds nothing.
  expect(await adapter.authorize(request('4000000000000002'))).toMatchObject({ outcome: 'declined' });
  const otherMerchant = { ...credentials, merchantId: `m_${randomUUID()}` };
  expect(await adapter.authorize(request('5555555555554444', { credentials: otherMerchant }))).toMatchObject({
    outcome: 'approved',
  });
  const slow = getProcessorAdapter('sandbox', { sandboxUrl: sandbox.url, timeoutMs: 30_000 });
  const held = slow.authorize(request('5555555555554444'));
  await byCard.holding();
  // The hold caught one call: the next one on that card goes straight through.
  expect(await adapter.authorize(request('5555555555554444'))).toMatchObject({ outcome: 'approved' });
  expect(await ledger({ merchantId, operation: 'authorize' })).toHaveLength(2);
  await byCard.release();
  expect(await held).toMatchObject({ outcome: 'approved' });
  expect(await (await fetch(`${controls}/${byCard.holdId}`)).json()).toMatchObject({ status: 'released' });
});

it('a refused connection (port 1) sent nothing; a connection dropped after the request may have been received', async () => {
  const refused = getProcessorAdapter('sandbox', { sandboxUrl: 'http://127.0.0.1:1', timeoutMs: engineTimeoutMs });
  await expect(refused.authorize(request('4242424242424242'))).rejects.toMatchObject({
    code: 'processor_unreachable',
  });
  const dropping = net.createServer((socket) => socket.once('data', () => socket.destroy()));
  await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    const dropped = getProcessorAdapter('sandbox', { sandboxUrl: url, timeoutMs: engineTimeoutMs });
    await expect(dropped.authorize(request('4242424242424242'))).rejects.toMatchObject({ code: 'network_error' });
  } finally {
    await new Promise((resolve) => dropping.close(resolve));
  }
});

it('records reversals in the ledger; a refund of a reversed charge is refused', async () => {
  const call = request('4242424242424242');
  const approved = await adapter.authorize(call);
  if (approved.outcome !== 'approved') throw new Error('expected approval');
  const reversal = {
    idempotencyKey: `${call.idempotencyKey}:reversal`,
    originalIdempotencyKey: call.idempotencyKey,
    amount: 1999,
    currency: 'EUR',
    credentials,
  };
  await adapter.reverseByIdempotencyKey(reversal);
  await adapter.reverseByIdempotencyKey(reversal);
  expect((await ledger({ merchantId })).map((e) => [e.operation, e.outcome, e.amount])).toEqual([
    ['authorize', 'approved', 1999],
    ['reversal', 'succeeded', 1999],
  ]);
  const refund = { idempotencyKey: 'r1', processorReference: approved.processorReference, amount: 1, currency: 'EUR' };
  expect(await adapter.refund({ ...refund, credentials })).toMatchObject({
    outcome: 'failed',
    code: 'already_reversed',
    category: 'hard_decline',
  });
});

it('a lookup that finds nothing closes the key: no ledger entry, and the authorization later declines', async () => {
  const call = request('4242424242424242');
  expect(await adapter.lookup({ idempotencyKey: call.idempotencyKey, credentials })).toEqual({ outcome: 'not_found' });
  expect(await ledger({ merchantId })).toEqual([]);
  expect(await adapter.authorize(call)).toMatchObject({ outcome: 'declined', code: 'authorization_reversed' });
});

it('refuses a follow-up in another currency than the authorization', async () => {
  const auth = await adapter.authorize(request('4242424242424242'));
  if (auth.outcome !== 'approved') throw new Error('expected approval');
  const refund = { idempotencyKey: 'r', processorReference: auth.processorReference, amount: 1, currency: 'USD' };
  expect(await adapter.refund({ ...refund, credentials })).toMatchObject({
    outcome: 'failed',
    code: 'currency_mismatch',
    category: 'hard_decline',
  });
});

it('opens a dispute on capture of the dispute card (purchase and separate capture)', async () => {
  expect(await adapter.authorize(request('4000000000000259'))).toMatchObject({
    outcome: 'approved',
    disputeOpened: { reason: 'fraudulent', amount: 1999 },
  });
  const auth = await adapter.authorize(request('4000000000000259', { capture: false }));
  if (auth.outcome !== 'approved') throw new Error('expected approval');
  expect(auth.disputeOpened).toBeUndefined();
  const capture = { idempotencyKey: 'cap', processorReference: auth.processorReference, amount: 1000, currency: 'EUR' };
  expect(await adapter.capture({ ...capture, credentials })).toMatchObject({
    outcome: 'succeeded',
    disputeOpened: { reason: 'fraudulent', amount: 1000 },
  });
});

const threeDs: ThreeDsValues = {
  eci: '05',
  authenticationValue: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
  transStatus: 'Y',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  messageVersion: '2.2.0',
  type: 'customer',
};

it.each([
  ['sandbox', JSON.stringify(threeDs)],
  ['sandbox_hosted3ds', null],
])('%s receives external 3DS values byte for byte, or never', async (type, received) => {
  const call = request('4000000000003220', { threeDs });
  await getProcessorAdapter(type, { sandboxUrl: sandbox.url, timeoutMs: engineTimeoutMs }).authorize(call);
  const [entry] = await ledger({ merchantId, reference: call.paymentId });
  expect(entry.threeDs).toBe(received);
});

it('rejects an unknown processor type', () => {
  expect(() => getProcessorAdapter('acme', { sandboxUrl: 'http://x', timeoutMs: 1 })).toThrow(
    /Unknown processor type "acme"/,
  );
});
