import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { sweep } from '../shared/activityOptions';

const { expireLapsedCheckoutSessions, dispatchEvents } = proxyActivities<Activities>(sweep);

export const checkoutExpiryWorkflowId = 'checkout-expiry-sweeper';

/**
 * Every minute, moves checkout sessions whose expiry passed unpaid to expired (code uses given
 * back, `s_checkout_session_expired` recorded with each) and dispatches their events; restarts
 * its history every 2 hours.
 */
export async function checkoutExpiryWorkflow(): Promise<void> {
  for (let sweep = 0; sweep < 120; sweep++) {
    await sleep('1 minute');
    try {
      const eventIds = await expireLapsedCheckoutSessions();
      if (eventIds.length > 0) await dispatchEvents(eventIds);
    } catch {
      // Undispatched events are caught by the event outbox; the next sweep expires what is left.
    }
  }
  await continueAsNew<typeof checkoutExpiryWorkflow>();
}
