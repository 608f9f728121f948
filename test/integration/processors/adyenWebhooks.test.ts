import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { adyenProcessor } from '../../../src/processors/adyen';
import type { ProcessorAdapter } from '../../../src/processors/types';
import { verifyNotification, type AdyenWebhookEvent } from '../../../src/processors/adyen/webhooks';
import type { AuthorizeRequest } from '../../../src/processors/types';
import { webhookErrors } from '../../helpers/adyenSchemas';
import { startCheckedSimulator, type CheckedSimulator } from '../../helpers/adyenSimulatorHarness';
import { until } from '../../helpers/until';

/**
 * The simulator's standard webhooks over real HTTP: every payload valid against Webhooks-v1.json
 * and signed so that the adapter's verifier accepts it with the merchant's HMAC key.
 */
const hmacKey = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
let checked: CheckedSimulator;
let adapter: ProcessorAdapter;
let receiver: http.Server;
let receiverUrl: string;
const payloads: unknown[] = [];
let failNext = 0;
let credentials: Record<string, string>;
let counter = 0;

beforeAll(async () => {
  checked = await startCheckedSimulator({ holdMs: 1_000, notificationDelayMs: 5 });
  adapter = adyenProcessor.createAdapter({ sandboxUrl: 'http://sandbox.invalid', timeoutMs: 2_000 });
  receiver = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += String(chunk)));
    req.on('end', () => {
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end();
        return;
      }
      payloads.push(JSON.parse(text));
      res.writeHead(202, { 'content-type': 'text/plain' }).end('[accepted]');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/adyen`;
});
afterAll(async () => {
  await checked?.simulator.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(async () => {
  credentials = { apiKey: 'AQE_key', merchantAccount: `AcmeHooks${++counter}`, endpoint: checked.simulator.url };
  const response = await fetch(`${checked.simulator.url}/simulator/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ merchantAccount: credentials.merchantAccount, url: receiverUrl, hmacKey }),
  });
  expect(response.status).toBe(204);
});
afterEach(() => {
  expect(checked.problems()).toEqual([]);
  expect(payloads.flatMap(webhookErrors)).toEqual([]);
});

/** The verified events received so far for this test's merchant account. */
function events(): AdyenWebhookEvent[] {
  return payloads.flatMap((payload) => {
    const verified = verifyNotification(payload, hmacKey, false);
    if (!verified.ok) throw new Error(`a notification failed verification: ${verified.message}`);
    return verified.events.filter((event) => event.merchantAccount === credentials.merchantAccount);
  });
}

const eventFor = (eventCode: string, pspReference: string) =>
  until(() => events().find((e) => e.eventCode === eventCode && e.pspReference === pspReference), 5_000);

function request(number: string, capture: boolean): AuthorizeRequest {
  const paymentId = `pay_hook${++counter}`;
  return {
    idempotencyKey: `${paymentId}:1`,
    paymentId,
    amount: 2500,
    currency: 'EUR',
    card: { number, expMonth: 12, expYear: 2099 },
    capture,
    initiatedBy: 'customer',
    credentials,
  };
}

async function authorised(number: string, capture: boolean): Promise<string> {
  const result = await adapter.authorize(request(number, capture));
  if (result.outcome !== 'approved') throw new Error(`expected an approval, got ${result.outcome}`);
  return result.processorReference;
}

const followUp = (processorReference: string, idempotencyKey: string, amount = 2500) => ({
  idempotencyKey,
  processorReference,
  amount,
  currency: 'EUR',
  credentials,
});

function pendingReference(result: { outcome: string; processorReference?: string }): string {
  expect(result.outcome).toBe('pending');
  return result.processorReference!;
}

