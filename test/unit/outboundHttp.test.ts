import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/config';
import { keepAliveAgents, requestText, RequestTimeoutError } from '../../src/http-client/textRequest';
import type { Logger } from '../../src/logging/logger';
import { createMailer } from '../../src/portal/mailer';
import { postJson, sendHttp } from '../../src/processors/httpExecutor';
import { createThreeDsServerClient } from '../../src/threeds/serverClient';

/**
 * The engine's outbound calls on the payment path (processors, the 3DS server, the sandbox outbox)
 * go through node:http with keep-alive agents (src/http-client/textRequest.ts): what fetch gave
 * them (one deadline for the whole answer, no redirects, WHATWG-style header reading) still holds.
 */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let handler: Handler = (_req, res) => res.end('{}');
let server: http.Server;
let base: string;
let connections = 0;
const received: { method?: string; url?: string; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, body });
      handler(req, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  received.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('requests through the keep-alive agents', () => {
  it('one deadline covers the body: headers in time and a body that never ends is a timeout', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    };
    await expect(postJson({ url: `${base}/slow-body`, body: {}, timeoutMs: 300 })).rejects.toMatchObject({
      name: 'ProcessorTechnicalError',
      code: 'timeout',
      message: 'processor did not answer within 300 ms',
    });
    await expect(requestText({ method: 'GET', url: `${base}/slow-body`, timeoutMs: 300 })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
  });

  it('a body cut off by the server is a network error (the request was received), not an answer', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      // Cut once the part of the body has left: the client has an answer that ends before its body.
      res.write('{"id":', () => res.destroy());
    };
    await expect(postJson({ url: `${base}/cut`, body: {}, timeoutMs: 2000 })).rejects.toMatchObject({
      code: 'network_error',
    });
  });

  it('sequential calls to one host reuse one connection', async () => {
    handler = (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"url":"${req.url}"}`);
    const before = connections;
    for (const n of [1, 2, 3]) {
      const answer = await postJson({ url: `${base}/reuse/${n}`, body: { n }, timeoutMs: 2000 });
      expect(answer).toMatchObject({ status: 200, body: { url: `/reuse/${n}` } });
    }
    expect(connections - before).toBeLessThanOrEqual(1);
    expect(received.map((r) => [r.method, r.body])).toEqual([
      ['POST', '{"n":1}'],
      ['POST', '{"n":2}'],
      ['POST', '{"n":3}'],
    ]);
  });

  it('an https URL goes through the https agent', async () => {
    const httpsAdd = jest.spyOn(keepAliveAgents['https:'], 'createConnection');
    const httpAdd = jest.spyOn(keepAliveAgents['http:'], 'createConnection');
    try {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await expect(postJson({ url: `https://127.0.0.1:${port}/x`, body: {}, timeoutMs: 2000 })).rejects.toMatchObject({
        code: 'processor_unreachable',
      });
      expect([httpsAdd.mock.calls.length, httpAdd.mock.calls.length]).toEqual([1, 0]);
    } finally {
      httpsAdd.mockRestore();
      httpAdd.mockRestore();
    }
  });

  it('answer headers: lower-case names, a repeated header joined; a byte order mark dropped', async () => {
    handler = (_req, res) => {
      res.setHeader('Request-Id', 'req_1');
      res.setHeader('X-Seen', ['a', 'b']);
      res.writeHead(200).end('\uFEFF{"ok":true}');
    };
    const answer = await sendHttp({ method: 'GET', url: `${base}/headers`, headers: {}, timeoutMs: 2000 });
    expect(answer.headers).toMatchObject({ 'request-id': 'req_1', 'x-seen': 'a, b' });
    expect(answer.text).toBe('{"ok":true}');
    expect(received[0]).toMatchObject({ method: 'GET', body: '' });
  });

  it("a 5xx's headers reach the vendor's classifier", async () => {
    handler = (_req, res) => res.writeHead(500, { 'Transient-Error': 'TRUE' }).end('{}');
    const seen: unknown[] = [];
    await expect(
      postJson({
        url: `${base}/outage`,
        body: {},
        timeoutMs: 2000,
        classifyServerError: (status, headers) => {
          seen.push([status, headers['transient-error']]);
          return 'processor_unavailable';
        },
      }),
    ).rejects.toMatchObject({ code: 'processor_unavailable' });
    expect(seen).toEqual([[500, 'TRUE']]);
  });
});

describe('the sandbox outbox and the 3DS server over the same agents', () => {
  const mailer = () =>
    createMailer({ config: {} as Config, logger: {} as Logger, sandboxUrl: base }).send({
      mode: 'test',
      to: 'a@example.com',
      subject: 'Receipt',
      text: 'Thanks',
    });

  it('test-mode mail is POSTed to the outbox as JSON; a non-2xx answer is an error', async () => {
    handler = (_req, res) => res.writeHead(201).end('{}');
    await expect(mailer()).resolves.toBeUndefined();
    expect(received).toEqual([
      { method: 'POST', url: '/outbox/messages', body: expect.stringContaining('"to":"a@example.com"') },
    ]);
    handler = (_req, res) => res.writeHead(500).end('{}');
    await expect(mailer()).rejects.toThrow('sandbox outbox answered 500');
  });

  it("the 3DS server's result: a redirect is not followed, a body that is not JSON is an unknown shape", async () => {
    const client = createThreeDsServerClient(`${base}/threeds`);
    handler = (_req, res) => res.writeHead(302, { location: `${base}/elsewhere` }).end();
    await expect(client.result('tx_1')).rejects.toMatchObject({ code: 'threeds_server_error' });
    expect(received.map((r) => r.url)).toEqual(['/threeds/v2/transactions/tx_1']);
    handler = (_req, res) => res.writeHead(200).end('not json');
    await expect(client.result('tx_1')).rejects.toMatchObject({ code: 'invalid_response' });
  });
});
