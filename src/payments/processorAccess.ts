import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { openProcessorCredentials } from '../processors/credentials';
import {
  capabilityNames as namesOf,
  isProcessorType,
  processorDefinition,
  takesCurrency,
} from '../processors/registry';
import type { ProcessorAdapter } from '../processors/types';
import { traceProcessorCalls } from '../tracing/processorCalls';

/** Capability names routing filters by, for a processor type (none for an unknown type). */
export function capabilityNames(type: string): string[] {
  return isProcessorType(type) ? namesOf(processorDefinition(type).capabilities) : [];
}

/**
 * The currencies routing may send to a processor: those the merchant enabled on it that its type
 * takes (`capabilities.currencies`). None for an unknown type.
 */
export function routableCurrencies(type: string, enabled: readonly string[]): string[] {
  if (!isProcessorType(type)) return [];
  const { capabilities } = processorDefinition(type);
  return enabled.filter((currency) => takesCurrency(capabilities, currency));
}

export interface ProcessorAccess {
  /** The processor type (`sandbox`, `stripe`, …): what metrics are labelled with. */
  type: string;
  adapter: ProcessorAdapter;
  credentials: Record<string, string>;
  /** The merchant turned 3DS on for this processor (external values are only sent when on). */
  enable3DS: boolean;
}

/** A processor of the account + mode, its adapter and its opened credentials (never logged). */
export async function processorAccess(
  deps: { db: Db; config: Config; sandboxUrl: string },
  scope: { accountId: string; mode: 'test' | 'live' },
  processorId: string,
): Promise<ProcessorAccess> {
  const processor = await deps.db.processor.findFirst({ where: { id: processorId, ...scope } });
  if (!processor) throw new ProcessorMissingError(processorId);
  return accessOf(deps, processor);
}

/** processorAccess on a processor row read already. */
export function accessOf(
  deps: { config: Config; sandboxUrl: string },
  processor: { id: string; type: string; encryptedCredentials: string; enable3DS: boolean },
): ProcessorAccess {
  return {
    type: processor.type,
    adapter: traceProcessorCalls(
      processorDefinition(processor.type).createAdapter({
        sandboxUrl: deps.sandboxUrl,
        timeoutMs: deps.config.PROCESSOR_TIMEOUT_MS,
      }),
      processor,
    ),
    credentials: openProcessorCredentials(processor.encryptedCredentials, processor.id, deps.config),
    enable3DS: processor.enable3DS,
  };
}

export class ProcessorMissingError extends Error {
  constructor(processorId: string) {
    super(`Processor ${processorId} does not exist in this account`);
    this.name = 'ProcessorMissingError';
  }
}
