/**
 * Who may do what in identity management, as pure functions of the caller's grants (docs/iam.md).
 * Each answers a Decision; `enforce` turns a refusal into the DomainError the API answers with.
 * Order inside each: an account or partner the caller has no relation to does not exist for it
 * (404, nothing leaks), then self-assignment (always denied), then the role the action needs.
 */
import { DomainError } from '../errors';

export const accountRoles = ['org:admin', 'org:member'] as const;
export const partnerRoles = ['partner:admin', 'partner:member'] as const;
export type AccountRole = (typeof accountRoles)[number];
export type PartnerRole = (typeof partnerRoles)[number];

/** The signed-in user's roles, loaded once per request. */
export interface Grants {
  userId: string;
  memberships: readonly { accountId: string; role: AccountRole }[];
  staff: readonly { partnerId: string; role: PartnerRole }[];
}

export interface AccountRef {
  id: string;
  partnerId: string;
}

export type Decision =
  { allowed: true } | { allowed: false; kind: 'not_found' | 'forbidden'; code: string; message: string };

const allow: Decision = { allowed: true };
const hidden = (what: 'Account' | 'Partner'): Decision => ({
  allowed: false,
  kind: 'not_found',
  code: 'NOT_FOUND',
  message: `${what} not found`,
});
const selfAssignment: Decision = {
  allowed: false,
  kind: 'forbidden',
  code: 'self_assignment_denied',
  message: 'Users cannot assign roles to themselves',
};
const partnerAdminRequired: Decision = {
  allowed: false,
  kind: 'forbidden',
  code: 'partneradmin_rx_option_required',
  message: 'This action needs the partner:admin role on this partner',
};
const orgAdminRequired: Decision = {
  allowed: false,
  kind: 'forbidden',
  code: 'FORBIDDEN',
  message: "This action needs org:admin on the account or partner:admin on the account's partner",
};

const accountRole = (grants: Grants, accountId: string) =>
  grants.memberships.find((membership) => membership.accountId === accountId)?.role;
const partnerRole = (grants: Grants, partnerId: string) =>
  grants.staff.find((staff) => staff.partnerId === partnerId)?.role;

/** Members of the account and staff of its partner see it (and its members); nobody else knows it exists. */
export function canViewAccount(grants: Grants, account: AccountRef): Decision {
  return accountRole(grants, account.id) || partnerRole(grants, account.partnerId) ? allow : hidden('Account');
}

/** Add, remove and read service keys of an account: its org:admins and its partner's partner:admins. */
export function canManageOrgMembership(grants: Grants, account: AccountRef): Decision {
  const visible = canViewAccount(grants, account);
  if (!visible.allowed) return visible;
  if (accountRole(grants, account.id) === 'org:admin') return allow;
  if (partnerRole(grants, account.partnerId) === 'partner:admin') return allow;
  return orgAdminRequired;
}

/** Remove a member: anyone who sees the account may leave it; removing someone else is managing membership. */
export function canRemoveMember(grants: Grants, account: AccountRef, userId: string): Decision {
  return userId === grants.userId ? canViewAccount(grants, account) : canManageOrgMembership(grants, account);
}

/** Staff of a partner see it and its staff list; nobody else knows it exists. */
export function canViewPartner(grants: Grants, partnerId: string): Decision {
  return partnerRole(grants, partnerId) ? allow : hidden('Partner');
}

/** Add, remove and change partner staff: the partner's partner:admins. */
export function canManagePartnerStaff(grants: Grants, partnerId: string): Decision {
  const visible = canViewPartner(grants, partnerId);
  if (!visible.allowed) return visible;
  return partnerRole(grants, partnerId) === 'partner:admin' ? allow : partnerAdminRequired;
}

/** Change the partner entity itself (its name: POST /partners/{partnerId}): the partner's partner:admins. */
export function canManagePartners(grants: Grants, partnerId: string): Decision {
  return canManagePartnerStaff(grants, partnerId);
}

/** Give `targetUserId` a role on an account or a partner: never oneself, whatever one's own role. */
export function canAssignRole(
  grants: Grants,
  target: { userId: string; account: AccountRef } | { userId: string; partnerId: string },
): Decision {
  const scope = 'account' in target ? canViewAccount(grants, target.account) : canViewPartner(grants, target.partnerId);
  if (!scope.allowed) return scope;
  if (target.userId === grants.userId) return selfAssignment;
  return 'account' in target
    ? canManageOrgMembership(grants, target.account)
    : canManagePartnerStaff(grants, target.partnerId);
}

/** Throws the refusal of a Decision as a DomainError. */
export function enforce(decision: Decision): void {
  if (!decision.allowed) throw new DomainError(decision.kind, decision.code, decision.message);
}
