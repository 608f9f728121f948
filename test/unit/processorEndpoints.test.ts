import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/config';
import { accessOf } from '../../src/payments/processorAccess';
import { sealProcessorCredentials } from '../../src/processors/credentials';
import { isEndpointAllowed, parseEndpointAllow } from '../../src/processors/endpoint';
import { postJson } from '../../src/processors/httpExecutor';
import { processorDefinition } from '../../src/processors/registry';
import type { AuthorizeRequest } from '../../src/processors/types';

/**
 * Where a processor's `endpoint` may point (PROCESSOR_ENDPOINT_ALLOW) and that a processor's
 * redirect is never followed: the card data in the request must not be carried to another host.
 */
describe('processor endpoints: the allow list', () => {
  it('matches host and, when given, port; an entry without a port allows every port', () => {
    const allow = parseEndpointAllow('staging.example.com:8443, 10.0.0.7, [fe80::1]:80');
    expect(isEndpointAllowed('https://staging.example.com:8443', allow)).toBe(true);
    expect(isEndpointAllowed('https://STAGING.example.com:8443', allow)).toBe(true);
    expect(isEndpointAllowed('https://staging.example.com', allow)).toBe(false);
    expect(isEndpointAllowed('http://10.0.0.7:1', allow)).toBe(true);
    expect(isEndpointAllowed('http://[fe80::1]', allow)).toBe(true);
    expect(isEndpointAllowed('http://127.0.0.1:4010', allow)).toBe(false);
  });

  it('defaults to loopback, and a malformed entry stops the start naming the variable', () => {
    const allow = parseEndpointAllow(parseConfig({}).PROCESSOR_ENDPOINT_ALLOW);
    for (const endpoint of ['http://127.0.0.1:4010', 'http://localhost:1', 'http://[::1]:4010'])
      expect(isEndpointAllowed(endpoint, allow)).toBe(true);
    for (const endpoint of ['http://127.0.0.2', 'https://api.stripe.com', 'http://169.254.169.254'])
      expect(isEndpointAllowed(endpoint, allow)).toBe(false);
    expect(() => parseConfig({ PROCESSOR_ENDPOINT_ALLOW: 'http://host/path' })).toThrow(/PROCESSOR_ENDPOINT_ALLOW/);
  });

  it('refuses every call of a stored processor whose endpoint is no longer allowed, sending nothing', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'endpoint-allow-'));
    try {
      const config = parseConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: 'ab'.repeat(32) });
      const row = (endpoint: string) => ({
        id: 'proc_x',
        type: 'sandbox',
        enable3DS: false,
        encryptedCredentials: sealProcessorCredentials({ merchantId: 'm', endpoint }, 'proc_x', config),
      });
      const refused = accessOf({ config, sandboxUrl: 'http://127.0.0.1:9' }, row('http://10.0.0.7:4010'));
      await expect(refused.adapter.authorize(authorizeRequest(refused.credentials))).rejects.toMatchObject({
        name: 'ProcessorTechnicalError',
        code: 'invalid_credentials',
        message: expect.stringContaining('PROCESSOR_ENDPOINT_ALLOW'),
      });
      // An allowed host is called (nothing listens on port 9: a network failure, not a refusal).
      const allowed = accessOf({ config, sandboxUrl: 'http://127.0.0.1:9' }, row('http://127.0.0.1:9'));
      const failure = (await allowed.adapter
        .authorize(authorizeRequest(allowed.credentials))
        .catch((error: unknown) => error)) as { code?: string };
      expect(['processor_unreachable', 'network_error']).toContain(failure.code);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('processor endpoints: redirects are never followed', () => {
  let server: http.Server;
  let base: string;
  /** Requests that reached the redirect's target. */
  const followed: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/target')) {
        followed.push(req.url);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"pi_followed","status":"succeeded"}');
        return;
      }
      // A JSON body too: a client reading the 3xx answer as the processor's would take it.
      res.writeHead(307, { location: `${base}/target${req.url}`, 'content-type': 'application/json' });
      res.end('{"id":"pi_redirect","object":"payment_intent","status":"succeeded"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('the shared executor (sandbox, Adyen): a 3xx is an integration failure of unknown outcome', async () => {
    await expect(
      postJson({ url: `${base}/v1/authorizations`, body: { card: 'x' }, timeoutMs: 2000 }),
    ).rejects.toMatchObject({
      name: 'ProcessorTechnicalError',
      code: 'invalid_response',
      message: expect.stringContaining('redirect'),
    });
    const adyen = processorDefinition('adyen').createAdapter({ sandboxUrl: base, timeoutMs: 2000 });
    await expect(
      adyen.authorize(authorizeRequest({ apiKey: 'k', merchantAccount: 'A', endpoint: base })),
    ).rejects.toMatchObject({ code: 'invalid_response' });
    expect(followed).toEqual([]);
  });

  it('the Stripe SDK: a 3xx is an integration failure, never read as an answer', async () => {
    const stripe = processorDefinition('stripe').createAdapter({ sandboxUrl: base, timeoutMs: 2000 });
    await expect(
      stripe.authorize(authorizeRequest({ secretKey: 'sk_test_abcdefghijkl', endpoint: base })),
    ).rejects.toMatchObject({ name: 'ProcessorTechnicalError', code: 'invalid_response' });
    expect(followed).toEqual([]);
  });
});

function authorizeRequest(credentials: Record<string, string>): AuthorizeRequest {
  return {
    idempotencyKey: 'pay_redirect:1',
    paymentId: 'pay_redirect',
    amount: 1999,
    currency: 'EUR',
    card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 1 },
    capture: true,
    initiatedBy: 'customer',
    credentials,
  };
}
