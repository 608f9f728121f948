import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { processorDefinition } from '../../src/processors/registry';
import type { AuthorizeRequest } from '../../src/processors/types';

/**
 * Every processor's calls go through the shared executor (src/processors/httpExecutor.ts), the
 * Stripe SDK's too (its HTTP client is the executor): the same failure of the vendor's API is the
 * same engine code whichever type met it, and no credential secret reaches an error message.
 */
type Behaviour = { kind: 'status'; status: number } | { kind: 'hold' } | { kind: 'card_error' };

let behaviour: Behaviour = { kind: 'status', status: 500 };
let server: http.Server;
let base: string;
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    if (behaviour.kind === 'hold') {
      held.push(res);
      return;
    }
    if (behaviour.kind === 'card_error') {
      res.writeHead(402, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
          },
        }),
      );
      return;
    }
    res.writeHead(behaviour.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'api_error', message: 'boom' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const credentialsOf = (endpoint: string): Record<string, Record<string, string>> => ({
  sandbox: { merchantId: 'm_1', endpoint },
  stripe: { secretKey: 'sk_test_abcdefghijkl', endpoint },
  adyen: { apiKey: 'AQE_key', merchantAccount: 'AcmeECOM', endpoint },
});

function authorize(type: string, endpoint = base, timeoutMs = 2000) {
  const adapter = processorDefinition(type).createAdapter({ sandboxUrl: endpoint, timeoutMs });
  return adapter.authorize(authorizeRequest(credentialsOf(endpoint)[type]!));
}

describe('one executor for every processor', () => {
  it.each([
    [500, 'processor_error'],
    [502, 'processor_error'],
    [503, 'processor_unavailable'],
    [504, 'timeout'],
  ])('HTTP %d is %s for the sandbox and for Stripe (its SDK)', async (status, code) => {
    behaviour = { kind: 'status', status };
    for (const type of ['sandbox', 'stripe'])
      await expect(authorize(type)).rejects.toMatchObject({ name: 'ProcessorTechnicalError', code });
  });

  it('no answer within the timeout is `timeout` for every type', async () => {
    behaviour = { kind: 'hold' };
    for (const type of ['sandbox', 'stripe', 'adyen'])
      await expect(authorize(type, base, 200)).rejects.toMatchObject({
        name: 'ProcessorTechnicalError',
        code: 'timeout',
        message: expect.stringContaining('200 ms'),
      });
  });

  it('a connection that never opened is `processor_unreachable` (nothing sent) for every type', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    for (const type of ['sandbox', 'stripe', 'adyen'])
      await expect(authorize(type, endpoint)).rejects.toMatchObject({ code: 'processor_unreachable' });
  });

  it("a 4xx stays the vendor's answer: Stripe's card error is a decline, as data", async () => {
    behaviour = { kind: 'card_error' };
    await expect(authorize('stripe')).resolves.toMatchObject({
      outcome: 'declined',
      code: 'insufficient_funds',
    });
  });

  it('a secret in a header the runtime refuses is kept out of the message', async () => {
    const secret = 'sk_secret_with_a\nline_break';
    for (const [type, credentials] of [
      ['sandbox', { merchantId: 'm_1', apiKey: secret, endpoint: base }],
      ['adyen', { apiKey: secret, merchantAccount: 'AcmeECOM', endpoint: base }],
    ] as const) {
      const adapter = processorDefinition(type).createAdapter({ sandboxUrl: base, timeoutMs: 2000 });
      const error = (await adapter.authorize(authorizeRequest(credentials)).catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject({ name: 'ProcessorTechnicalError' });
      expect([type, error.message.includes('sk_secret_with_a')]).toEqual([type, false]);
      // The refusal itself reached the message (not some other failure), naming the header only.
      expect(error.message).toMatch(/invalid character in header content/i);
    }
  });
});

function authorizeRequest(credentials: Record<string, string>): AuthorizeRequest {
  return {
    idempotencyKey: 'pay_executor:1',
    paymentId: 'pay_executor',
    amount: 1999,
    currency: 'EUR',
    card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 1 },
    capture: true,
    initiatedBy: 'customer',
    credentials,
  };
}
