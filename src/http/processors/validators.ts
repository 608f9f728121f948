import { z } from 'zod';
import type { Processor } from '../../generated/prisma/client';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';
import { credentialsJsonSchema, processorDefinition, processorTypes } from '../../processors/registry';

const capabilitiesSchema = z.object({
  currencies: z.union([z.array(z.string()), z.literal('any')]),
  captureModes: z.array(z.enum(['automatic', 'manual'])),
  partialCapture: z.boolean(),
  partialRefunds: z.boolean(),
  multipleRefunds: z.boolean(),
  void: z.boolean(),
  externalThreeDs: z.boolean(),
  hostedThreeDs: z.boolean(),
  threeDsProvider: z
    .boolean()
    .openapi({ description: "Can be named as a payment flow's threeDsProviderProcessorId (engine-run 3-D Secure)" }),
  stepUp: z.boolean().openapi({
    description:
      "When the issuer asks for 3-D Secure, the payment answers requires_action with a redirectUrl to the processor's own authentication page (docs/step-up-authentication.md)",
  }),
  networkTokens: z.boolean(),
  asyncModifications: z.boolean(),
});

/** Credentials never appear here: only whether there are any. */
export const processorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    supportedCurrencies: z.array(z.string()),
    baseCurrency: z.string(),
    enabled: z.boolean(),
    enable3DS: z.boolean(),
    hasCredentials: z.boolean(),
    capabilities: capabilitiesSchema,
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Processor');

/** The registered types (src/processors/registry.ts), as an enum in the API document. */
const [firstType, ...otherTypes] = processorTypes;
export const processorTypeSchema = z
  .enum([firstType!, ...otherTypes], {
    error: () => `type must be a registered processor type: ${processorTypes.join(', ')}`,
  })
  .openapi({ description: 'Adapter type: one folder under src/processors/ each (docs/processors.md)' });

/** Each registered type's credentials schema, as the document shows them (`anyOf`, one per type). */
const credentialsByType = processorTypes.map((type) => ({ type, schema: credentialsJsonSchema(type) }));

function fieldList(schema: Record<string, unknown>): string {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  return names.map((name) => (required.has(name) ? name : `${name}?`)).join(', ');
}

/**
 * An object of strings; its fields per type are checked by the type's own schema
 * (src/processors/<type>/), sealed at rest, replaced whole on update.
 */
export const credentialsSchema = z
  .record(z.string().min(1).max(100), z.string().max(4096))
  .refine((value) => Object.keys(value).length <= 50, { message: 'at most 50 credential fields' })
  .openapi({
    description:
      'Object of strings, write-only (never returned), its fields per type (docs/processors.md): ' +
      credentialsByType.map(({ type, schema }) => `${type} {${fieldList(schema)}}`).join('; ') +
      ". `endpoint` (an http(s) origin replacing the vendor's scheme, host and port) is refused in live mode.",
    anyOf: credentialsByType.map(({ type, schema }) => ({ title: `${type} credentials`, ...schema })),
  });

const processorFields = {
  name: z.string().trim().min(1).max(200),
  type: processorTypeSchema,
  credentials: credentialsSchema,
  supportedCurrencies: z.array(currencySchema).min(1).max(100),
  baseCurrency: currencySchema,
  enabled: z.boolean(),
  enable3DS: z.boolean(),
};

export const createProcessorSchema = z.object(processorFields).partial({ enabled: true, enable3DS: true }).strict();
export type CreateProcessorInput = z.infer<typeof createProcessorSchema>;

/** `POST /processors/update`: `{processorId, updatedData}`. */
export const updateProcessorSchema = z
  .object({ processorId: idOf('proc'), updatedData: z.object(processorFields).partial().strict() })
  .strict();

export const processorParams = idParam('processorId', 'proc');

export function toPublicProcessor(row: Processor): z.input<typeof processorSchema> {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    supportedCurrencies: row.supportedCurrencies,
    baseCurrency: row.baseCurrency,
    enabled: row.enabled,
    enable3DS: row.enable3DS,
    hasCredentials: row.encryptedCredentials.length > 0,
    capabilities: capabilitiesOf(row.type),
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Capabilities are static data of the type (src/processors/<type>/index.ts). */
function capabilitiesOf(type: string): z.input<typeof capabilitiesSchema> {
  const { capabilities } = processorDefinition(type);
  return {
    ...capabilities,
    currencies: capabilities.currencies === 'any' ? 'any' : [...capabilities.currencies],
    captureModes: [...capabilities.captureModes],
  };
}
