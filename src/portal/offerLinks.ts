import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What an offer link lets an anonymous visitor do: these actions, for this customer, on this target. */
export const portalActions = ['switch', 'credits.redeem', 'payment-methods.default', 'renewals.pay'] as const;
export type PortalAction = (typeof portalActions)[number];

export const offerLinkPayloadSchema = z
  .object({
    accountId: z.string(),
    mode: z.enum(['test', 'live']),
    storeId: z.string(),
    customerId: z.string(),
    actions: z.array(z.enum(portalActions)).min(1),
    /** Limits `switch` and `renewals.pay` to one subscription (or membership, for a switch) id. */
    targetId: z.string().nullable(),
    /** Expiry, epoch seconds. */
    exp: z.number().int(),
  })
  .strict();
export type OfferLinkPayload = z.infer<typeof offerLinkPayloadSchema>;

function sign(body: string, secret: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}

/** `<base64url(json)>.<base64url(hmac)>` */
export function signOfferLink(payload: OfferLinkPayload, secret: Buffer): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${sign(body, secret)}`;
}

/** The payload of a valid, unexpired link; null for anything tampered, malformed or expired. */
export function verifyOfferLink(link: string, secret: Buffer, nowMs: number): OfferLinkPayload | null {
  const [body, signature, extra] = link.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(body, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const payload = offerLinkPayloadSchema.safeParse(parsed);
  if (!payload.success || payload.data.exp * 1000 <= nowMs) return null;
  return payload.data;
}
