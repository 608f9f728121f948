import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getProcessorAdapter } from '../../../src/processors/registry';
import type { AuthorizeRequest, ProcessorAdapter } from '../../../src/processors/types';
import { startSandbox, type RunningSandbox } from '../../../simulators/server';

/**
 * The sandbox acquirer's own step-up (simulators/acquirer/authentication.ts) through the
 * `sandbox_hosted3ds` adapter: a 3DS card with a returnUrl waits at the acquirer's page, the first
 * submit settles it, the result is read back, and a reversal of the key cancels it.
 */
const challengeCard = '4000000000003220';
const returnUrl = 'https://engine.example/api/public/v1/payments/pay_x/authentication/return?attempt=1&token=t';
let sandbox: RunningSandbox;
let hosted: ProcessorAdapter;
let merchantId: string;
let credentials: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox(0);
  await fetch(`${sandbox.url}/health`);
  hosted = getProcessorAdapter('sandbox_hosted3ds', { sandboxUrl: sandbox.url, timeoutMs: 5000 });
});
afterAll(async () => {
  await sandbox?.stop();
});
beforeEach(() => {
  merchantId = `m_${randomUUID()}`;
  credentials = { merchantId, apiKey: 'sk_sandbox_ok' };
});

const request = (overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => {
  const paymentId = `pay_${randomUUID().replace(/-/g, '')}`;
  return {
    idempotencyKey: `${paymentId}:1`,
    paymentId,
    amount: 2500,
    currency: 'EUR',
    card: { number: challengeCard, expMonth: 12, expYear: 2099 },
    capture: true,
    initiatedBy: 'customer',
    returnUrl,
    credentials,
    ...overrides,
  };
};

/** The acquirer's ledger for this merchant; `outcome` is filtered here (the ledger query does not take it). */
async function ledger(query: Record<string, string>, at = sandbox.url) {
  const { outcome, ...filters } = query;
  const response = await fetch(`${at}/acquirer/ledger?${new URLSearchParams({ merchantId, ...filters }).toString()}`);
  const { entries } = (await response.json()) as { entries: any[] };
  return outcome === undefined ? entries : entries.filter((entry) => entry.outcome === outcome);
}

async function stepUp(call: AuthorizeRequest, adapter = hosted) {
  const result = await adapter.authorize(call);
  if (result.outcome !== 'requires_action') throw new Error(`expected requires_action, got ${JSON.stringify(result)}`);
  return result;
}

const submit = (url: string, outcome: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });

const resultOf = (processorReference: string, call: AuthorizeRequest, adapter = hosted) =>
  adapter.authenticationResult!({ processorReference, idempotencyKey: call.idempotencyKey, credentials });

