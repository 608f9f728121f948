import type { Db, Prisma } from '../db/prisma';
import { notFound } from '../errors';
import type { Partner } from '../generated/prisma/client';
import { recordIamEvent } from './events';
import { canManagePartners, canViewPartner, enforce, type Grants } from './policies';

/** A partner's answer stays small: at most this many of its merchant accounts, newest first; `accountCount` has them all. */
export const partnerAccountsShown = 100;

export interface PartnerDetail {
  partner: Partner;
  accounts: { id: string; name: string }[];
  accountCount: number;
}

/** The partners the user is staff of, oldest first. */
export async function listOwnPartners(db: Db, grants: Grants): Promise<Partner[]> {
  return db.partner.findMany({
    where: { id: { in: grants.staff.map((staff) => staff.partnerId) } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** The partner entity and its merchant accounts, for its staff (anyone else: 404, canViewPartner). */
export async function viewPartner(db: Db, grants: Grants, partnerId: string): Promise<PartnerDetail> {
  enforce(canViewPartner(grants, partnerId));
  const [partner, accounts, accountCount] = await Promise.all([
    db.partner.findUnique({ where: { id: partnerId } }),
    db.account.findMany({
      where: { partnerId },
      select: { id: true, name: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: partnerAccountsShown,
    }),
    db.account.count({ where: { partnerId } }),
  ]);
  if (!partner) throw notFound('Partner');
  return { partner, accounts, accountCount };
}

/**
 * Holds the partner row until the transaction ends, so two renames at once record the name each
 * one really replaced (fromName) rather than both the same.
 */
async function lockPartner(tx: Prisma.TransactionClient, partnerId: string): Promise<Partner | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM partners WHERE id = ${partnerId} FOR UPDATE`;
  return row ? tx.partner.findUnique({ where: { id: partnerId } }) : null;
}

/** Renames the partner (partner:admin only, canManagePartners); the same name again changes nothing and records nothing. */
export async function updatePartner(
  db: Db,
  grants: Grants,
  partnerId: string,
  input: { name: string },
): Promise<Partner> {
  enforce(canManagePartners(grants, partnerId));
  return db.$transaction(async (tx) => {
    const partner = await lockPartner(tx, partnerId);
    if (!partner) throw notFound('Partner');
    if (partner.name === input.name) return partner;
    const updated = await tx.partner.update({ where: { id: partnerId }, data: { name: input.name } });
    await recordIamEvent(tx, {
      eventType: 's_partner_updated',
      actorUserId: grants.userId,
      partnerId,
      properties: { fromName: partner.name, toName: input.name },
    });
    return updated;
  });
}
