import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';
import { domainStatuses } from '../../customDomains/domains';
import { normaliseHostname, verificationRecord } from '../../domain/hostnames';
import type { CustomDomain } from '../../generated/prisma/client';

export const createDomainSchema = z
  .object({
    storeId: idOf('store'),
    hostname: z
      .string()
      .max(254)
      .refine((value) => normaliseHostname(value) !== null, 'a public hostname such as shop.example.com')
      .openapi({ description: 'Stored lower-case without a trailing dot; internationalised names in punycode' }),
  })
  .strict();

export const domainSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    hostname: z.string(),
    status: z.enum(domainStatuses),
    verification: z
      .object({ type: z.literal('TXT'), name: z.string(), value: z.string() })
      .openapi({ description: 'Publish this TXT record, then call verify' }),
    lastError: z.string().nullable(),
    lastCheckedAt: z.string().nullable(),
    verifiedAt: z.string().nullable(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
  })
  .openapi('CustomDomain');

export const domainParams = idParam('id', 'dom');

export function toPublicDomain(domain: CustomDomain): z.input<typeof domainSchema> {
  return {
    id: domain.id,
    storeId: domain.storeId,
    hostname: domain.hostname,
    status: domain.status as (typeof domainStatuses)[number],
    verification: { type: 'TXT', ...verificationRecord(domain.hostname, domain.verificationToken) },
    lastError: domain.lastError,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    verifiedAt: domain.verifiedAt?.toISOString() ?? null,
    mode: domain.mode,
    createdAt: domain.createdAt.toISOString(),
  };
}
