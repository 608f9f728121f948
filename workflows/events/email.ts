import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { emailSend } from '../shared/activityOptions';
import type { EventEmailInput, EventEmailOutcome } from '../../src/email/eventEmails';

const { sendEventEmail } = proxyActivities<Activities>(emailSend);

/**
 * The customer e-mail of one event (receipt, failed-renewal notice), started after the event's
 * commit with an id derived from the event (`eventEmailWorkflowId`), so a repeated dispatch
 * starts nothing. The activity's sent_emails claim makes the send itself once.
 */
export async function eventEmailWorkflow(input: EventEmailInput): Promise<EventEmailOutcome> {
  return sendEventEmail(input);
}
