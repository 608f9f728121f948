import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { normaliseEmail } from '../commerce/customers';
import { newId } from '../domain/ids';
import { notFound, rateLimited, unauthenticated, unavailable } from '../errors';
import type { Logger } from '../logging/logger';
import { renderStoreEmail } from '../email/templates';
import type { PortalLoginLimits } from './loginLimits';
import type { Mailer } from './mailer';
import { openPortalSession } from './session';
import { hashLoginCode, newLoginCode, sameHash } from './tokens';

const maxCodeAttempts = 5;
const dayMs = 86_400_000;
const invalidCode = 'The code is wrong, expired or already used; request a new one';

export interface LoginDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  limits: PortalLoginLimits;
}

/**
 * Refuses a login while the codes of this (store, e-mail) failed to confirm
 * PORTAL_LOGIN_MAX_FAILED_CONFIRMS_PER_DAY times in the last 24 hours; Retry-After is when enough of
 * those failures are older than a day. Counted from the codes themselves (Postgres), so every API
 * process sees the same count, and alike for customers and strangers.
 */
async function refuseAfterDailyFailures(db: Db, cap: number, storeId: string, email: string): Promise<void> {
  const now = Date.now();
  const codes = await db.portalLoginCode.findMany({
    where: { storeId, email, createdAt: { gt: new Date(now - dayMs) }, attempts: { gt: 0 } },
    select: { attempts: true, consumedAt: true, createdAt: true },
    orderBy: { createdAt: 'asc' },
  });
  const failuresOf = (code: (typeof codes)[number]) => code.attempts - (code.consumedAt ? 1 : 0);
  let failed = codes.reduce((sum, code) => sum + failuresOf(code), 0);
  if (failed < cap) return;
  // The failures age out oldest first: the caller may come back once the count drops under the cap.
  let freedAt = now + dayMs;
  for (const code of codes) {
    failed -= failuresOf(code);
    if (failed < cap) {
      freedAt = code.createdAt.getTime() + dayMs;
      break;
    }
  }
  throw rateLimited(
    `Too many wrong sign-in codes for this e-mail today (at most ${cap} in 24 hours); retry after ${Math.ceil((freedAt - now) / 1000)} s`,
    (freedAt - now) / 1000,
  );
}

/**
 * Records a one-time login code for an e-mail of a store and mails it when the e-mail belongs to a
 * customer of the store. The answer, its limits and its timing are the same either way (the mail
 * leaves after the answer), so it never tells who is a customer. The new code is the only live one
 * of its (store, e-mail): earlier codes stop working.
 */
export async function requestLoginCode(deps: LoginDeps, input: { storeId: string; email: string; clientIp: string }) {
  const { db, config } = deps;
  const email = normaliseEmail(input.email);
  await deps.limits.login({ storeId: input.storeId, email, clientIp: input.clientIp });
  const store = await db.store.findUnique({ where: { id: input.storeId } });
  if (!store) throw notFound('Store');
  if (store.mode === 'live' && !config.SMTP_URL) {
    throw unavailable(
      'Live-mode portal sign-in needs e-mail delivery (SMTP_URL) configured by the operator',
      'EMAIL_NOT_CONFIGURED',
    );
  }
  await refuseAfterDailyFailures(db, config.PORTAL_LOGIN_MAX_FAILED_CONFIRMS_PER_DAY, store.id, email);
  const customer = await db.customer.findFirst({
    where: { accountId: store.accountId, mode: store.mode, email, OR: [{ storeId: null }, { storeId: store.id }] },
    orderBy: { createdAt: 'asc' },
  });
  const code = newLoginCode();
  const loginId = newId('portalLoginCode');
  const expiresAt = new Date(Date.now() + config.PORTAL_LOGIN_CODE_TTL_MINUTES * 60_000);
  await db.$transaction([
    db.portalLoginCode.create({
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
    }),
    // One live code per (store, e-mail), held by the primary key: concurrent logins leave the last one.
    db.$executeRaw`
      INSERT INTO "portal_login_live_codes" ("store_id", "email", "login_code_id")
      VALUES (${store.id}, ${email}, ${loginId})
      ON CONFLICT ("store_id", "email")
      DO UPDATE SET "login_code_id" = EXCLUDED."login_code_id", "updated_at" = CURRENT_TIMESTAMP`,
  ]);
  if (customer) {
    // Not awaited: waiting for the mail server would make a customer's answer slower than a stranger's.
    // The store's `portal/login_code` e-mail template when it has one, else the engine's wording.
    renderStoreEmail(db, {
      storeId: store.id,
      kind: 'portal/login_code',
      data: {
        store: { name: store.name },
        customer: { email, name: [customer.firstName, customer.lastName].filter(Boolean).join(' ') || null },
        code,
        expiresInMinutes: config.PORTAL_LOGIN_CODE_TTL_MINUTES,
        language: 'en',
      },
    })
      .then((mail) =>
        deps.mailer.send({
          mode: store.mode,
          to: email,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          meta: { loginId, code, storeId: store.id, ...(mail.templateId ? { templateId: mail.templateId } : {}) },
        }),
      )
      .catch((err: unknown) => deps.logger.error({ err, loginId, storeId: store.id }, 'portal login code not sent'));
  }
  return { loginId, expiresAt };
}

/**
 * Exchanges a login code for an e-mail-verified customer session. Every wrong, expired, used,
 * replaced or over-tried code is refused alike (unauthenticated).
 */
export async function confirmLoginCode(
  deps: Pick<LoginDeps, 'db' | 'config' | 'limits'>,
  input: { loginId: string; code: string; clientIp: string },
) {
  const { db, config } = deps;
  await deps.limits.confirmFromIp(input.clientIp);
  const target = await db.portalLoginCode.findUnique({
    where: { id: input.loginId },
    select: { storeId: true, email: true },
  });
  if (!target) throw unauthenticated(invalidCode);
  await deps.limits.confirmForEmail(target);
  // Count the attempt first (conditional update), so guessing is capped even under concurrency;
  // only the live code of its e-mail counts (a newer login replaced the others).
  const counted = await db.portalLoginCode.updateMany({
    where: {
      id: input.loginId,
      consumedAt: null,
      attempts: { lt: maxCodeAttempts },
      expiresAt: { gt: new Date() },
      live: { isNot: null },
    },
    data: { attempts: { increment: 1 } },
  });
  if (counted.count !== 1) throw unauthenticated(invalidCode);
  const login = await db.portalLoginCode.findUniqueOrThrow({ where: { id: input.loginId } });
  if (!sameHash(login.codeHash, hashLoginCode(login.id, input.code)) || !login.customerId)
    throw unauthenticated(invalidCode);
  const consumed = await db.portalLoginCode.updateMany({
    where: { id: login.id, consumedAt: null, live: { isNot: null } },
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
