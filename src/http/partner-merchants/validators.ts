import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import type { Account, ApiKey } from '../../generated/prisma/client';
import { keyDateFields, keyDates, keyRecognition, keyRecognitionFields } from '../core/apiKeyView';
import { pageInfoSchema } from '../lists/validators';

export { pageQuerySchema } from '../lists/validators';

const modeSchema = z.enum(['test', 'live']);

export const createMerchantSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    /** The partner's own reference; a replay with the same one returns the same account. */
    externalRef: z.string().trim().min(1).max(200).optional(),
    plan: z.enum(['standard', 'premium']).default('standard'),
  })
  .strict();

export const merchantSchema = z
  .object({
    object: z.literal('merchant'),
    id: z.string(),
    name: z.string(),
    externalRef: z.string().nullable(),
    plan: z.enum(['standard', 'premium']),
    createdAt: z.string(),
  })
  .openapi('Merchant');

export const createdMerchantSchema = merchantSchema.extend({ created: z.boolean() }).openapi('CreatedMerchant');

export const merchantListSchema = z
  .object({ data: z.array(merchantSchema), pagination: pageInfoSchema })
  .openapi('MerchantList');

export const merchantParams = z.object({ accountId: idOf('acc') });
export const merchantKeyParams = z.object({ accountId: idOf('acc'), keyId: idOf('key') });

export const createCrmKeySchema = z
  .object({
    name: z.string().trim().min(1).max(200).default('CRM key'),
    role: z.enum(['org:admin', 'org:member']).default('org:admin'),
    /** Defaults to the partner key's mode; a test partner key cannot ask for live. */
    mode: modeSchema.optional(),
  })
  .strict();

/** A CRM key as the partner API answers it; `token` only in the answer to its creation. */
export const crmKeySchema = z
  .object({
    object: z.literal('crm_key'),
    id: z.string(),
    accountId: z.string(),
    ...keyRecognitionFields,
    token: z.string().optional(),
    name: z.string(),
    role: z.enum(['org:admin', 'org:member']),
    mode: modeSchema,
    status: z.enum(['active', 'revoked']),
    ...keyDateFields,
  })
  .openapi('CrmKey');

export const crmKeyListSchema = z.object({ data: z.array(crmKeySchema) }).openapi('CrmKeyList');

export function toMerchant(account: Account) {
  return {
    object: 'merchant' as const,
    id: account.id,
    name: account.name,
    externalRef: account.externalRef,
    plan: account.plan,
    createdAt: account.createdAt.toISOString(),
  };
}

/** The public shape of a CRM key; pass the token only right after minting. */
export function toCrmKey(key: ApiKey, token?: string) {
  return {
    object: 'crm_key' as const,
    id: key.id,
    accountId: key.accountId ?? '',
    ...keyRecognition(key),
    ...(token ? { token } : {}),
    name: key.name,
    role: key.role === 'org:member' ? ('org:member' as const) : ('org:admin' as const),
    mode: key.mode,
    status: key.status,
    ...keyDates(key),
  };
}
