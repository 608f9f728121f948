import { proxyActivities, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { recordStep } from '../shared/activityOptions';
import type { SaveSubscriptionStateInput } from '../../activities/subscriptions/state';

const { saveSubscriptionState } = proxyActivities<Activities>(recordStep);

/**
 * Writes the state (and its event) once: each write gets its own key here, kept by the activity's
 * retries, so a retry after the commit finds the write applied and records no second event.
 */
export function saveState(input: Omit<SaveSubscriptionStateInput, 'stateKey'>): Promise<void> {
  return saveSubscriptionState({ ...input, stateKey: uuid4() });
}
