import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import { maskedToken } from '../../domain/apiKeys';
import type { ApiKey, Partner } from '../../generated/prisma/client';
import type { MemberWithUser } from '../../iam/members';
import { partnerAccountsShown, type PartnerDetail } from '../../iam/partners';
import { keyDateFields, keyDates } from '../core/apiKeyView';
import { accountRoles, partnerRoles, type Grants } from '../../iam/policies';
import type { StaffWithUser } from '../../iam/staff';
import type { User } from '../../generated/prisma/client';

const accountRole = z.enum(accountRoles);
const partnerRole = z.enum(partnerRoles);
const email = z.string().trim().max(320).email();

export const accountParams = z.object({ accountId: idOf('acc') }).strict();
export const memberParams = z.object({ accountId: idOf('acc'), userId: idOf('usr') }).strict();
export const partnerParams = z.object({ partnerId: idOf('par') }).strict();
export const staffParams = z.object({ partnerId: idOf('par'), userId: idOf('usr') }).strict();
export const serviceKeyParams = z.object({ accountId: idOf('acc'), keyId: idOf('key') }).strict();

export const addMemberSchema = z.object({ email, role: accountRole }).strict();
export const memberRoleSchema = z.object({ role: accountRole }).strict();
export const addStaffSchema = z.object({ email, role: partnerRole }).strict();
export const staffRoleSchema = z.object({ role: partnerRole }).strict();
/** Only the name: a partner's kind (payfac, crm_only) is the operator's to set (admin create-partner). */
export const updatePartnerSchema = z.object({ name: z.string().trim().min(1).max(200) }).strict();
export const createServiceKeySchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    /** Test unless asked: a new key should not move real money by accident. */
    mode: z.enum(['test', 'live']).default('test'),
  })
  .strict();

export const meSchema = z
  .object({
    object: z.literal('user'),
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    memberships: z.array(z.object({ accountId: z.string(), role: accountRole })),
    partnerRoles: z.array(z.object({ partnerId: z.string(), role: partnerRole })),
  })
  .openapi('IamMe');

export const memberSchema = z
  .object({
    object: z.literal('account_member'),
    accountId: z.string(),
    userId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: accountRole,
    createdAt: z.string(),
  })
  .openapi('AccountMember');
export const addedMemberSchema = memberSchema.extend({ created: z.boolean() }).openapi('AddedAccountMember');
export const memberListSchema = z.object({ data: z.array(memberSchema) }).openapi('AccountMemberList');

export const staffSchema = z
  .object({
    object: z.literal('partner_staff'),
    partnerId: z.string(),
    userId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: partnerRole,
    createdAt: z.string(),
  })
  .openapi('PartnerStaff');
export const addedStaffSchema = staffSchema.extend({ created: z.boolean() }).openapi('AddedPartnerStaff');
export const staffListSchema = z.object({ data: z.array(staffSchema) }).openapi('PartnerStaffList');

export const partnerSchema = z
  .object({
    object: z.literal('partner'),
    id: z.string(),
    name: z.string(),
    kind: z.enum(['payfac', 'crm_only']),
    role: partnerRole.openapi({ description: "The signed-in user's role on this partner" }),
    createdAt: z.string(),
  })
  .openapi('IamPartner');
export const partnerListSchema = z.object({ data: z.array(partnerSchema) }).openapi('IamPartnerList');
export const partnerDetailSchema = partnerSchema
  .extend({
    accounts: z.array(z.object({ id: z.string(), name: z.string() })).openapi({
      description: `Its merchant accounts, newest first: at most ${partnerAccountsShown} (accountCount has them all)`,
    }),
    accountCount: z.number().int(),
  })
  .openapi('IamPartnerDetail');

export const removedSchema = z
  .object({ deleted: z.literal(true), userId: z.string(), role: z.string() })
  .openapi('IamRoleRemoved');

/** A merchant service key; `token` only in the answer to its creation. */
export const serviceKeySchema = z
  .object({
    object: z.literal('service_key'),
    id: z.string(),
    accountId: z.string(),
    prefix: z.string(),
    display: z.string().openapi({ description: 'prefix…last4, e.g. sk_crm_test_…abcd' }),
    token: z.string().optional(),
    name: z.string(),
    role: z.string(),
    mode: z.enum(['test', 'live']),
    status: z.enum(['active', 'revoked']),
    ...keyDateFields,
  })
  .openapi('ServiceKey');
export const serviceKeyListSchema = z.object({ data: z.array(serviceKeySchema) }).openapi('ServiceKeyList');

export function toMe(user: User, grants: Grants) {
  return {
    object: 'user' as const,
    id: user.id,
    email: user.email,
    name: user.name,
    memberships: [...grants.memberships],
    partnerRoles: [...grants.staff],
  };
}

export function toMember(member: MemberWithUser) {
  return {
    object: 'account_member' as const,
    accountId: member.accountId,
    userId: member.userId,
    email: member.user.email,
    name: member.user.name,
    role: accountRole.parse(member.role),
    createdAt: member.createdAt.toISOString(),
  };
}

export function toStaff(staff: StaffWithUser) {
  return {
    object: 'partner_staff' as const,
    partnerId: staff.partnerId,
    userId: staff.userId,
    email: staff.user.email,
    name: staff.user.name,
    role: partnerRole.parse(staff.role),
    createdAt: staff.createdAt.toISOString(),
  };
}

export function toPartner(partner: Partner, grants: Grants) {
  return {
    object: 'partner' as const,
    id: partner.id,
    name: partner.name,
    kind: partner.kind,
    role: partnerRole.parse(grants.staff.find((staff) => staff.partnerId === partner.id)?.role),
    createdAt: partner.createdAt.toISOString(),
  };
}

export function toPartnerDetail({ partner, accounts, accountCount }: PartnerDetail, grants: Grants) {
  return { ...toPartner(partner, grants), accounts, accountCount };
}

export function toServiceKey(key: ApiKey, token?: string) {
  return {
    object: 'service_key' as const,
    id: key.id,
    accountId: key.accountId ?? '',
    prefix: key.prefix,
    display: maskedToken(key.prefix, key.last4),
    ...(token ? { token } : {}),
    name: key.name,
    role: key.role,
    mode: key.mode,
    status: key.status,
    ...keyDates(key),
  };
}