it('keeps the authorization pending at its page; the first approve captures once, later submits only redirect', async () => {
  const call = request();
  const answer = await stepUp(call);
  expect(answer.action).toEqual({
    url: expect.stringContaining(`${sandbox.url}/acquirer/authenticate/`),
    method: 'GET',
  });
  expect(await hosted.authorize(call)).toEqual(answer);
  expect(await ledger({ reference: call.paymentId })).toEqual([
    expect.objectContaining({
      operation: 'authorize',
      outcome: 'requires_action',
      transactionId: answer.processorReference,
    }),
  ]);
  expect(await resultOf(answer.processorReference, call)).toEqual({ outcome: 'pending' });
  expect(await hosted.lookup({ idempotencyKey: call.idempotencyKey, credentials })).toMatchObject({
    outcome: 'found',
    status: 'pending',
    amount: 2500,
  });

  const page = await fetch(answer.action.url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Complete authentication');
  expect(html).toContain('Fail authentication');

  const approved = await submit(answer.action.url, 'approve');
  expect(approved.status).toBe(303);
  expect(approved.headers.get('location')).toBe(returnUrl);
  const again = await submit(answer.action.url, 'fail');
  expect(again.status).toBe(303);
  expect(await resultOf(answer.processorReference, call)).toEqual({
    outcome: 'approved',
    processorReference: answer.processorReference,
    captured: true,
  });
  const authorizations = await ledger({ reference: call.paymentId, operation: 'authorize' });
  expect(authorizations.map((entry) => entry.outcome)).toEqual(['requires_action', 'approved']);
  // The stored answer stays the answer of the key: a retried call never authorizes again.
  expect(await hosted.authorize(call)).toEqual(answer);
  expect(await ledger({ reference: call.paymentId, operation: 'authorize' })).toHaveLength(2);
});

it('fail declines authentication_failed: nothing charged, nothing to capture', async () => {
  const call = request();
  const answer = await stepUp(call);
  expect((await submit(answer.action.url, 'fail')).status).toBe(303);
  expect(await resultOf(answer.processorReference, call)).toMatchObject({
    outcome: 'declined',
    code: 'authentication_failed',
    category: 'hard_decline',
  });
  const capture = await hosted.capture({
    idempotencyKey: `${call.paymentId}:capture`,
    processorReference: answer.processorReference,
    amount: 2500,
    currency: 'EUR',
    credentials,
  });
  expect(capture).toMatchObject({ outcome: 'failed', code: 'transaction_not_found' });
  expect(await ledger({ reference: call.paymentId, operation: 'authorize', outcome: 'approved' })).toHaveLength(0);
});

it('an authorization-only step-up is approved uncaptured and can then be captured', async () => {
  const call = request({ capture: false });
  const answer = await stepUp(call);
  await submit(answer.action.url, 'approve');
  expect(await resultOf(answer.processorReference, call)).toMatchObject({ outcome: 'approved', captured: false });
  const capture = await hosted.capture({
    idempotencyKey: `${call.paymentId}:capture`,
    processorReference: answer.processorReference,
    amount: 2500,
    currency: 'EUR',
    credentials,
  });
  expect(capture).toMatchObject({ outcome: 'succeeded' });
});

it('a reversal of the key cancels the pending step-up: nothing to reverse, a later approve charges nothing', async () => {
  const call = request();
  const answer = await stepUp(call);
  const reversal = await hosted.reverseByIdempotencyKey({
    idempotencyKey: `${call.paymentId}:1:reversal`,
    originalIdempotencyKey: call.idempotencyKey,
    amount: 2500,
    currency: 'EUR',
    credentials,
  });
  expect(reversal).toEqual({ outcome: 'nothing_to_reverse' });
  expect((await submit(answer.action.url, 'approve')).status).toBe(303);
  expect(await ledger({ reference: call.paymentId, operation: 'authorize', outcome: 'approved' })).toHaveLength(0);
  expect(await resultOf(answer.processorReference, call)).toMatchObject({
    outcome: 'declined',
    code: 'authentication_timeout',
  });
});

it('a key reversed before the call arrives never steps up: declined authorization_reversed, no pending authorization', async () => {
  const call = request();
  await hosted.reverseByIdempotencyKey({
    idempotencyKey: `${call.paymentId}:1:reversal`,
    originalIdempotencyKey: call.idempotencyKey,
    amount: 2500,
    currency: 'EUR',
    credentials,
  });
  expect(await hosted.authorize(call)).toMatchObject({ outcome: 'declined', code: 'authorization_reversed' });
  expect(await ledger({ reference: call.paymentId, outcome: 'requires_action' })).toEqual([]);
});

it('ten concurrent submits settle once', async () => {
  const call = request();
  const answer = await stepUp(call);
  const submits = await Promise.all(
    Array.from({ length: 10 }, (_, i) => submit(answer.action.url, i % 2 === 0 ? 'approve' : 'fail')),
  );
  expect(submits.map((response) => response.status)).toEqual(Array(10).fill(303));
  const settled = (await ledger({ reference: call.paymentId, operation: 'authorize' })).filter(
    (entry) => entry.outcome !== 'requires_action',
  );
  expect(settled).toHaveLength(1);
});

it('refuses a wrong token (404) and an unknown outcome (400)', async () => {
  const answer = await stepUp(request());
  const forged = answer.action.url.replace(/\/[0-9a-f]{32}$/, `/${'0'.repeat(32)}`);
  expect(forged).not.toBe(answer.action.url);
  expect((await fetch(forged)).status).toBe(404);
  expect((await submit(forged, 'approve')).status).toBe(404);
  expect((await submit(answer.action.url, 'maybe')).status).toBe(400);
});

it('without a returnUrl, or through plain `sandbox`, the 3DS card still answers requires_3ds', async () => {
  const { returnUrl: _unused, ...withoutReturn } = request();
  expect(await hosted.authorize(withoutReturn)).toMatchObject({ outcome: 'requires_3ds' });
  const plain = getProcessorAdapter('sandbox', { sandboxUrl: sandbox.url, timeoutMs: 5000 });
  expect(plain.capabilities.stepUp).toBe(false);
  expect(plain.authenticationResult).toBeUndefined();
  expect(await plain.authorize(request())).toMatchObject({ outcome: 'requires_3ds' });
  expect(hosted.capabilities.stepUp).toBe(true);
});

it('a pending step-up survives a restart of the acquirer (journal) and is approved once after it', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acq-stepup-'));
  let first: RunningSandbox | undefined = await startSandbox(0, '127.0.0.1', { dataDir });
  try {
    const call = request();
    const answer = await stepUp(
      call,
      getProcessorAdapter('sandbox_hosted3ds', { sandboxUrl: first.url, timeoutMs: 5000 }),
    );
    await first.stop();
    first = undefined;
    const second = await startSandbox(0, '127.0.0.1', { dataDir });
    try {
      const adapter = getProcessorAdapter('sandbox_hosted3ds', { sandboxUrl: second.url, timeoutMs: 5000 });
      expect(await resultOf(answer.processorReference, call, adapter)).toEqual({ outcome: 'pending' });
      const page = new URL(answer.action.url);
      expect((await submit(`${second.url}${page.pathname}`, 'approve')).status).toBe(303);
      expect(await resultOf(answer.processorReference, call, adapter)).toMatchObject({ outcome: 'approved' });
      const approvals = await ledger(
        { reference: call.paymentId, operation: 'authorize', outcome: 'approved' },
        second.url,
      );
      expect(approvals).toHaveLength(1);
    } finally {
      await second.stop();
    }
  } finally {
    await first?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
