import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdyenAuthenticationOnlyProvider } from '../../../src/threeds/providers/adyenAuthenticationOnly';
import type { ProviderAuthenticationRequest } from '../../../src/threeds/providers/types';

/**
 * How the Adyen authentication-only provider reads Adyen's answers (a stand-in server answers
 * what each case needs): only AuthenticationFinished carries a result, a GET redirect is a
 * challenge, everything else is a failed authentication with a named reason, 5xx is retried.
 */
describe('Adyen authentication-only provider: answers', () => {
  let server: http.Server;
  let origin: string;
  let next: { status: number; body: unknown } = { status: 200, body: {} };
  const received: { path: string; body: any; headers: http.IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(body), headers: req.headers });
        res.writeHead(next.status, { 'content-type': 'application/json' }).end(JSON.stringify(next.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const provider = (endpointAllow = '127.0.0.1') =>
    createAdyenAuthenticationOnlyProvider({
      credentials: { apiKey: 'AQE_key', merchantAccount: 'Acme', endpoint: origin },
      timeoutMs: 2_000,
      endpointAllow,
      sandboxUrl: 'http://sandbox.invalid:1',
    });
  const request: ProviderAuthenticationRequest = {
    reference: '3ds_unit0000000000000001',
    cardNumber: '4242424242424242',
    expMonth: 3,
    expYear: 2030,
    amount: 1999,
    currency: 'EUR',
    messageVersion: '2.2.0',
    deviceChannel: 'browser',
    notificationUrl: 'https://engine.example/api/public/v1/threeds/3ds_x/return?token=t',
  };

  it('sends an authentication-only request and reads threeDS2Result unchanged', async () => {
    const threeDS2Result = {
      authenticationValue: 'AQIDBAUGBwgJCgsMDQ4PEBESExQ=',
      eci: '05',
      transStatus: 'Y',
      dsTransID: 'a9a5b0f4-5a0b-4c1b-9d53-5bde6a7c0b0e',
      messageVersion: '2.2.0',
      threeDSServerTransID: 'f1e2d3c4-0000-4000-8000-000000000001',
    };
    next = { status: 200, body: { resultCode: 'AuthenticationFinished', pspReference: 'P1', threeDS2Result } };
    expect(await provider().authenticate(request)).toMatchObject({ ...threeDS2Result, acsTransID: null });
    const sent = received.at(-1)!;
    expect(sent.path).toBe('/v71/payments');
    expect(sent.headers['x-api-key']).toBe('AQE_key');
    expect(sent.headers['idempotency-key']).toBe(`threeds-auth:${request.reference}`);
    expect(sent.body).toMatchObject({
      reference: request.reference,
      returnUrl: request.notificationUrl,
      authenticationData: { authenticationOnly: true },
      paymentMethod: { number: '4242424242424242', expiryMonth: '03', expiryYear: '2030' },
      shopperInteraction: 'Ecommerce',
    });
  });

  it.each([
    [
      { resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'GET', url: 'https://acs/x' } },
      { transStatus: 'C', challengeUrl: 'https://acs/x' },
    ],
    [
      { resultCode: 'RedirectShopper', action: { type: 'redirect', method: 'POST', url: 'https://acs/x' } },
      { failureReason: 'adyen_challenge_method_unsupported' },
    ],
    [
      { resultCode: 'ChallengeShopper', action: { type: 'threeDS2' } },
      { failureReason: 'adyen_challenge_method_unsupported' },
    ],
    [
      { resultCode: 'AuthenticationNotRequired' },
      { transStatus: null, failureReason: 'adyen_AuthenticationNotRequired' },
    ],
    [
      { resultCode: 'Refused', threeDS2Result: { transStatus: 'N' } },
      { transStatus: 'N', failureReason: 'adyen_Refused' },
    ],
  ])('reads %j as %j', async (body, expected) => {
    next = { status: 200, body };
    expect(await provider().authenticate(request)).toMatchObject(expected);
  });

  it('a refused request is a failed authentication, a 5xx a technical error, an unknown shape too', async () => {
    next = { status: 422, body: { status: 422, errorCode: '101', message: 'Invalid card number' } };
    expect(await provider().authenticate(request)).toMatchObject({
      failureReason: 'adyen_request_refused: HTTP 422 101',
    });
    next = { status: 500, body: {} };
    await expect(provider().authenticate(request)).rejects.toMatchObject({ name: 'ProcessorTechnicalError' });
    next = { status: 200, body: { nothing: true } };
    await expect(provider().authenticate(request)).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('asks /payments/details only with the redirect token; a token Adyen does not know settles nothing', async () => {
    const challenge = { id: '3ds_unit0000000000000002', threeDSServerTransID: null, providerReturnData: null };
    const before = received.length;
    expect(await provider().result(challenge)).toBeNull();
    expect(received.length).toBe(before);
    next = { status: 422, body: { status: 422, errorCode: '101', message: 'Invalid payload' } };
    expect(await provider().result({ ...challenge, providerReturnData: 'forged' })).toBeNull();
    expect(received.at(-1)).toMatchObject({
      path: '/v71/payments/details',
      body: { details: { redirectResult: 'forged' } },
    });
  });

  it('never sends to an endpoint outside PROCESSOR_ENDPOINT_ALLOW', () => {
    expect(() => provider('example.com')).toThrow(/PROCESSOR_ENDPOINT_ALLOW/);
  });
});
