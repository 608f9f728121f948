import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { sweep } from '../shared/activityOptions';

const { dispatchUndispatchedEvents } = proxyActivities<Activities>(sweep);

export const eventOutboxWorkflowId = 'event-outbox-sweeper';

/**
 * Dispatches events whose post-commit dispatch was lost (process crash between commit and
 * dispatch), every 30 seconds; restarts its history every 2 hours.
 */
export async function eventOutboxWorkflow(): Promise<void> {
  for (let sweep = 0; sweep < 240; sweep++) {
    await sleep('30 seconds');
    try {
      await dispatchUndispatchedEvents();
    } catch {
      // The next sweep tries again; one failed sweep must not end the sweeper.
    }
  }
  await continueAsNew<typeof eventOutboxWorkflow>();
}
