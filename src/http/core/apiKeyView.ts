import { z } from 'zod';
import './openapi';
import { maskedToken } from '../../domain/apiKeys';
import type { ApiKey } from '../../generated/prisma/client';

/** How a key is recognised without its secret: its prefix, its last 4 characters and the two joined. */
export const keyRecognitionFields = {
  prefix: z.string(),
  last4: z
    .string()
    .nullable()
    .openapi({ description: 'Last 4 characters of the token; null for keys minted before they were kept' }),
  display: z.string().openapi({ description: 'prefix…last4, e.g. sk_crm_test_…abcd' }),
};

/** When a key was last used and revoked (null: not yet), and when it was minted. */
export const keyDateFields = {
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
};

export function keyRecognition(key: ApiKey) {
  return { prefix: key.prefix, last4: key.last4, display: maskedToken(key.prefix, key.last4) };
}

export function keyDates(key: ApiKey) {
  return {
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}
