import { z } from 'zod';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';
import { isProcessorType, processorDefinition, processorTypes } from '../../processors/registry';

const capabilitiesSchema = z.object({
  currencies: z.union([z.array(z.string()), z.literal('any')]),
  captureModes: z.array(z.enum(['automatic', 'manual'])),
  partialCapture: z.boolean(),
  partialRefunds: z.boolean(),
  multipleRefunds: z.boolean(),
  void: z.boolean(),
  externalThreeDs: z.boolean(),
  hostedThreeDs: z.boolean(),
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

export const processorTypeSchema = z
  .string()
  .refine(isProcessorType, { message: `type must be a registered processor type: ${processorTypes.join(', ')}` })
  .openapi({ description: `Adapter type: ${processorTypes.join(', ')}` });

/**
 * An object of strings; its fields per type are checked by the type's own schema
 * (src/processors/<type>/), sealed at rest, replaced whole on update.
 */
export const credentialsSchema = z
  .record(z.string().min(1).max(100), z.string().max(4096))
  .refine((value) => Object.keys(value).length <= 50, { message: 'at most 50 credential fields' })
  .openapi({
    description:
      'Object of strings, write-only (never returned), fields per type (docs/processors.md): ' +
      'sandbox and sandbox_hosted3ds {merchantId, apiKey?, timeoutDelayMs?, endpoint?}; ' +
      'stripe {secretKey, webhookSecret?, endpoint?}; adyen {apiKey, merchantAccount, hmacKey?, liveUrlPrefix?, ' +
      'returnUrl?, endpoint?}. `endpoint` (an http(s) origin replacing the ' +
      "vendor's scheme, host and port) is refused in live mode.",
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

/** `POST /processors/update` (spec part 4): `{processorId, updatedData}`. */
export const updateProcessorSchema = z
  .object({ processorId: idOf('proc'), updatedData: z.object(processorFields).partial().strict() })
  .strict();

export const processorParams = idParam('processorId', 'proc');

export function toPublicProcessor(row: {
  id: string;
  name: string;
  type: string;
  encryptedCredentials: string;
  supportedCurrencies: string[];
  baseCurrency: string;
  enabled: boolean;
  enable3DS: boolean;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
}): z.input<typeof processorSchema> {
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
