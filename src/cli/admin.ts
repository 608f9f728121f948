import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { config, ConfigError } from '../config';
import { provideDatabase, type DatabaseHandle } from '../db/database';
import { applyMigrations } from '../db/migrate';
import { createPrismaClient, type Db } from '../db/prisma';
import { isLegacyUuidToken } from '../domain/apiKeys';
import {
  createPartnerCommand,
  importLegacyKeyCommand,
  LegacyKeyImportError,
  listKeysCommand,
  revokeKeyCommand,
} from '../keys/adminCommands';
import { createUserCommand, IamCommandError, sessionCommand } from '../iam/adminCommands';
import { accountRoles, partnerRoles, type AccountRole, type PartnerRole } from '../iam/policies';
import { createLogger, type Logger } from '../logging/logger';
import { isDomainError } from '../errors';
import {
  listPaymentsNeedingReview,
  resolvePaymentReview,
  reviewOutcomes,
  type ReviewOutcome,
} from '../payments/review';
import { RotationIncompleteError, rotateKeysCommand } from '../vault/rotateKeysCommand';

const usage = `Usage: npm run --silent admin -- <command>
  create-partner --name NAME --mode test|live [--crm-only]   make a partner and its first partner key
  import-legacy-key --account ACCOUNT_ID --token UUID [--name NAME] [--role org:admin|org:member] [--mode live|test]
                                                             keep an older CRM's UUID token working as a CRM key
  revoke-key KEY_ID                                          revoke any API key, immediately and for good
  list-keys [--partner PARTNER_ID]                           list keys (prefix and metadata only)
  create-user --email EMAIL [--name NAME] [--account ACCOUNT_ID --role org:admin|org:member]
              [--partner PARTNER_ID --partner-role partner:admin|partner:member]
                                                             make (or find) a user, set roles, print a session token
  session --user USER_ID                                     print a fresh session token (embedded identity provider)
  needs-review                                               list payments whose processor outcome is unknown
  resolve-review --payment PAYMENT_ID --outcome charged|not_charged [--note TEXT]
                                                             settle one: charged → succeeded, not_charged → failed
  rotate-keys [--batch-size N]                               re-seal every secret at rest under ENCRYPTION_KEY (resumable)
Uses DATABASE_URL, else the embedded Postgres in DATA_DIR (started for the command unless npm start runs it).`;

class UsageError extends Error {}
class CommandError extends Error {}

/**
 * Operator commands. stdout carries exactly one JSON document (the result); logs go to stderr,
 * so `npm run --silent admin -- create-partner … | jq` works.
 */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    (command ? process.stdout : process.stderr).write(`${usage}\n`);
    return command ? 0 : 2;
  }
  const run = commandFor(command, rest);
  // Quieter than the server by default: an operator wants the JSON, not start-up chatter.
  const logger = createLogger(process.env.LOG_LEVEL === undefined ? 'warn' : config().LOG_LEVEL, pino.destination(2));
  const database = await openDatabase(logger);
  const db = createPrismaClient(database.url, 2);
  try {
    const result = await run(db);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await db.$disconnect();
    await database.stop();
  }
}

