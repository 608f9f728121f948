import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { openProcessorCredentials } from '../processors/credentials';
import {
  capabilityNames as namesOf,
  isProcessorType,
  processorDefinition,
  takesCurrency,
} from '../processors/registry';
import { isEndpointAllowed, parseEndpointAllow } from '../processors/endpoint';
import { ProcessorTechnicalError, type ProcessorAdapter } from '../processors/types';
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

/** Whether a processor of this type may be routed to in this mode: never a test-only type (a simulator) in live mode. */
export function routableInMode(type: string, mode: 'test' | 'live'): boolean {
  return mode === 'test' || (isProcessorType(type) && !processorDefinition(type).testOnly);
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
  const credentials = openProcessorCredentials(processor.encryptedCredentials, processor.id, deps.config);
  const adapter = processorDefinition(processor.type).createAdapter({
    sandboxUrl: deps.sandboxUrl,
    timeoutMs: deps.config.PROCESSOR_TIMEOUT_MS,
  });
  const endpointAllowed =
    credentials.endpoint === undefined ||
    isEndpointAllowed(credentials.endpoint, parseEndpointAllow(deps.config.PROCESSOR_ENDPOINT_ALLOW));
  return {
    type: processor.type,
    adapter: traceProcessorCalls(endpointAllowed ? adapter : refusingEveryCall(adapter), processor),
    credentials,
    enable3DS: processor.enable3DS,
  };
}

/**
 * An adapter whose stored `endpoint` names a host no longer in PROCESSOR_ENDPOINT_ALLOW (stored
 * before, or the list was narrowed): no call goes out; each fails as an integration failure that
 * sent nothing.
 */
function refusingEveryCall(adapter: ProcessorAdapter): ProcessorAdapter {
  const refuse = () =>
    Promise.reject(
      new ProcessorTechnicalError(
        "the processor's endpoint names a host that is not in PROCESSOR_ENDPOINT_ALLOW; nothing was sent",
        'invalid_credentials',
      ),
    );
  return {
    type: adapter.type,
    capabilities: adapter.capabilities,
    authorize: refuse,
    capture: refuse,
    void: refuse,
    refund: refuse,
    reverseByIdempotencyKey: refuse,
    lookup: refuse,
  };
}

export class ProcessorMissingError extends Error {
  constructor(processorId: string) {
    super(`Processor ${processorId} does not exist in this account`);
    this.name = 'ProcessorMissingError';
  }
}
