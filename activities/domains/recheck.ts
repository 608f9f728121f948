import { defaultTxtResolver, domainsToRecheck, verifyDomain } from '../../src/customDomains/domains';
import { isDomainError } from '../../src/errors';
import type { ActivityDeps } from '../deps';

/** Domains checked per round, least recently checked first. */
const batchSize = 200;

export function createDomainActivities(deps: ActivityDeps) {
  return {
    /**
     * One round of the domain rechecker: each domain's TXT record looked up again through the same
     * check as `POST /domains/{id}/verify` (found: verified; absent: failed; a DNS server that does
     * not answer leaves the status as it was).
     */
    async recheckDomains(): Promise<{ checked: number; verified: number; failed: number; unanswered: number }> {
      const domains = await domainsToRecheck(deps.db, batchSize);
      const counts = { checked: 0, verified: 0, failed: 0, unanswered: 0 };
      for (const domain of domains) {
        counts.checked += 1;
        try {
          const checked = await verifyDomain(
            deps.db,
            { accountId: domain.accountId, mode: domain.mode },
            domain.id,
            deps.dnsTxt ?? defaultTxtResolver,
          );
          if (checked.status === 'verified') counts.verified += 1;
          else counts.failed += 1;
        } catch (error) {
          // Removed meanwhile, or DNS did not answer: the next round looks again.
          if (!isDomainError(error)) throw error;
          counts.unanswered += 1;
        }
      }
      if (counts.checked > 0) deps.logger.info(counts, 'custom domains rechecked');
      return counts;
    },
  };
}