function commandFor(command: string, args: string[]): (db: Db) => Promise<unknown> {
  switch (command) {
    case 'create-partner': {
      const { values } = parseArgs({
        args,
        options: {
          name: { type: 'string' },
          mode: { type: 'string' },
          'crm-only': { type: 'boolean', default: false },
        },
        strict: true,
      });
      const name = values.name?.trim();
      if (!name) throw new UsageError('create-partner needs --name NAME');
      if (values.mode !== 'test' && values.mode !== 'live')
        throw new UsageError('create-partner needs --mode test or --mode live');
      const mode = values.mode;
      return (db) => createPartnerCommand(db, { name, mode, crmOnly: values['crm-only'] });
    }
    case 'import-legacy-key': {
      const { values } = parseArgs({
        args,
        options: {
          account: { type: 'string' },
          token: { type: 'string' },
          name: { type: 'string' },
          role: { type: 'string' },
          mode: { type: 'string' },
        },
        strict: true,
      });
      const accountId = values.account?.trim();
      const token = values.token?.trim();
      if (!accountId) throw new UsageError('import-legacy-key needs --account ACCOUNT_ID');
      if (!token || !isLegacyUuidToken(token))
        throw new UsageError('import-legacy-key needs --token with a UUID (the older CRM token format)');
      const role = values.role ?? 'org:admin';
      if (role !== 'org:admin' && role !== 'org:member') throw new UsageError('--role must be org:admin or org:member');
      // The older CRM had no test mode: its tokens worked on real data.
      const mode = values.mode ?? 'live';
      if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be live or test');
      const name = values.name?.trim() || 'legacy CRM key';
      return (db) => importLegacyKeyCommand(db, { accountId, token, name, role, mode });
    }
    case 'revoke-key': {
      const { positionals } = parseArgs({ args, allowPositionals: true, strict: true });
      const keyId = positionals[0];
      if (!keyId || positionals.length > 1) throw new UsageError('revoke-key needs exactly one key id');
      return async (db) => {
        const revoked = await revokeKeyCommand(db, keyId);
        if (!revoked) throw new CommandError(`no API key with id ${keyId}`);
        return revoked;
      };
    }
    case 'list-keys': {
      const { values } = parseArgs({ args, options: { partner: { type: 'string' } }, strict: true });
      return async (db) => ({ keys: await listKeysCommand(db, { partnerId: values.partner }) });
    }
    case 'create-user': {
      const { values } = parseArgs({
        args,
        options: {
          email: { type: 'string' },
          name: { type: 'string' },
          account: { type: 'string' },
          role: { type: 'string' },
          partner: { type: 'string' },
          'partner-role': { type: 'string' },
        },
        strict: true,
      });
      const email = values.email?.trim();
      if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError('create-user needs --email EMAIL');
      if (values.role !== undefined && !values.account) throw new UsageError('--role goes with --account');
      if (values['partner-role'] !== undefined && !values.partner)
        throw new UsageError('--partner-role goes with --partner');
      const role = values.role ?? 'org:admin';
      if (!accountRoles.includes(role as AccountRole)) throw new UsageError('--role must be org:admin or org:member');
      const partnerRole = values['partner-role'] ?? 'partner:admin';
      if (!partnerRoles.includes(partnerRole as PartnerRole))
        throw new UsageError('--partner-role must be partner:admin or partner:member');
      const input = {
        email,
        name: values.name?.trim() || undefined,
        account: values.account ? { accountId: values.account, role: role as AccountRole } : undefined,
        partner: values.partner ? { partnerId: values.partner, role: partnerRole as PartnerRole } : undefined,
      };
      return (db) => createUserCommand(db, config(), input);
    }
    case 'session': {
      const { values } = parseArgs({ args, options: { user: { type: 'string' } }, strict: true });
      const userId = values.user?.trim();
      if (!userId) throw new UsageError('session needs --user USER_ID');
      return (db) => sessionCommand(db, config(), userId);
    }
    case 'needs-review': {
      parseArgs({ args, options: {}, strict: true });
      return async (db) => ({ payments: await listPaymentsNeedingReview(db) });
    }
    case 'resolve-review': {
      const { values } = parseArgs({
        args,
        options: { payment: { type: 'string' }, outcome: { type: 'string' }, note: { type: 'string' } },
        strict: true,
      });
      const paymentId = values.payment?.trim();
      if (!paymentId) throw new UsageError('resolve-review needs --payment PAYMENT_ID');
      if (!reviewOutcomes.includes(values.outcome as ReviewOutcome))
        throw new UsageError('resolve-review needs --outcome charged or --outcome not_charged');
      const outcome = values.outcome as ReviewOutcome;
      return (db) => resolvePaymentReview(db, { paymentId, outcome, note: values.note });
    }
    case 'rotate-keys': {
      const { values } = parseArgs({ args, options: { 'batch-size': { type: 'string' } }, strict: true });
      const batchSize = Number(values['batch-size'] ?? 200);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
        throw new UsageError('--batch-size must be an integer from 1 to 10000');
      return (db) => rotateKeysCommand(db, config(), batchSize);
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * The configured database with migrations applied. With no DATABASE_URL this is the embedded
 * Postgres in DATA_DIR: when `npm start` already runs it, the command connects to it; otherwise
 * it starts it for the command and stops it afterwards.
 */
async function openDatabase(logger: Logger): Promise<DatabaseHandle> {
  const cfg = config();
  if (!cfg.DATABASE_URL) {
    const port = runningEmbeddedPort(path.join(cfg.DATA_DIR, 'postgres'));
    if (port !== undefined) {
      const url = `postgresql://postgres:postgres@127.0.0.1:${port}/payments`;
      await applyMigrations(url);
      return { url, embedded: true, stop: async () => undefined };
    }
  }
  return provideDatabase(cfg, logger);
}

/** The port of a live embedded Postgres (from its postmaster.pid), if one runs in `dataDir`. */
function runningEmbeddedPort(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(lines[0]), 0);
  } catch {
    return undefined;
  }
  const port = Number(lines[3]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const isUsage = error instanceof UsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    const clean =
      error instanceof CommandError ||
      error instanceof ConfigError ||
      error instanceof LegacyKeyImportError ||
      error instanceof IamCommandError ||
      error instanceof RotationIncompleteError ||
      isDomainError(error);
    const message = isUsage
      ? `${(error as Error).message}\n\n${usage}`
      : clean
        ? isDomainError(error)
          ? `${error.code}: ${error.message}`
          : (error as Error).message
        : String((error as Error)?.stack ?? error);
    process.stderr.write(`admin: ${message}\n`);
    process.exitCode = isUsage ? 2 : 1;
  },
);
