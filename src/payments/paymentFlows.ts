import type { Db, Prisma } from '../db/prisma';
import type { PaymentFlow } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { invalid, orNotFound } from '../errors';
import type { Scope } from '../commerce/scope';
import { isThreeDsProviderType, threeDsProviderTypes } from '../processors/registry';

// Type aliases, not interfaces: the configs are stored as JSON, which Prisma types as index-signature objects.
export type ProcessorConfig = { processorId: string; weight: number; disabled: boolean; nonStickable: boolean };
export type FallbackProcessorConfig = { processorId: string; orderIndex: number };

/** How a payment picks and falls back between the account's processors. */
export interface PaymentFlowFields {
  name: string;
  strategy?: 'cascade' | 'single';
  threeDsEnabled?: boolean;
  threeDsProviderProcessorId?: string | null;
  authenticationTimeoutMinutes?: number;
  stickyProcessorEnabled?: boolean;
  pickProcessorStrategy?: 'weighted' | 'ordered';
  fallbackMode?: boolean;
  maxFallbackRetries?: number;
  processorConfigs: ProcessorConfig[];
  fallbackProcessorConfigs?: FallbackProcessorConfig[];
}

/** A payment flow of the caller's account and mode, or not_found. */
export async function findPaymentFlow(
  db: Db | Prisma.TransactionClient,
  scope: Scope,
  flowId: string,
): Promise<PaymentFlow> {
  return orNotFound(await db.paymentFlow.findFirst({ where: { id: flowId, ...scope } }), 'Payment flow');
}

/** Every processor a flow names must be one of the account's (same mode); otherwise invalid, naming each one. */
async function assertProcessorsExist(db: Db, scope: Scope, configs: { processorId: string }[][]): Promise<void> {
  const ids = [...new Set(configs.flat().map((c) => c.processorId))];
  if (ids.length === 0) return;
  const found = await db.processor.findMany({ where: { id: { in: ids }, ...scope }, select: { id: true } });
  const known = new Set(found.map((p) => p.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    throw invalid(
      `Unknown processor(s) for this account: ${missing.join(', ')}`,
      'UNKNOWN_PROCESSOR',
      missing.map((id) => ({ message: `processor ${id} does not exist in this account` })),
    );
  }
}

/**
 * A flow's 3DS provider must be a processor of the account (same mode) whose type has the
 * `threeDsProvider` capability (Adyen): its credentials run the authentication-only flow (src/threeds/providers).
 */
async function assertThreeDsProvider(db: Db, scope: Scope, processorId: string | null | undefined): Promise<void> {
  if (!processorId) return;
  const processor = await db.processor.findFirst({ where: { id: processorId, ...scope }, select: { type: true } });
  if (processor && isThreeDsProviderType(processor.type)) return;
  throw invalid(
    processor
      ? `threeDsProviderProcessorId must name a processor that can be a 3-D Secure provider (types: ${threeDsProviderTypes.join(', ')}); ${processorId} is ${processor.type}`
      : `threeDsProviderProcessorId: processor ${processorId} does not exist in this account`,
    'INVALID_THREEDS_PROVIDER',
  );
}

/** The account's flows, oldest first. */
export function listPaymentFlows(db: Db, scope: Scope): Promise<PaymentFlow[]> {
  return db.paymentFlow.findMany({ where: scope, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** A new flow; it needs at least one processor, and every processor must be the account's. */
export async function createPaymentFlow(db: Db, scope: Scope, input: PaymentFlowFields): Promise<PaymentFlow> {
  const fallbackProcessorConfigs = input.fallbackProcessorConfigs ?? [];
  if (input.processorConfigs.length + fallbackProcessorConfigs.length === 0)
    throw invalid('A payment flow needs at least one processor', 'NO_PROCESSORS');
  await assertProcessorsExist(db, scope, [input.processorConfigs, fallbackProcessorConfigs]);
  await assertThreeDsProvider(db, scope, input.threeDsProviderProcessorId);
  return db.paymentFlow.create({
    data: {
      id: newId('paymentFlow'),
      ...scope,
      name: input.name,
      strategy: input.strategy,
      threeDsEnabled: input.threeDsEnabled,
      threeDsProviderProcessorId: input.threeDsProviderProcessorId ?? null,
      authenticationTimeoutMinutes: input.authenticationTimeoutMinutes,
      stickyProcessorEnabled: input.stickyProcessorEnabled,
      pickProcessorStrategy: input.pickProcessorStrategy,
      fallbackMode: input.fallbackMode,
      maxFallbackRetries: input.maxFallbackRetries,
      processorConfigs: input.processorConfigs,
      fallbackProcessorConfigs,
    },
  });
}

/** Changes a flow; the fallback list is always given whole. */
export async function updatePaymentFlow(
  db: Db,
  scope: Scope,
  flowId: string,
  data: Partial<PaymentFlowFields> & { fallbackProcessorConfigs: FallbackProcessorConfig[] },
): Promise<PaymentFlow> {
  const existing = await findPaymentFlow(db, scope, flowId);
  await assertProcessorsExist(db, scope, [data.processorConfigs ?? [], data.fallbackProcessorConfigs]);
  await assertThreeDsProvider(db, scope, data.threeDsProviderProcessorId);
  return db.paymentFlow.update({
    where: { id: existing.id },
    data: {
      name: data.name,
      strategy: data.strategy,
      threeDsEnabled: data.threeDsEnabled,
      threeDsProviderProcessorId: data.threeDsProviderProcessorId,
      authenticationTimeoutMinutes: data.authenticationTimeoutMinutes,
      stickyProcessorEnabled: data.stickyProcessorEnabled,
      pickProcessorStrategy: data.pickProcessorStrategy,
      fallbackMode: data.fallbackMode,
      maxFallbackRetries: data.maxFallbackRetries,
      processorConfigs: data.processorConfigs,
      fallbackProcessorConfigs: data.fallbackProcessorConfigs,
    },
  });
}
