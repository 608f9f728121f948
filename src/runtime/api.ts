import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiDeps } from './appDeps';
import { createMailer } from '../portal/mailer';
import { createApp } from '../http/app';
import { LastUsedRecorder } from '../keys/lastUsed';

export interface RunningApi {
  url: string;
  server: http.Server;
  stop(): Promise<void>;
}

/**
 * Serves the HTTP API; `stop` lets in-flight requests finish, then writes the keys' lastUsedAt and
 * closes the mailer it opened.
 */
export async function startApi(given: ApiDeps, port: number, host: string): Promise<RunningApi> {
  const deps = { ...given, mailer: given.mailer ?? createMailer(given) };
  const lastUsed = new LastUsedRecorder(
    deps.db,
    deps.logger,
    deps.config.LAST_USED_FLUSH_MS,
    deps.config.LAST_USED_MAX_PENDING_KEYS,
  );
  const { HTTP_HEADERS_TIMEOUT_MS: headersTimeout, HTTP_REQUEST_TIMEOUT_MS: requestTimeout } = deps.config;
  const server = http.createServer(
    {
      headersTimeout,
      requestTimeout,
      // Node looks for overdue requests on this tick (30 s by default), which would stretch short timeouts.
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(headersTimeout / 4)),
    },
    createApp(deps, lastUsed),
  );
  server.keepAliveTimeout = deps.config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${address.port}`,
    server,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // The last second's uses would otherwise wait for a timer that no longer runs.
      await lastUsed.flush();
      if (!given.mailer) deps.mailer.close();
    },
  };
}
