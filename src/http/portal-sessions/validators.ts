import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import { portalActions } from '../../portal/offerLinks';

export const loginRequestSchema = z
  .object({
    storeId: idOf('store'),
    email: z.string().email().max(254),
  })
  .strict()
  .openapi('PortalLoginRequest');
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z
  .object({
    loginId: z.string(),
    expiresAt: z.string(),
    /** Always the same answer whether or not the e-mail belongs to a customer (no enumeration). */
    message: z.string(),
  })
  .openapi('PortalLoginResponse');

export const confirmRequestSchema = z
  .object({
    loginId: idOf('plc'),
    code: z.string().regex(/^\d{6}$/, 'code is 6 digits'),
  })
  .strict()
  .openapi('PortalLoginConfirmRequest');
export type ConfirmRequest = z.infer<typeof confirmRequestSchema>;

export const sessionResponseSchema = z
  .object({
    token: z.string(),
    expiresAt: z.string(),
    storeId: z.string(),
    customerId: z.string().nullable(),
    kind: z.enum(['customer', 'offer']),
    emailVerified: z.boolean(),
    allowedActions: z.array(z.string()),
  })
  .openapi('PortalSession');

export const offerSessionRequestSchema = z
  .object({ link: z.string().min(10).max(4096) })
  .strict()
  .openapi('PortalOfferSessionRequest');

export const okResponseSchema = z.object({ ok: z.literal(true) });

export const createOfferLinkRequestSchema = z
  .object({
    storeId: idOf('store'),
    customerId: idOf('cus'),
    actions: z.array(z.enum(portalActions)).min(1),
    targetId: idOf('sub', 'mem').optional(),
    expiresInMinutes: z.number().int().min(1).max(43200).default(1440),
  })
  .strict()
  .openapi('CreatePortalOfferLinkRequest');
export type CreateOfferLinkRequest = z.infer<typeof createOfferLinkRequestSchema>;

export const offerLinkResponseSchema = z
  .object({
    link: z.string().optional().openapi({
      description:
        'Opens a portal session; shown once: a replay of this request (same Idempotency-Key) answers without it',
    }),
    expiresAt: z.string(),
  })
  .openapi('PortalOfferLink');
