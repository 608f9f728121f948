import { z } from 'zod';
import '../core/openapi';

export const authTestSchema = z
  .object({
    ok: z.literal(true),
    keyType: z.enum(['crm', 'processing']),
    keyId: z.string(),
    mode: z.enum(['test', 'live']),
    role: z.enum(['org:admin', 'org:member']),
    account: z.object({ id: z.string(), name: z.string(), plan: z.enum(['standard', 'premium']) }),
    partnerId: z.string(),
    /** Processing keys only. */
    tpaId: z.string().optional(),
    storeIds: z.array(z.string()).optional(),
  })
  .openapi('AuthTest');
