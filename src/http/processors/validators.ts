import { z } from 'zod';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';
import { getProcessorAdapter, isProcessorType, processorTypes } from '../../processors/registry';

const capabilitiesSchema = z.object({
  currencies: z.union([z.array(z.string()), z.literal('any')]),
  externalThreeDs: z.boolean(),
  hostedThreeDs: z.boolean(),
  captureModes: z.array(z.enum(['automatic', 'manual'])),
  partialRefunds: z.boolean(),
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

/** An object of strings (merchantId, apiKey…); sealed at rest, replaced whole on update. */
export const credentialsSchema = z
  .record(z.string().min(1).max(100), z.string().max(4096))
  .refine((value) => Object.keys(value).length <= 50, { message: 'at most 50 credential fields' })
  .openapi({ description: 'Object of strings; write-only (never returned)' });

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

/** The base currency is always one of the supported currencies. */
export function withBaseCurrency(base: string, supported: string[]): string[] {
  return [...new Set([base, ...supported])];
}

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

function capabilitiesOf(type: string) {
  // Capabilities are static data of the adapter; the deps only matter for calls, never made here.
  return getProcessorAdapter(type, { sandboxUrl: 'http://unused.invalid', timeoutMs: 1 }).capabilities;
}
