import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { attemptTimeoutMs } from '../../activities/webhooks/delivery';
import { sendWebhookRequest } from '../../src/webhooks/send';
import type { ResolveHost } from '../../src/webhooks/urlGuard';

const live = { allowInsecure: false, allowLoopback: false };
/** Test mode with the operator's WEBHOOK_ALLOW_LOOPBACK: these receivers listen on loopback. */
const test = { allowInsecure: true, allowLoopback: true };
const testWithoutLoopback = { allowInsecure: true, allowLoopback: false };

/** A loopback server; `answer` may leave a request unanswered to play a hung receiver. */
async function startServer(answer: (res: http.ServerResponse, body: string) => void) {
  const received: { body: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      answer(res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: new URL(`http://127.0.0.1:${port}/hook`),
    received,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const toLoopback: ResolveHost = async () => [{ address: '127.0.0.1', family: 4 }];

describe('sendWebhookRequest (real loopback receivers)', () => {
  it('gives each attempt 10 seconds', () => {
    expect(attemptTimeoutMs).toBe(10_000);
  });

  it('ends an attempt the receiver never answers at the timeout, as a failure with no status', async () => {
    const hung = await startServer(() => undefined);
    try {
      const started = Date.now();
      const result = await sendWebhookRequest(hung.url, '{"id":"evt_1"}', { 'x-webhook-event-id': 'evt_1' }, test, 300);
      const took = Date.now() - started;
      expect(result.error).toBe('timed out after 300 ms');
      expect(result.status).toBeUndefined();
      expect(took).toBeGreaterThanOrEqual(290);
      expect(took).toBeLessThan(3_000);
      expect(result.latencyMs).toBeGreaterThanOrEqual(290);
      // The request did reach the receiver: a timeout, not a refused connection.
      expect(hung.received).toEqual([expect.objectContaining({ body: '{"id":"evt_1"}' })]);
    } finally {
      await hung.stop();
    }
  });

  it('keeps only a sanitized excerpt of the answer: 200 characters, control characters stripped', async () => {
    const body = 'line one\r\nline\ttwo\u0000\u001b[31mred\u007f\u009b\u202eevil' + 'y'.repeat(5000);
    const server = await startServer((res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(body));
    try {
      const result = await sendWebhookRequest(server.url, '{}', {}, test, 2_000);
      expect(result.status).toBe(500);
      expect(result.snippet).toBe(
        `line one line two[31mredevil${'y'.repeat(200 - 'line one line two[31mredevil'.length)}`,
      );
      expect(Array.from(result.snippet!)).toHaveLength(200);
      // eslint-disable-next-line no-control-regex -- no control character may survive
      expect(result.snippet).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    } finally {
      await server.stop();
    }
  });

  it('reports the status and the start of the body, and never follows a redirect', async () => {
    const answers = [404, 302];
    const server = await startServer((res) => {
      const status = answers.shift()!;
      res.writeHead(status, status === 302 ? { location: 'http://169.254.169.254/' } : {}).end('x'.repeat(1500));
    });
    try {
      const notFound = await sendWebhookRequest(server.url, '{}', {}, test, 2_000);
      expect(notFound.status).toBe(404);
      expect(notFound.error).toBeUndefined();
      expect(notFound.snippet).toBe('x'.repeat(200));
      const redirected = await sendWebhookRequest(server.url, '{}', {}, test, 2_000);
      expect(redirected.status).toBe(302);
      expect(server.received).toHaveLength(2);
    } finally {
      await server.stop();
    }
  });

  it('dials only addresses the policy allows, checked on the address the lookup returns', async () => {
    const server = await startServer((res) => res.writeHead(204).end());
    try {
      const url = new URL(`http://receiver.test:${server.port}/hook`);
      const refused = await sendWebhookRequest(url, '{}', {}, live, 2_000, toLoopback);
      expect(refused.status).toBeUndefined();
      expect(refused.error).toMatch(
        /receiver\.test resolves to 127\.0\.0\.1: loopback addresses are only allowed in test mode/,
      );
      expect(server.received).toHaveLength(0);

      const notAllowed = await sendWebhookRequest(url, '{}', {}, testWithoutLoopback, 2_000, toLoopback);
      expect(notAllowed.status).toBeUndefined();
      expect(notAllowed.error).toMatch(/receiver\.test resolves to 127\.0\.0\.1: loopback receivers are turned off/);
      expect(server.received).toHaveLength(0);

      const delivered = await sendWebhookRequest(url, '{"ok":true}', {}, test, 2_000, toLoopback);
      expect(delivered.status).toBe(204);
      expect(server.received.map((request) => request.headers.host)).toEqual([`receiver.test:${server.port}`]);
    } finally {
      await server.stop();
    }
  });
});
