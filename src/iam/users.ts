import type { Db, Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import { unauthenticated } from '../errors';
import type { User } from '../generated/prisma/client';
import type { AccountRole, Grants, PartnerRole } from './policies';
import type { VerifiedSession } from './sessions';

/** E-mail addresses are one user whatever their case: stored lower-cased (a CHECK constraint holds it). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'P2002';
}

/** The user with this e-mail, created when there is none (an invitation); concurrent calls get one user. */
export async function findOrCreateUser(
  db: Db | Prisma.TransactionClient,
  input: { email: string; name?: string },
): Promise<{ user: User; created: boolean }> {
  const email = normalizeEmail(input.email);
  const existing = await db.user.findUnique({ where: { email } });
  if (existing) return { user: existing, created: false };
  try {
    const user = await db.user.create({ data: { id: newId('user'), email, name: input.name ?? null } });
    return { user, created: true };
  } catch (error) {
    // Another request created it between the read and the write: the unique index let one win.
    if (!isUniqueViolation(error)) throw error;
    return { user: await db.user.findUniqueOrThrow({ where: { email } }), created: false };
  }
}

/**
 * The user a verified session names: `sub` is the usr_ id (embedded provider) or the external
 * provider's subject; an unknown subject with a verified e-mail is linked once to the user invited
 * with that e-mail who has no subject yet.
 */
export async function resolveSessionUser(db: Db, session: VerifiedSession): Promise<User> {
  const bySubject = session.subject.startsWith('usr_')
    ? await db.user.findUnique({ where: { id: session.subject } })
    : await db.user.findUnique({ where: { idpSubject: session.subject } });
  if (bySubject) return bySubject;
  if (session.email && !session.subject.startsWith('usr_')) {
    const linked = await db.user.updateMany({
      where: { email: normalizeEmail(session.email), idpSubject: null },
      data: { idpSubject: session.subject },
    });
    if (linked.count === 1) return db.user.findUniqueOrThrow({ where: { idpSubject: session.subject } });
  }
  throw unauthenticated('Session token is not valid: no user of this engine matches the session');
}

/** Every role the user holds, for the policy functions. */
export async function loadGrants(db: Db, userId: string): Promise<Grants> {
  const [memberships, staff] = await Promise.all([
    db.accountMember.findMany({ where: { userId }, orderBy: { accountId: 'asc' } }),
    db.partnerStaff.findMany({ where: { userId }, orderBy: { partnerId: 'asc' } }),
  ]);
  return {
    userId,
    memberships: memberships.map((row) => ({ accountId: row.accountId, role: row.role as AccountRole })),
    staff: staff.map((row) => ({ partnerId: row.partnerId, role: row.role as PartnerRole })),
  };
}
