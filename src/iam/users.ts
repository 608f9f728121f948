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

const noUser = () => unauthenticated('Session token is not valid: no user of this engine matches the session');

/**
 * The user a verified session names. The embedded provider signs tokens for engine users only, so
 * its `sub` is the usr_ id. An external provider's `sub` is its own: it is looked up by (issuer,
 * subject) in user_identities and never read as a usr_ id. An unknown subject is linked once to the
 * user with the e-mail the provider marks verified, when that user has no subject of this issuer yet.
 */
export async function resolveSessionUser(db: Db, session: VerifiedSession): Promise<User> {
  if (session.provider === 'embedded') {
    const user = await db.user.findUnique({ where: { id: session.subject } });
    if (!user) throw noUser();
    return user;
  }
  const { issuer, subject } = session;
  const linked = await db.userIdentity.findUnique({
    where: { issuer_subject: { issuer, subject } },
    include: { user: true },
  });
  if (linked) return linked.user;
  if (!session.email) throw noUser();
  const user = await db.user.findUnique({
    where: { email: normalizeEmail(session.email) },
    include: { identities: { where: { issuer } } },
  });
  if (!user || user.identities.length > 0) throw noUser();
  try {
    await db.userIdentity.create({ data: { issuer, subject, userId: user.id } });
  } catch (error) {
    // A concurrent sign-in linked this subject (fine) or another subject of this issuer (refused):
    // the keys (issuer, subject) and (issuer, user) let only one link stand.
    if (!isUniqueViolation(error)) throw error;
    const winner = await db.userIdentity.findUnique({
      where: { issuer_subject: { issuer, subject } },
      include: { user: true },
    });
    if (!winner) throw noUser();
    return winner.user;
  }
  const { identities: _identities, ...linkedUser } = user;
  return linkedUser;
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
