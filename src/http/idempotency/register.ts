import type { AppDeps } from '../core/context';
import type { Routers } from '../routes';
import { idempotencyHashKey } from '../../vault/cardVault';
import { markIdempotencyKeys } from '../core/operations';
import { idempotency } from './middleware';
import { IdempotencyOwnerLease } from '../../idempotency/ownerLease';

/** A record whose API process has not beaten for this long is taken over (beats are 1 s apart). */
const ownerTimeoutMs = 3_000;

/**
 * Puts the Idempotency-Key middleware in front of every route of the public and processing
 * routers (registered first, so it runs before any resource group's routes). A repeat waits up to
 * the payment answer deadline plus a margin for the first request to finish; one lease (heartbeat)
 * per app, i.e. per API process.
 */
export function registerIdempotency({ publicRouter, processingRouter }: Routers, deps: AppDeps): void {
  const middleware = idempotency(deps.db, idempotencyOptions(deps));
  for (const router of [publicRouter, processingRouter]) {
    router.use(middleware);
    markIdempotencyKeys(router);
  }
}

/** One lease per API process (per database client): the public, processing and portal routers share it. */
const leases = new WeakMap<AppDeps['db'], IdempotencyOwnerLease>();

function idempotencyOptions({ db, config, logger }: AppDeps) {
  let lease = leases.get(db);
  if (!lease) {
    lease = new IdempotencyOwnerLease(db, { logger });
    leases.set(db, lease);
  }
  return {
    hashKey: () => idempotencyHashKey(config),
    waitMs: config.PAYMENT_RESPONSE_TIMEOUT_MS + 5_000,
    // Only for a request that never answered while its process lives on: no handler runs this long.
    staleMs: Math.max(60_000, 3 * config.PAYMENT_RESPONSE_TIMEOUT_MS),
    lease,
    ownerTimeoutMs,
  };
}

/**
 * The same Idempotency-Key handling for portal writes, mounted after the session check. Keys are
 * the customer's (an offer session without a customer: the session's), so one customer's key never
 * replays another's answer, and the same customer's retry from a new session still does.
 */
export function portalIdempotency(deps: AppDeps) {
  return idempotency(deps.db, {
    ...idempotencyOptions(deps),
    scopeOf: (req) => {
      const session = req.portal;
      if (!session) throw new Error('portal idempotency runs after the portal session check');
      const owner = session.customerId ? `customer:${session.customerId}` : `session:${session.sessionId}`;
      return `portal:${session.accountId}:${session.mode}:${owner}`;
    },
  });
}
