import type { Db } from '../db/prisma';
import { conflict, notFound } from '../errors';
import type { PartnerStaff, User } from '../generated/prisma/client';
import { recordIamEvent } from './events';
import {
  canAssignRole,
  canManagePartnerStaff,
  canViewPartner,
  enforce,
  type Grants,
  type PartnerRole,
} from './policies';
import { findOrCreateUser, isUniqueViolation } from './users';

export type StaffWithUser = PartnerStaff & { user: User };

/** A partner the caller is not staff of answers 404 whether or not it exists (canViewPartner). */
async function assertPartnerExists(db: Db, partnerId: string): Promise<void> {
  if (!(await db.partner.findUnique({ where: { id: partnerId }, select: { id: true } }))) throw notFound('Partner');
}

export async function listStaff(db: Db, grants: Grants, partnerId: string): Promise<StaffWithUser[]> {
  enforce(canViewPartner(grants, partnerId));
  return db.partnerStaff.findMany({
    where: { partnerId },
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
  });
}

/** Adds the user with this e-mail (invited when new) as partner staff; a same-role repeat answers the existing row. */
export async function addStaff(
  db: Db,
  grants: Grants,
  partnerId: string,
  input: { email: string; role: PartnerRole },
): Promise<{ staff: StaffWithUser; created: boolean }> {
  // The caller's right before the invite (a refused caller creates no user); self-assignment once the e-mail names one.
  enforce(canManagePartnerStaff(grants, partnerId));
  await assertPartnerExists(db, partnerId);
  const { user } = await findOrCreateUser(db, { email: input.email });
  enforce(canAssignRole(grants, { userId: user.id, partnerId }));
  const existing = () =>
    db.partnerStaff.findUnique({
      where: { partnerId_userId: { partnerId, userId: user.id } },
      include: { user: true },
    });
  const replay = (staff: StaffWithUser) => {
    if (staff.role !== input.role)
      throw conflict(`The user is already staff as ${staff.role}; change the role instead`, 'ALREADY_STAFF');
    return { staff, created: false };
  };
  const found = await existing();
  if (found) return replay(found);
  try {
    const staff = await db.$transaction(async (tx) => {
      const row = await tx.partnerStaff.create({
        data: { partnerId, userId: user.id, role: input.role },
        include: { user: true },
      });
      await recordIamEvent(tx, {
        eventType: 's_staff_added',
        actorUserId: grants.userId,
        partnerId,
        properties: { userId: user.id, role: input.role },
      });
      return row;
    });
    return { staff, created: true };
  } catch (error) {
    const raced = isUniqueViolation(error) ? await existing() : null;
    if (raced) return replay(raced);
    throw error;
  }
}

export async function changeStaffRole(
  db: Db,
  grants: Grants,
  partnerId: string,
  userId: string,
  role: PartnerRole,
): Promise<StaffWithUser> {
  enforce(canAssignRole(grants, { userId, partnerId }));
  return db.$transaction(async (tx) => {
    const staff = await tx.partnerStaff.findUnique({
      where: { partnerId_userId: { partnerId, userId } },
      include: { user: true },
    });
    if (!staff) throw notFound('Staff member');
    if (staff.role === role) return staff;
    const updated = await tx.partnerStaff.update({
      where: { partnerId_userId: { partnerId, userId } },
      data: { role },
      include: { user: true },
    });
    await recordIamEvent(tx, {
      eventType: 's_staff_role_changed',
      actorUserId: grants.userId,
      partnerId,
      properties: { userId, fromRole: staff.role, toRole: role },
    });
    return updated;
  });
}

export async function removeStaff(db: Db, grants: Grants, partnerId: string, userId: string): Promise<StaffWithUser> {
  enforce(canManagePartnerStaff(grants, partnerId));
  return db.$transaction(async (tx) => {
    const staff = await tx.partnerStaff.findUnique({
      where: { partnerId_userId: { partnerId, userId } },
      include: { user: true },
    });
    if (!staff) throw notFound('Staff member');
    await tx.partnerStaff.delete({ where: { partnerId_userId: { partnerId, userId } } });
    await recordIamEvent(tx, {
      eventType: 's_staff_removed',
      actorUserId: grants.userId,
      partnerId,
      properties: { userId, role: staff.role },
    });
    return staff;
  });
}
