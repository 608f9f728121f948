import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { EventEmailInput, EventEmailOutcome } from '../../src/email/eventEmails';

// A mail server that is down for a while is waited out: about a day of attempts, spaced out.
const { sendEventEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '1 hour', maximumAttempts: 30 },
});

/**
 * The customer e-mail of one event (receipt, failed-renewal notice), started after the event's
 * commit with an id derived from the event (`eventEmailWorkflowId`), so a repeated dispatch
 * starts nothing. The activity's sent_emails claim makes the send itself once.
 */
export async function eventEmailWorkflow(input: EventEmailInput): Promise<EventEmailOutcome> {
  return sendEventEmail(input);
}
