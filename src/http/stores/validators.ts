import { z } from 'zod';
import { currencySchema, idOf, idParam } from '../../commerce/schemas';

export const storeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    baseCurrency: z.string(),
    presentmentCurrencies: z.array(z.string()),
    defaultPaymentFlowId: z.string().nullable(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Store');
export type StoreOut = z.infer<typeof storeSchema>;

export const createStoreSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    baseCurrency: currencySchema,
    presentmentCurrencies: z.array(currencySchema).max(50).optional(),
    defaultPaymentFlowId: idOf('flow').nullable().optional(),
  })
  .strict();
export type CreateStoreInput = z.infer<typeof createStoreSchema>;

export const updateStoreSchema = z
  .object({
    id: idOf('store'),
    data: createStoreSchema.partial().strict(),
  })
  .strict();

export const storeParams = idParam('storeId', 'store');

export function toPublicStore(row: {
  id: string;
  name: string;
  baseCurrency: string;
  presentmentCurrencies: string[];
  defaultPaymentFlowId: string | null;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
}): StoreOut {
  return {
    id: row.id,
    name: row.name,
    baseCurrency: row.baseCurrency,
    presentmentCurrencies: row.presentmentCurrencies,
    defaultPaymentFlowId: row.defaultPaymentFlowId,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
