import type { AppDeps } from '../core/context';
import type { Routers } from '../routes';
import { idempotencyHashKey } from '../../vault/cardVault';
import { idempotency } from './middleware';

/**
 * Puts the Idempotency-Key middleware in front of every route of the public and processing
 * routers (registered first, so it runs before any resource group's routes). A repeat waits up to
 * the payment answer deadline plus a margin for the first request to finish.
 */
export function registerIdempotency({ publicRouter, processingRouter }: Routers, { db, config }: AppDeps): void {
  const middleware = idempotency(db, {
    hashKey: () => idempotencyHashKey(config),
    waitMs: config.PAYMENT_RESPONSE_TIMEOUT_MS + 5_000,
    staleMs: Math.max(60_000, 3 * config.PAYMENT_RESPONSE_TIMEOUT_MS),
  });
  publicRouter.use(middleware);
  processingRouter.use(middleware);
}
