import type { Client } from '@temporalio/client';
import type { Config } from '../src/config';
import type { Db } from '../src/db/prisma';
import type { TxtResolver } from '../src/customDomains/domains';
import type { Logger } from '../src/logging/logger';
import type { PendingWork } from '../src/events/pendingWork';
import type { Mailer } from '../src/portal/mailer';

/** What activities may touch. Tests pass a plain object of this type. */
export interface ActivityDeps {
  db: Db;
  logger: Logger;
  config: Config;
  /** Base URL of the sandbox (acquirer, 3DS server, outbox) that test-mode processors call. */
  sandboxUrl: string;
  /** Client for activities that start workflows (event dispatch); absent in unit tests. */
  temporal?: Client;
  /** DNS TXT lookups of the domain rechecker: node's resolver unless a test gives a stub. */
  dnsTxt?: TxtResolver;
  /** Customer e-mail (receipts): the worker's own, closed when it stops; made on first use when absent. */
  mailer?: Mailer;
  /** Work the worker goes on with after an activity answered (a payment's event dispatch): awaited when it stops. */
  pendingWork?: PendingWork;
}
