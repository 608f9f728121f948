import type { ProcessorFollowUp } from '../../src/payments/followUpTypes';
import { lookUpFollowUp, type FollowUpLookupInput } from '../../src/payments/followUpLookup';
import type { ActivityDeps } from '../deps';

export type { FollowUpLookupInput } from '../../src/payments/followUpLookup';

export function createFollowUpConfirmationActivities(deps: ActivityDeps) {
  return {
    /** What a follow-up the processor answered `pending` came to (src/payments/followUpLookup.ts). */
    async lookUpFollowUp(input: FollowUpLookupInput): Promise<ProcessorFollowUp> {
      return lookUpFollowUp(deps, input);
    },
  };
}
