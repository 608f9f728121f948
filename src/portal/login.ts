import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { normaliseEmail } from '../commerce/customers';
import { newId } from '../domain/ids';
import { notFound, unauthenticated, unavailable } from '../errors';
import type { Mailer } from './mailer';
import { openPortalSession } from './session';
import { hashLoginCode, newLoginCode, sameHash } from './tokens';

const maxCodeAttempts = 5;
const invalidCode = 'The code is wrong, expired or already used; request a new one';

/**
 * Records a one-time login code for an e-mail of a store and mails it when the e-mail belongs to a
 * customer of the store. The answer is the same either way, so it never tells who is a customer.
 */
export async function requestLoginCode(
  deps: { db: Db; config: Config; mailer: Mailer },
  input: { storeId: string; email: string },
) {
  const { db, config } = deps;
  const store = await db.store.findUnique({ where: { id: input.storeId } });
  if (!store) throw notFound('Store');
  if (store.mode === 'live' && !config.SMTP_URL) {
    throw unavailable(
      'Live-mode portal sign-in needs e-mail delivery (SMTP_URL) configured by the operator',
      'EMAIL_NOT_CONFIGURED',
    );
  }
  const email = normaliseEmail(input.email);
  const customer = await db.customer.findFirst({
    where: { accountId: store.accountId, mode: store.mode, email, OR: [{ storeId: null }, { storeId: store.id }] },
    orderBy: { createdAt: 'asc' },
  });
  const code = newLoginCode();
  const loginId = newId('portalLoginCode');
  const expiresAt = new Date(Date.now() + config.PORTAL_LOGIN_CODE_TTL_MINUTES * 60_000);
  await db.portalLoginCode.create({
    data: {
      id: loginId,
      accountId: store.accountId,
      mode: store.mode,
      storeId: store.id,
      email,
      customerId: customer?.id ?? null,
      codeHash: hashLoginCode(loginId, code),
      expiresAt,
    },
  });
  if (customer) {
    await deps.mailer.send({
      mode: store.mode,
      to: email,
      subject: `Your ${store.name} sign-in code`,
      text: `Your sign-in code is ${code}. It expires in ${config.PORTAL_LOGIN_CODE_TTL_MINUTES} minutes.`,
      meta: { loginId, code, storeId: store.id },
    });
  }
  return { loginId, expiresAt };
}

/**
 * Exchanges a login code for an e-mail-verified customer session. Every wrong, expired, used or
 * over-tried code is refused alike (unauthenticated).
 */
export async function confirmLoginCode(deps: { db: Db; config: Config }, input: { loginId: string; code: string }) {
  const { db, config } = deps;
  // Count the attempt first (conditional update), so guessing is capped even under concurrency.
  const counted = await db.portalLoginCode.updateMany({
    where: { id: input.loginId, consumedAt: null, attempts: { lt: maxCodeAttempts }, expiresAt: { gt: new Date() } },
    data: { attempts: { increment: 1 } },
  });
  if (counted.count !== 1) throw unauthenticated(invalidCode);
  const login = await db.portalLoginCode.findUniqueOrThrow({ where: { id: input.loginId } });
  if (!sameHash(login.codeHash, hashLoginCode(login.id, input.code)) || !login.customerId)
    throw unauthenticated(invalidCode);
  const consumed = await db.portalLoginCode.updateMany({
    where: { id: login.id, consumedAt: null },
    data: { consumedAt: new Date() },
  });
  if (consumed.count !== 1) throw unauthenticated(invalidCode);
  return openPortalSession(db, new Date(Date.now() + config.PORTAL_SESSION_TTL_MINUTES * 60_000), {
    accountId: login.accountId,
    mode: login.mode,
    storeId: login.storeId,
    kind: 'customer',
    customerId: login.customerId,
    email: login.email,
    emailVerified: true,
    allowedActions: [],
  });
}
