import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { memoryLimitDefaults, type Config } from '../src/config';
import { AcquirerJournal } from './acquirer/journal';
import { createAcquirerRouter } from './acquirer/router';
import { AcquirerState } from './acquirer/state';
import { createInboxRouter } from './inbox/router';
import { createOutboxRouter } from './outbox/router';
import { createThreeDsServerRouter } from './threeds/router';
import { ThreeDsServerState } from './threeds/state';

/**
 * The simulated outside world for test mode, served over real HTTP so timeouts and failures are
 * real: the card acquirer, the 3DS server/ACS, the e-mail outbox and the webhook inbox. Each lives in its own
 * folder under simulators/ and mounts its router here.
 */
export interface RunningSandbox {
  url: string;
  stop(): Promise<void>;
}

export interface SandboxOptions {
  /**
   * Where the acquirer keeps its journal (ledger, transactions, answers by idempotency key), so a
   * restart remembers them; without it the acquirer's memory ends with the process.
   */
  dataDir?: string;
  /** Memory bounds (SANDBOX_* in configuration); unset ones take the configuration's defaults. */
  limits?: Partial<SandboxLimits>;
}

export type SandboxLimits = Pick<
  Config,
  | 'SANDBOX_ACQUIRER_MAX_ENTRIES'
  | 'SANDBOX_THREEDS_MAX_TRANSACTIONS'
  | 'SANDBOX_OUTBOX_MAX_MESSAGES'
  | 'SANDBOX_INBOX_MAX_DELIVERIES'
>;

/** The acquirer's journal file under a data folder. */
export function acquirerJournalFile(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'acquirer.jsonl');
}

export function createSandboxApp(options: SandboxOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  const limits = { ...memoryLimitDefaults, ...options.limits };
  // Before the JSON parser: a webhook's body is recorded byte for byte (its signature covers them).
  app.use('/inbox', createInboxRouter(limits.SANDBOX_INBOX_MAX_DELIVERIES));
  app.use(express.json({ limit: '256kb' }));
  app.use(express.urlencoded({ extended: false }));
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  const journal = options.dataDir === undefined ? undefined : new AcquirerJournal(acquirerJournalFile(options.dataDir));
  app.use('/acquirer', createAcquirerRouter(new AcquirerState(journal, limits.SANDBOX_ACQUIRER_MAX_ENTRIES)));
  app.use('/outbox', createOutboxRouter(limits.SANDBOX_OUTBOX_MAX_MESSAGES));
  app.use('/threeds', createThreeDsServerRouter(new ThreeDsServerState(limits.SANDBOX_THREEDS_MAX_TRANSACTIONS)));
  return app;
}

export async function startSandbox(
  port: number,
  host = '127.0.0.1',
  options: SandboxOptions = {},
): Promise<RunningSandbox> {
  const server = http.createServer(createSandboxApp(options));
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
