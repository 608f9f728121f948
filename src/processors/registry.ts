import { createSandboxAdapter } from './sandbox';
import type { AdapterDeps } from './sandbox/adapter';
import { createSandboxHosted3dsAdapter } from './sandbox_hosted3ds';
import type { ProcessorAdapter, ProcessorCapabilities } from './types';

export interface ProcessorDeps {
  sandboxUrl: string;
  timeoutMs: number;
}

/** One line per processor type; the type is also the folder name under src/processors/. */
const factories: Record<string, (deps: AdapterDeps) => ProcessorAdapter> = {
  sandbox: createSandboxAdapter,
  sandbox_hosted3ds: createSandboxHosted3dsAdapter,
};

export const processorTypes: readonly string[] = Object.freeze(Object.keys(factories));

export function isProcessorType(type: string): boolean {
  return Object.hasOwn(factories, type);
}

export class UnknownProcessorTypeError extends Error {
  constructor(type: string) {
    super(`Unknown processor type "${type}"; registered types: ${processorTypes.join(', ')}`);
    this.name = 'UnknownProcessorTypeError';
  }
}

export function getProcessorAdapter(type: string, deps: ProcessorDeps): ProcessorAdapter {
  const factory = Object.hasOwn(factories, type) ? factories[type] : undefined;
  if (!factory) throw new UnknownProcessorTypeError(type);
  return factory(deps);
}

/** Capability names routing can require (RoutingProcessor.capabilities), derived from the adapter's data. */
export function capabilityNames(capabilities: ProcessorCapabilities): string[] {
  return [
    ...(capabilities.externalThreeDs ? ['externalThreeDs'] : []),
    ...(capabilities.hostedThreeDs ? ['hostedThreeDs'] : []),
    ...(capabilities.partialRefunds ? ['partialRefunds'] : []),
    ...capabilities.captureModes.map((mode) => `capture:${mode}`),
  ];
}
