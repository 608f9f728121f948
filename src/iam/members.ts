import type { Db, Prisma } from '../db/prisma';
import { conflict, orNotFound } from '../errors';
import type { AccountMember, User } from '../generated/prisma/client';
import { recordIamEvent } from './events';
import {
  canAssignRole,
  canManageOrgMembership,
  canRemoveMember,
  canViewAccount,
  enforce,
  type AccountRef,
  type AccountRole,
  type Grants,
} from './policies';
import { findOrCreateUser, isUniqueViolation } from './users';

export type MemberWithUser = AccountMember & { user: User };

/** Holds the account row until the transaction ends, so last-admin checks of one account run one at a time. */
async function lockAccount(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
}

async function assertAnotherAdminRemains(tx: Prisma.TransactionClient, accountId: string, userId: string) {
  const others = await tx.accountMember.count({ where: { accountId, role: 'org:admin', userId: { not: userId } } });
  if (others === 0)
    throw conflict('An account must keep at least one org:admin: add another admin first', 'LAST_ADMIN');
}

/*
 * Each function takes the account already looked up (findAccountRef: the route's authorize step
 * loads it once per request) and checks the caller's right again: the policies are pure, so the
 * second check costs no query.
 */

export async function listMembers(db: Db, grants: Grants, account: AccountRef): Promise<MemberWithUser[]> {
  enforce(canViewAccount(grants, account));
  return db.accountMember.findMany({
    where: { accountId: account.id },
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
  });
}

/**
 * Adds the user with this e-mail (invited when new) to the account. A repeat with the same role
 * answers the existing membership (`created: false`); the primary key (account, user) is what
 * keeps concurrent adds to one row. The caller's right comes before the invite, so a refused
 * caller creates no user; self-assignment is known only once the e-mail names a user.
 */
export async function addMember(
  db: Db,
  grants: Grants,
  account: AccountRef,
  input: { email: string; role: AccountRole },
): Promise<{ member: MemberWithUser; created: boolean }> {
  const accountId = account.id;
  enforce(canManageOrgMembership(grants, account));
  const { user } = await findOrCreateUser(db, { email: input.email });
  enforce(canAssignRole(grants, { userId: user.id, account }));
  const existing = () =>
    db.accountMember.findUnique({
      where: { accountId_userId: { accountId, userId: user.id } },
      include: { user: true },
    });
  const replay = (member: MemberWithUser) => {
    if (member.role !== input.role)
      throw conflict(`The user is already a member as ${member.role}; change the role instead`, 'ALREADY_MEMBER');
    return { member, created: false };
  };
  const found = await existing();
  if (found) return replay(found);
  try {
    const member = await db.$transaction(async (tx) => {
      const row = await tx.accountMember.create({
        data: { accountId, userId: user.id, role: input.role },
        include: { user: true },
      });
      await recordIamEvent(tx, {
        eventType: 's_member_added',
        actorUserId: grants.userId,
        accountId,
        properties: { userId: user.id, role: input.role },
      });
      return row;
    });
    return { member, created: true };
  } catch (error) {
    const raced = isUniqueViolation(error) ? await existing() : null;
    if (raced) return replay(raced);
    throw error;
  }
}

async function findMember(tx: Prisma.TransactionClient, accountId: string, userId: string): Promise<MemberWithUser> {
  return orNotFound(
    await tx.accountMember.findUnique({
      where: { accountId_userId: { accountId, userId } },
      include: { user: true },
    }),
    'Member',
  );
}

/** Changes a member's role; demoting the last org:admin is refused (409 LAST_ADMIN). */
export async function changeMemberRole(
  db: Db,
  grants: Grants,
  account: AccountRef,
  userId: string,
  role: AccountRole,
): Promise<MemberWithUser> {
  const accountId = account.id;
  enforce(canAssignRole(grants, { userId, account }));
  return db.$transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const member = await findMember(tx, accountId, userId);
    if (member.role === role) return member;
    if (member.role === 'org:admin') await assertAnotherAdminRemains(tx, accountId, userId);
    const updated = await tx.accountMember.update({
      where: { accountId_userId: { accountId, userId } },
      data: { role },
      include: { user: true },
    });
    await recordIamEvent(tx, {
      eventType: 's_role_changed',
      actorUserId: grants.userId,
      accountId,
      properties: { userId, fromRole: member.role, toRole: role },
    });
    return updated;
  });
}

/** Removes a member (anyone may leave on their own); removing the last org:admin is refused (409 LAST_ADMIN). */
export async function removeMember(
  db: Db,
  grants: Grants,
  account: AccountRef,
  userId: string,
): Promise<MemberWithUser> {
  const accountId = account.id;
  enforce(canRemoveMember(grants, account, userId));
  return db.$transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const member = await findMember(tx, accountId, userId);
    if (member.role === 'org:admin') await assertAnotherAdminRemains(tx, accountId, userId);
    await tx.accountMember.delete({ where: { accountId_userId: { accountId, userId } } });
    await recordIamEvent(tx, {
      eventType: 's_member_removed',
      actorUserId: grants.userId,
      accountId,
      properties: { userId, role: member.role },
    });
    return member;
  });
}
