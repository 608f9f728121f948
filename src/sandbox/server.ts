import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createAcquirerRouter } from './acquirer/router';
import { createOutboxRouter } from './outbox/router';
import { createThreeDsServerRouter } from './threeds/router';

/**
 * The simulated outside world for test mode, served over real HTTP so timeouts and failures are
 * real: the card acquirer, the 3DS server/ACS, and the e-mail outbox. Each lives in its own
 * folder under src/sandbox/ and mounts its router here.
 */
export interface RunningSandbox {
  url: string;
  stop(): Promise<void>;
}

export function createSandboxApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '256kb' }));
  app.use(express.urlencoded({ extended: false }));
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  // Sandbox services mount here, e.g. app.use('/acquirer', createAcquirerRouter());
  app.use('/acquirer', createAcquirerRouter());
  app.use('/outbox', createOutboxRouter());
  app.use('/threeds', createThreeDsServerRouter());
  return app;
}

export async function startSandbox(port: number, host = '127.0.0.1'): Promise<RunningSandbox> {
  const server = http.createServer(createSandboxApp());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actualPort}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
