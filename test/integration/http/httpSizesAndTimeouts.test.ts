import http from 'node:http';
import net from 'node:net';
import { startApi, type RunningApi } from '../../../src/runtime/api';
import { useMerchant } from '../../helpers/fixtures';
import { useHarness } from '../../helpers/useHarness';

const api = '/api/public/v1';

interface EarlyAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { code: string };
  elapsedMs: number;
}

/** Sends the request head only (the body announced by the headers never comes), and waits for an answer. */
function headOnly(url: string, path: string, headers: Record<string, string>, waitMs = 5_000): Promise<EarlyAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${path}`, { method: 'POST', headers });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within ${waitMs} ms`));
    }, waitMs);
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        clearTimeout(timer);
        request.destroy();
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: JSON.parse(text),
          elapsedMs: Date.now() - started,
        });
      });
    });
    request.flushHeaders();
  });
}

/** Opens a raw connection, writes `data` and never more; resolves when the server closes it, with what it sent. */
function writeAndWaitForClose(
  url: string,
  data: string,
  waitMs = 5_000,
): Promise<{ received: string; elapsedMs: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(data));
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${waitMs} ms`));
    }, waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, elapsedMs: Date.now() - started });
    });
  });
}

describe('HTTP request guards: body sizes and slow clients', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);

  describe('413 at once, before reading the body', () => {
    it('for a declared Content-Length over the limit, even without a key, and closes the connection', async () => {
      const answer = await headOnly(harness.url, `${api}/stores`, {
        'content-type': 'application/json',
        'content-length': '10000000',
      });
      expect(answer.status).toBe(413);
      expect(answer.body.code).toBe('PAYLOAD_TOO_LARGE');
      expect(answer.headers.connection).toBe('close');
      expect(answer.elapsedMs).toBeLessThan(1_000);
    });

    it('for a chunked body that grows over the limit', async () => {
      const chunks = (async function* () {
        for (let i = 0; i < 20; i++) yield new Uint8Array(Buffer.alloc(100_000, 0x20));
      })();
      const response = await fetch(`${harness.url}${api}/stores`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${merchant.token}` },
        body: chunks,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(((await response.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
    });
  });

  describe('slow clients are cut off by the server', () => {
    let small: RunningApi | undefined;
    beforeAll(async () => {
      const config = { ...harness.config, HTTP_HEADERS_TIMEOUT_MS: 300, HTTP_REQUEST_TIMEOUT_MS: 600 };
      small = await startApi(
        {
          db: harness.db,
          temporal: harness.temporal,
          config,
          logger: harness.logger,
          taskQueue: harness.taskQueue,
          sandboxUrl: harness.sandboxUrl,
        },
        0,
        '127.0.0.1',
      );
    });
    afterAll(async () => {
      await small?.stop();
    });

    it('headers that never end: 408 and the connection closed after the headers timeout', async () => {
      const { received, elapsedMs } = await writeAndWaitForClose(
        small!.url,
        `GET ${api}/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: `,
      );
      expect(received).toMatch(/^HTTP\/1\.1 408/);
      expect(elapsedMs).toBeGreaterThanOrEqual(250);
    });

    it('a body that never ends: 408 and the connection closed after the request timeout', async () => {
      const head = `POST ${api}/stores HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
      const { received, elapsedMs } = await writeAndWaitForClose(small!.url, `${head}{"name":`);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
      expect(elapsedMs).toBeGreaterThanOrEqual(550);
    });

    it('an idle keep-alive connection outlives the headers timeout', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const get = () =>
          new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
            const request = http.get(`${small!.url}${api}/health`, { agent }, (response) => {
              response.resume();
              response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
            });
            request.on('error', reject);
          });
        expect((await get()).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(await get()).toEqual({ status: 200, reused: true });
      } finally {
        agent.destroy();
      }
    });
  });
});
