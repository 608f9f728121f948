import { proxyActivities, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { SaveSubscriptionStateInput } from '../../activities/subscriptions/state';

const { saveSubscriptionState } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20 },
});

/**
 * Writes the state (and its event) once: each write gets its own key here, kept by the activity's
 * retries, so a retry after the commit finds the write applied and records no second event.
 */
export function saveState(input: Omit<SaveSubscriptionStateInput, 'stateKey'>): Promise<void> {
  return saveSubscriptionState({ ...input, stateKey: uuid4() });
}
