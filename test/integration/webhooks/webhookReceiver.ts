import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  body: string;
  headers: http.IncomingHttpHeaders;
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A real HTTP receiver on loopback that keeps the raw body of every request. */
export async function startReceiver(status = 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      res.writeHead(status).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export { until } from '../../helpers/until';
