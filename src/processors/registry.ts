import { z } from 'zod';
import { adyenProcessor } from './adyen';
import { sandboxProcessor } from './sandbox';
import { sandboxHostedThreeDsProcessor } from './sandbox_hosted3ds';
import { stripeProcessor } from './stripe';
import type { AdapterDeps, ProcessorAdapter, ProcessorCapabilities, ProcessorDefinition } from './types';

/** One line per processor type; the type is also the folder name under src/processors/. */
// prettier-ignore
const definitions: readonly ProcessorDefinition[] = [
  sandboxProcessor,
  sandboxHostedThreeDsProcessor,
  stripeProcessor,
  adyenProcessor,
];

const byType = new Map(definitions.map((definition) => [definition.type, definition]));

export const processorTypes: readonly string[] = Object.freeze([...byType.keys()]);

export function isProcessorType(type: string): boolean {
  return byType.has(type);
}

export class UnknownProcessorTypeError extends Error {
  constructor(type: string) {
    super(`Unknown processor type "${type}"; registered types: ${processorTypes.join(', ')}`);
    this.name = 'UnknownProcessorTypeError';
  }
}

export function processorDefinition(type: string): ProcessorDefinition {
  const definition = byType.get(type);
  if (!definition) throw new UnknownProcessorTypeError(type);
  return definition;
}

export function getProcessorAdapter(type: string, deps: AdapterDeps): ProcessorAdapter {
  return processorDefinition(type).createAdapter(deps);
}

/** The processor types that can be a payment flow's 3-D Secure provider (engine-run authentication). */
export const threeDsProviderTypes: readonly string[] = Object.freeze(
  definitions.filter((definition) => definition.capabilities.threeDsProvider).map((definition) => definition.type),
);

export function isThreeDsProviderType(type: string): boolean {
  return threeDsProviderTypes.includes(type);
}

/** Capability names routing can require (RoutingProcessor.capabilities), derived from the capabilities data. */
export function capabilityNames(capabilities: ProcessorCapabilities): string[] {
  return [
    ...(capabilities.externalThreeDs ? ['externalThreeDs'] : []),
    ...(capabilities.hostedThreeDs ? ['hostedThreeDs'] : []),
    ...(capabilities.partialRefunds ? ['partialRefunds'] : []),
    ...capabilities.captureModes.map((mode) => `capture:${mode}`),
  ];
}

/** Whether the processor type takes payments in this currency (ISO 4217, any case). */
export function takesCurrency(capabilities: ProcessorCapabilities, currency: string): boolean {
  return capabilities.currencies === 'any' || capabilities.currencies.includes(currency.toUpperCase());
}

/** A type's credentials as JSON Schema (from its zod schema), for the API document. */
export function credentialsJsonSchema(type: string): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(processorDefinition(type).credentialsSchema, {
    io: 'input',
    unrepresentable: 'any',
  });
  return schema;
}
