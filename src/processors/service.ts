import type { z } from 'zod';
import type { Config } from '../config';
import type { Db, Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import { invalid, orNotFound } from '../errors';
import { openProcessorCredentials, sealProcessorCredentials } from './credentials';
import { defaultProcessorEndpointAllow, isEndpointAllowed, parseEndpointAllow } from './endpoint';
import { processorDefinition, processorTypes } from './registry';
import type { KeySource } from '../vault/keyring';

/**
 * Processors of a merchant account (the `POST /processors` family): validation of the type's
 * credentials and the database work. Credentials are sealed before they are stored and never
 * returned. Each write is split in two: `prepare…` validates and loads (a refusal before any
 * work), `save…` writes.
 */
export interface ProcessorScope {
  accountId: string;
  mode: 'test' | 'live';
}

export interface ProcessorFields {
  name: string;
  type: string;
  credentials: Record<string, string>;
  supportedCurrencies: string[];
  baseCurrency: string;
  enabled?: boolean;
  enable3DS?: boolean;
}

export type ProcessorRow = Awaited<ReturnType<Db['processor']['findFirstOrThrow']>>;

/** The base currency is always one of the supported currencies. */
export function withBaseCurrency(base: string, supported: readonly string[]): string[] {
  return [...new Set([base, ...supported])];
}

/**
 * A live processor of a test-only type (a simulator of the sandbox) would send real customers to
 * a fake acquirer that approves: refused whatever else the request says.
 */
export function assertTypeFitsMode(type: string, mode: 'test' | 'live'): void {
  if (mode === 'live' && processorDefinition(type).testOnly)
    throw invalid(
      `Processor type ${type} is a simulator for test mode and cannot be used in live mode; choose a real processor type (${processorTypes.filter((t) => !processorDefinition(t).testOnly).join(', ')})`,
      'TEST_PROCESSOR_IN_LIVE_MODE',
    );
}

/**
 * The credentials as the type's zod schema parses them, or a 400 naming each bad field under
 * `at` (the body path of the credentials). Beyond the schema: credentials that reach the vendor's
 * environment of the other mode are refused (the type says which field tells), and `endpoint`,
 * which points an adapter at a simulator or a test host, is test mode only and must name a host
 * of `endpointAllow` (PROCESSOR_ENDPOINT_ALLOW).
 */
export function checkCredentials(
  type: string,
  credentials: Record<string, string>,
  mode: 'test' | 'live',
  at: readonly string[],
  endpointAllow: string = defaultProcessorEndpointAllow,
): Record<string, string> {
  const definition = processorDefinition(type);
  const parsed = definition.credentialsSchema.safeParse(credentials);
  const issues = parsed.success ? [] : parsed.error.issues.map((issue) => issueAt(at, issue));
  const modeProblem = parsed.success ? definition.credentialsModeProblem?.(parsed.data, mode) : undefined;
  if (modeProblem) issues.push(issueAt(at, { path: [modeProblem.field], message: modeProblem.message }));
  if (mode === 'live' && credentials.endpoint !== undefined)
    issues.push(issueAt(at, { path: ['endpoint'], message: 'endpoint is allowed in test mode only' }));
  else if (
    parsed.success &&
    parsed.data.endpoint !== undefined &&
    !isEndpointAllowed(parsed.data.endpoint, parseEndpointAllow(endpointAllow))
  )
    issues.push(
      issueAt(at, {
        path: ['endpoint'],
        message:
          'endpoint names a host the operator has not allowed; the hosts processors may be pointed at are listed in PROCESSOR_ENDPOINT_ALLOW',
      }),
    );
  if (issues.length > 0 || !parsed.success)
    throw invalid(`Invalid body: ${issues[0]?.message ?? 'credentials'}`, 'VALIDATION_ERROR', issues);
  return parsed.data;
}

function issueAt(at: readonly string[], issue: Pick<z.core.$ZodIssue, 'path' | 'message'>) {
  const path = [...at, ...issue.path.map(String)].join('.');
  return { path, message: `${path}: ${issue.message}` };
}

export function createProcessorService(deps: { db: Db; config: KeySource & Pick<Config, 'PROCESSOR_ENDPOINT_ALLOW'> }) {
  const { db, config } = deps;
  const check = (type: string, credentials: Record<string, string>, mode: 'test' | 'live', at: readonly string[]) =>
    checkCredentials(type, credentials, mode, at, config.PROCESSOR_ENDPOINT_ALLOW);

  /** A processor of the caller's account and mode, or not_found. */
  async function find(client: Db | Prisma.TransactionClient, scope: ProcessorScope, processorId: string) {
    return orNotFound(await client.processor.findFirst({ where: { id: processorId, ...scope } }), 'Processor');
  }

  return {
    find: (scope: ProcessorScope, processorId: string) => find(db, scope, processorId),

    list: (scope: ProcessorScope) =>
      db.processor.findMany({ where: scope, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),

    prepareCreate(scope: ProcessorScope, fields: ProcessorFields): Prisma.ProcessorUncheckedCreateInput {
      assertTypeFitsMode(fields.type, scope.mode);
      const credentials = check(fields.type, fields.credentials, scope.mode, ['credentials']);
      const id = newId('processor');
      return {
        id,
        ...scope,
        name: fields.name,
        type: fields.type,
        encryptedCredentials: sealProcessorCredentials(credentials, id, config),
        supportedCurrencies: withBaseCurrency(fields.baseCurrency, fields.supportedCurrencies),
        baseCurrency: fields.baseCurrency,
        enabled: fields.enabled ?? true,
        enable3DS: fields.enable3DS ?? false,
      };
    },

    saveCreate: (data: Prisma.ProcessorUncheckedCreateInput) => db.processor.create({ data }),

    /**
     * Credentials sent replace the stored ones whole, checked against the (new) type; a type change
     * without credentials keeps the stored ones only when they fit the new type.
     */
    async prepareUpdate(scope: ProcessorScope, processorId: string, data: Partial<ProcessorFields>) {
      const existing = await find(db, scope, processorId);
      const type = data.type ?? existing.type;
      assertTypeFitsMode(type, scope.mode);
      const at = ['updatedData', 'credentials'];
      let encryptedCredentials: string | undefined;
      if (data.credentials) {
        encryptedCredentials = sealProcessorCredentials(
          check(type, data.credentials, scope.mode, at),
          existing.id,
          config,
        );
      } else if (type !== existing.type) {
        check(type, openProcessorCredentials(existing.encryptedCredentials, existing.id, config), scope.mode, at);
      }
      const baseCurrency = data.baseCurrency ?? existing.baseCurrency;
      const supported = data.supportedCurrencies ?? (data.baseCurrency ? existing.supportedCurrencies : undefined);
      return {
        id: existing.id,
        data: {
          name: data.name,
          type: data.type,
          encryptedCredentials,
          supportedCurrencies: supported ? withBaseCurrency(baseCurrency, supported) : undefined,
          baseCurrency: data.baseCurrency,
          enabled: data.enabled,
          enable3DS: data.enable3DS,
        } satisfies Prisma.ProcessorUncheckedUpdateInput,
      };
    },

    saveUpdate: (update: { id: string; data: Prisma.ProcessorUncheckedUpdateInput }) =>
      db.processor.update({ where: { id: update.id }, data: update.data }),
  };
}

export type ProcessorService = ReturnType<typeof createProcessorService>;

/** A processor's type by id (unscoped: for labels and logs, never for access); null when it is gone. */
export async function processorTypeOf(db: Db, processorId: string): Promise<string | null> {
  const processor = await db.processor.findUnique({ where: { id: processorId }, select: { type: true } });
  return processor?.type ?? null;
}
