import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import type { ApiKey, ProcessingAccount } from '../../generated/prisma/client';
import { keyDateFields, keyDates, keyRecognition, keyRecognitionFields } from '../core/apiKeyView';
import { pageInfoSchema } from '../lists/validators';

const modeSchema = z.enum(['test', 'live']);

export const createTpaSchema = z
  .object({
    accountId: idOf('acc'),
    /** The account's store(s) this processing account may process for; same mode as the processing account. */
    storeIds: z.array(idOf('store')).min(1).max(100).optional(),
    storeId: idOf('store').optional(),
    externalRef: z.string().trim().min(1).max(200).optional(),
    /** Defaults to the partner key's mode; a test partner key cannot ask for live. */
    mode: modeSchema.optional(),
  })
  .strict()
  .refine((body) => body.storeId !== undefined || (body.storeIds?.length ?? 0) > 0, {
    message: 'storeId or storeIds is required',
    path: ['storeIds'],
  });

export const tpaSchema = z
  .object({
    object: z.literal('processing_account'),
    id: z.string(),
    accountId: z.string(),
    storeIds: z.array(z.string()),
    externalRef: z.string().nullable(),
    mode: modeSchema,
    createdAt: z.string(),
  })
  .openapi('ProcessingAccount');

export const tpaListSchema = z
  .object({ data: z.array(tpaSchema), pagination: pageInfoSchema })
  .openapi('ProcessingAccountList');

export const tpaParams = z.object({ tpaId: idOf('tpa') });
export const tpaKeyParams = z.object({ tpaId: idOf('tpa'), keyId: idOf('key') });

export const createProcessingKeySchema = z
  .object({
    /** Defaults to the processing account's mode; when given it must match it. */
    mode: modeSchema.optional(),
  })
  .strict();

/** A processing key as the partner API answers it; `secret` only in the answer to its creation. */
export const processingKeySchema = z
  .object({
    object: z.literal('processing_key'),
    id: z.string(),
    tpaId: z.string(),
    ...keyRecognitionFields,
    secret: z.string().optional(),
    label: z.string(),
    status: z.enum(['active', 'revoked']),
    mode: modeSchema,
    ...keyDateFields,
  })
  .openapi('ProcessingKey');

export const processingKeyListSchema = z.object({ data: z.array(processingKeySchema) }).openapi('ProcessingKeyList');

export function toTpa(tpa: ProcessingAccount) {
  return {
    object: 'processing_account' as const,
    id: tpa.id,
    accountId: tpa.accountId,
    storeIds: tpa.storeIds,
    externalRef: tpa.externalRef,
    mode: tpa.mode,
    createdAt: tpa.createdAt.toISOString(),
  };
}

/** The public shape of a processing key; pass the secret only right after minting. */
export function toProcessingKey(key: ApiKey, secret?: string) {
  return {
    object: 'processing_key' as const,
    id: key.id,
    tpaId: key.tpaId ?? '',
    ...keyRecognition(key),
    ...(secret ? { secret } : {}),
    label: key.name,
    status: key.status,
    mode: key.mode,
    ...keyDates(key),
  };
}