describe('Adyen simulator webhooks', () => {
  it('confirms an authorisation, a capture, a refund and a cancel, each naming the engine’s operation', async () => {
    const psp = await authorised('4242424242424242', false);
    expect(await eventFor('AUTHORISATION', psp)).toMatchObject({ kind: 'authorisation', success: true });

    const capture = pendingReference(await adapter.capture(followUp(psp, `${psp}:capture`)));
    expect(await eventFor('CAPTURE', capture)).toMatchObject({
      kind: 'capture',
      success: true,
      paymentPspReference: psp,
      merchantReference: `${psp}:capture`,
      amount: { value: 2500, currency: 'EUR' },
    });
    const refund = pendingReference(await adapter.refund(followUp(psp, 're_hook1', 1000)));
    expect(await eventFor('REFUND', refund)).toMatchObject({
      kind: 'refund',
      success: true,
      merchantReference: 're_hook1',
    });

    const other = await authorised('4242424242424242', false);
    const cancel = pendingReference(await adapter.void(followUp(other, `${other}:void`)));
    expect(await eventFor('CANCELLATION', cancel)).toMatchObject({
      kind: 'void',
      success: true,
      paymentPspReference: other,
    });
  });

  it('tells a refused payment and a refused modification with success "false"', async () => {
    const refused = await adapter.authorize(request('4000000000009995', true));
    const psp = (refused as { processorReference: string }).processorReference;
    expect(await eventFor('AUTHORISATION', psp)).toMatchObject({ success: false, reason: 'Not enough balance' });

    const auth = await authorised('4242424242424242', false);
    const tooMuch = pendingReference(await adapter.capture(followUp(auth, `${auth}:capture`, 9999)));
    expect(await eventFor('CAPTURE', tooMuch)).toMatchObject({ kind: 'capture', success: false });
  });

  it('fails a capture on the capture-fails card: at once when manual, later (CAPTURE_FAILED) when automatic', async () => {
    const manual = await authorised('4000000000000341', false);
    const capture = pendingReference(await adapter.capture(followUp(manual, `${manual}:capture`)));
    expect(await eventFor('CAPTURE', capture)).toMatchObject({ success: false, reason: 'Capture failed' });

    const automatic = await authorised('4000000000000341', true);
    expect(await eventFor('CAPTURE_FAILED', automatic)).toMatchObject({
      kind: 'capture_failed',
      paymentPspReference: automatic,
    });
  });

  it('confirms, then fails, a refund on the refund-fails card', async () => {
    const psp = await authorised('4000000000005126', true);
    const refund = pendingReference(await adapter.refund(followUp(psp, 're_fails', 2500)));
    expect(await eventFor('REFUND', refund)).toMatchObject({ success: true });
    expect(await eventFor('REFUND_FAILED', refund)).toMatchObject({ kind: 'refund_failed', paymentPspReference: psp });
  });

  it('opens a dispute on the dispute card once it is captured', async () => {
    const psp = await authorised('4000000000000259', true);
    const dispute = await until(
      () => events().find((e) => e.kind === 'dispute_opened' && e.paymentPspReference === psp),
      5_000,
    );
    expect(dispute).toMatchObject({ eventCode: 'CHARGEBACK', amount: { value: 2500, currency: 'EUR' } });
  });

  it('confirms a reversal found by key with CANCEL_OR_REFUND', async () => {
    const call = request('4242424242424242', false);
    await adapter.authorize(call);
    const reversed = await adapter.reverseByIdempotencyKey({
      idempotencyKey: `${call.idempotencyKey}:reversal`,
      originalIdempotencyKey: call.idempotencyKey,
      amount: 2500,
      currency: 'EUR',
      credentials,
    });
    expect(reversed).toMatchObject({ outcome: 'reversed' });
    const psp = (reversed as { processorReference: string }).processorReference;
    const event = await until(
      () => events().find((e) => e.eventCode === 'CANCEL_OR_REFUND' && e.paymentPspReference === psp),
      5_000,
    );
    expect(event).toMatchObject({
      kind: 'reversal',
      success: true,
      merchantReference: `${call.idempotencyKey}:reversal`,
    });
  });

  it('sends a pushed notification and retries a delivery the receiver refused', async () => {
    await checked.simulator.sender.idle();
    failNext = 1;
    const push = await fetch(`${checked.simulator.url}/simulator/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        merchantAccount: credentials.merchantAccount,
        eventCode: 'CHARGEBACK',
        pspReference: 'DISPUTE000000001',
        originalReference: 'QFQTPCQ8HXSKGK82',
        merchantReference: 'pay_pushed',
        amount: { value: 700, currency: 'EUR' },
      }),
    });
    expect(push.status).toBe(202);
    expect(await eventFor('CHARGEBACK', 'DISPUTE000000001')).toMatchObject({
      kind: 'dispute_opened',
      paymentPspReference: 'QFQTPCQ8HXSKGK82',
    });
    expect(failNext).toBe(0);
    const deliveries = checked.simulator.sender.deliveries.filter((d) => d.pspReference === 'DISPUTE000000001');
    expect(deliveries).toEqual([expect.objectContaining({ status: 202, attempts: 2 })]);
  });
});
