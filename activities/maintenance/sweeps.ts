import { expireLapsedCheckoutSessions } from '../../src/commerce/checkoutExpirySweep';
import type { ActivityDeps } from '../deps';
import { idempotencyRetentionMs } from '../../src/idempotency/store';

export function createMaintenanceActivities(deps: ActivityDeps) {
  return {
    /** Deletes idempotency records past their retention (24 h); returns how many went. */
    async purgeExpiredIdempotencyRecords(): Promise<number> {
      const { count } = await deps.db.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: new Date() } } });
      // Heartbeat rows of API processes gone for longer than any record they could still own.
      await deps.db.idempotencyOwner.deleteMany({
        where: { heartbeatAt: { lt: new Date(Date.now() - idempotencyRetentionMs) } },
      });
      if (count > 0) deps.logger.info({ count }, 'purged expired idempotency records');
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
