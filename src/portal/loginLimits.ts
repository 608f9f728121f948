import type { Config } from '../config';
import { rateLimited } from '../errors';
import type { Logger } from '../logging/logger';
import { hashSecret } from './tokens';

/** A fixed-window counter: `hit` counts one attempt under `key` and answers the count of its window. */
export interface WindowCounter {
  hit(key: string): Promise<{ used: number; resetTime: Date | undefined }>;
}

/** Makes the counter of one limit (`name`), shared by every API process when the store is (Redis). */
export type WindowCounterFactory = (name: string, windowMs: number) => WindowCounter;

/** Counts portal sign-in attempts and refuses (429 RATE_LIMITED with Retry-After) past a limit. */
export interface PortalLoginLimits {
  /** A login request: per client IP, then per (store, e-mail). */
  login(input: { storeId: string; email: string; clientIp: string }): Promise<void>;
  /** A confirm request, before its code is looked up: per client IP. */
  confirmFromIp(clientIp: string): Promise<void>;
  /** A confirm of a known code: per (store, e-mail) of that code. */
  confirmForEmail(input: { storeId: string; email: string }): Promise<void>;
}

export type PortalLimitConfig = Pick<
  Config,
  | 'PORTAL_LOGIN_WINDOW_MINUTES'
  | 'PORTAL_LOGIN_MAX_PER_EMAIL'
  | 'PORTAL_LOGIN_MAX_PER_IP'
  | 'PORTAL_CONFIRM_MAX_PER_EMAIL'
  | 'PORTAL_CONFIRM_MAX_PER_IP'
>;

/** E-mails never appear in counter keys (Redis is not where customer data lives): only a hash. */
const emailKey = (storeId: string, email: string) => hashSecret(`${storeId}:${email}`);

/**
 * The portal's sign-in limits: on login and on confirm, per client IP and per (store, e-mail), each
 * in a window of PORTAL_LOGIN_WINDOW_MINUTES. A store error lets the attempt through (logged), as
 * the account rate limits do: a Redis outage must not stop every customer from signing in; the
 * per-code try cap and the daily failed-confirm cap (Postgres) still bound guessing.
 */
export function createPortalLoginLimits(
  config: PortalLimitConfig,
  counters: WindowCounterFactory,
  logger: Logger,
): PortalLoginLimits {
  const windowMs = config.PORTAL_LOGIN_WINDOW_MINUTES * 60_000;
  const limit = (name: string, max: number, what: string) => {
    const counter = counters(name, windowMs);
    return async (key: string) => {
      let counted: Awaited<ReturnType<WindowCounter['hit']>>;
      try {
        counted = await counter.hit(key);
      } catch (err) {
        logger.error({ err, limit: name }, 'portal sign-in rate limiter error');
        return;
      }
      if (counted.used <= max) return;
      const ms = counted.resetTime ? counted.resetTime.getTime() - Date.now() : windowMs;
      const retryAfter = Math.max(1, Math.ceil(ms / 1000));
      throw rateLimited(
        `Too many sign-in attempts (${what}: at most ${max} per ${config.PORTAL_LOGIN_WINDOW_MINUTES} min); retry after ${retryAfter} s`,
        retryAfter,
      );
    };
  };
  const loginPerIp = limit('login-ip', config.PORTAL_LOGIN_MAX_PER_IP, 'login codes requested from this address');
  const loginPerEmail = limit('login-email', config.PORTAL_LOGIN_MAX_PER_EMAIL, 'login codes sent to this e-mail');
  const confirmPerIp = limit('confirm-ip', config.PORTAL_CONFIRM_MAX_PER_IP, 'confirms from this address');
  const confirmPerEmail = limit(
    'confirm-email',
    config.PORTAL_CONFIRM_MAX_PER_EMAIL,
    "confirms of this e-mail's codes",
  );
  return {
    login: async ({ storeId, email, clientIp }) => {
      await loginPerIp(clientIp);
      await loginPerEmail(emailKey(storeId, email));
    },
    confirmFromIp: (clientIp) => confirmPerIp(clientIp),
    confirmForEmail: ({ storeId, email }) => confirmPerEmail(emailKey(storeId, email)),
  };
}
