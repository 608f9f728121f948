import { rateLimitRefusals } from '../../metrics/metrics';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit, type RateLimitInfo } from 'express-rate-limit';
import type { Logger } from '../../logging/logger';
import { ApiError } from '../core/errors';
import { createCounterStore } from './stores';
import {
  defaultWindows,
  planQuotas,
  rateLimitHeaders,
  secondsUntil,
  windowDurations,
  windowLimits,
  type Plan,
  type PlanQuota,
  type RateWindows,
  type WindowName,
  type WindowUsage,
} from './quotas';

export interface AccountRateLimitOptions {
  logger: Logger;
  /** Set: counters live in Redis and are shared by every API process. */
  redisUrl?: string;
  /** Redis key prefix (tests use their own so runs do not share counters). */
  redisPrefix?: string;
  quotas?: Record<Plan, PlanQuota>;
  windows?: RateWindows;
}

const infoProperty: Record<WindowName, string> = { burst: 'rateLimitBurst', sustained: 'rateLimitSustained' };

/**
 * Per-account rate limiting for authenticated requests (docs/api-keys.md, rate limits), as middleware to mount
 * right after authentication. Keys on the merchant account (CRM and processing keys share their
 * account's quota); partner keys have no account and are limited per partner on the Standard
 * quota. A request that falls through from one mount to the next is counted once.
 */
export function accountRateLimit(options: AccountRateLimitOptions): RequestHandler[] {
  const quotas = options.quotas ?? planQuotas;
  const windows = options.windows ?? defaultWindows;
  const durations = windowDurations(windows);
  const prefix = options.redisPrefix ?? 'ratelimit:';
  const counted = new WeakSet<Request>();
  const limitsOf = (req: Request) => windowLimits(quotas[req.auth?.plan ?? 'standard'], windows);
  const usagesOf = (req: Request): WindowUsage[] =>
    (['burst', 'sustained'] as const).flatMap((name) => {
      const info = (req as unknown as Record<string, RateLimitInfo | undefined>)[infoProperty[name]];
      return info
        ? [{ name, limit: info.limit, used: info.used, windowMs: durations[name], resetTime: info.resetTime }]
        : [];
    });

  const limiter = (name: WindowName) =>
    rateLimit({
      windowMs: durations[name],
      limit: (req) => limitsOf(req)[name],
      keyGenerator: (req) =>
        req.auth?.accountId ? `acc:${req.auth.accountId}` : `par:${req.auth?.partnerId ?? 'unknown'}`,
      skip: (req) => !req.auth || counted.has(req),
      store: createCounterStore(options.redisUrl, `${prefix}${name}:`),
      requestPropertyName: infoProperty[name],
      standardHeaders: false,
      legacyHeaders: false,
      // Fail open: a Redis outage must not take the API down; it is logged as an error.
      passOnStoreError: true,
      logger: {
        error: (err, message) => options.logger.error({ err }, message ?? 'rate limiter error'),
        warn: (err, message) => options.logger.warn({ err }, message ?? 'rate limiter warning'),
      },
      handler: (req) => {
        counted.add(req);
        const now = Date.now();
        const usages = usagesOf(req);
        const exceeded = usages.find((usage) => usage.used > usage.limit) ?? usages[0]!;
        const retryAfter = secondsUntil(exceeded.resetTime, exceeded.windowMs, now);
        rateLimitRefusals.inc({ limit: exceeded.name });
        const headers = {
          ...rateLimitHeaders([exceeded], limitsOf(req), windows, now),
          'Retry-After': String(retryAfter),
        };
        const what = `${exceeded.limit} requests per ${durations[exceeded.name] / 1000} s${exceeded.name === 'burst' ? ' (burst)' : ''}`;
        throw new ApiError(
          429,
          'RATE_LIMITED',
          `Rate limit exceeded: this account may make ${what}; retry after ${retryAfter} s`,
          undefined,
          headers,
        );
      },
    });

  const setHeaders = (req: Request, res: Response, next: NextFunction): void => {
    if (req.auth && !counted.has(req)) {
      counted.add(req);
      const usages = usagesOf(req);
      if (usages.length) res.set(rateLimitHeaders(usages, limitsOf(req), windows, Date.now()));
    }
    next();
  };

  return [limiter('burst'), limiter('sustained'), setHeaders];
}
