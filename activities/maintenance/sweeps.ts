import { expireLapsedCheckoutSessions } from '../../src/commerce/checkoutExpirySweep';
import type { ActivityDeps } from '../deps';
import { expireIdempotencyAnswers, forgetGoneOwners } from '../../src/idempotency/store';

export function createMaintenanceActivities(deps: ActivityDeps) {
  return {
    /**
     * Strips idempotency records past their retention (24 h) to their fingerprint, which binds the
     * key for good (see expireIdempotencyAnswers); returns how many were stripped.
     */
    async purgeExpiredIdempotencyRecords(): Promise<number> {
      const count = await expireIdempotencyAnswers(deps.db);
      await forgetGoneOwners(deps.db);
      if (count > 0) deps.logger.info({ count }, 'stripped expired idempotency answers to their fingerprints');
      return count;
    },

    /** Moves lapsed unpaid checkout sessions to expired with their events; returns the event ids. */
    async expireLapsedCheckoutSessions(): Promise<string[]> {
      const eventIds = await expireLapsedCheckoutSessions(deps.db, new Date());
      if (eventIds.length > 0) deps.logger.info({ count: eventIds.length }, 'expired lapsed checkout sessions');
      return eventIds;
    },
  };
}
