import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/prisma';
import type { Logger } from '../logging/logger';
import type { TxtResolver } from '../customDomains/domains';
import type { Mailer } from '../portal/mailer';

/**
 * What the API process is built from, injected once at start-up: route handlers pass the parts a
 * process service or client needs (the database client, Temporal, config) and never query the
 * database themselves.
 */
export interface AppDeps {
  db: Db;
  temporal: Client;
  config: Config;
  logger: Logger;
  taskQueue: string;
  /** Base URL of the sandbox (acquirer, 3DS server, outbox). */
  sandboxUrl: string;
  /** Customer e-mail (portal login codes): one per API process, its SMTP pool shared by requests. */
  mailer: Mailer;
  /** DNS TXT lookups for custom-domain verification; node's resolver when absent (tests pass a fake). */
  dnsTxt?: TxtResolver;
}

/** What startApi is given: it opens the mailer itself (and closes it on stop) unless one is passed. */
export type ApiDeps = Omit<AppDeps, 'mailer'> & { mailer?: Mailer };
