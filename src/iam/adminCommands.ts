import type { Db } from '../db/prisma';
import { recordIamEvent } from './events';
import { issueSessionToken, type IdpConfig } from './embeddedIdp';
import type { AccountRole, PartnerRole } from './policies';
import { findOrCreateUser, loadGrants } from './users';

export class IamCommandError extends Error {}

/** What `admin create-user` prints: the user, its roles and a session token of the embedded provider. */
export interface CreatedUserOutput {
  userId: string;
  email: string;
  created: boolean;
  memberships: { accountId: string; role: AccountRole }[];
  partnerRoles: { partnerId: string; role: PartnerRole }[];
  sessionToken: string;
  expiresAt: string;
}

/**
 * Creates the user (or finds it by e-mail) and sets the given roles: the operator's way to make the
 * first admin of an account or partner, which the API cannot (nobody may assign themselves a role).
 */
export async function createUserCommand(
  db: Db,
  cfg: IdpConfig,
  input: {
    email: string;
    name?: string;
    account?: { accountId: string; role: AccountRole };
    partner?: { partnerId: string; role: PartnerRole };
  },
): Promise<CreatedUserOutput> {
  if (input.account && !(await db.account.findUnique({ where: { id: input.account.accountId } })))
    throw new IamCommandError(`no merchant account with id ${input.account.accountId}`);
  if (input.partner && !(await db.partner.findUnique({ where: { id: input.partner.partnerId } })))
    throw new IamCommandError(`no partner with id ${input.partner.partnerId}`);
  const { user, created } = await findOrCreateUser(db, { email: input.email, name: input.name });
  await db.$transaction(async (tx) => {
    if (input.account) {
      const { accountId, role } = input.account;
      await tx.accountMember.upsert({
        where: { accountId_userId: { accountId, userId: user.id } },
        create: { accountId, userId: user.id, role },
        update: { role },
      });
      await recordIamEvent(tx, {
        eventType: 's_member_added',
        actorUserId: null,
        accountId,
        properties: { userId: user.id, role },
      });
    }
    if (input.partner) {
      const { partnerId, role } = input.partner;
      await tx.partnerStaff.upsert({
        where: { partnerId_userId: { partnerId, userId: user.id } },
        create: { partnerId, userId: user.id, role },
        update: { role },
      });
      await recordIamEvent(tx, {
        eventType: 's_staff_added',
        actorUserId: null,
        partnerId,
        properties: { userId: user.id, role },
      });
    }
  });
  const grants = await loadGrants(db, user.id);
  return {
    userId: user.id,
    email: user.email,
    created,
    memberships: [...grants.memberships],
    partnerRoles: [...grants.staff],
    ...(await issueSessionToken(cfg, user.id)),
  };
}

/** What `admin session` prints: a fresh session token for an existing user. */
export async function sessionCommand(db: Db, cfg: IdpConfig, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new IamCommandError(`no user with id ${userId}`);
  return { userId: user.id, email: user.email, ...(await issueSessionToken(cfg, user.id)) };
}
