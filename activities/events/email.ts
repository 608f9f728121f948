import { ApplicationFailure } from '@temporalio/common';
import type { EventEmailInput, EventEmailOutcome } from '../../src/email/eventEmails';
import { sendEventEmail } from '../../src/email/sendEventEmail';
import { MailNotConfiguredError } from '../../src/portal/mailer';
import type { ActivityDeps } from '../deps';
import { mailerOf } from './mailer';

export function createEmailActivities(deps: ActivityDeps) {
  return {
    /** Sends the customer e-mail of one event once (sent_emails claim); retried by the workflow. */
    async sendEventEmail(input: EventEmailInput): Promise<EventEmailOutcome> {
      try {
        const outcome = await sendEventEmail({ db: deps.db, logger: deps.logger, mailer: mailerOf(deps) }, input);
        if (outcome.outcome === 'skipped')
          deps.logger.info({ ...input, reason: outcome.reason }, 'event e-mail skipped');
        return outcome;
      } catch (error) {
        // Retrying cannot help until the operator configures SMTP: fail the workflow visibly at once.
        if (error instanceof MailNotConfiguredError) throw ApplicationFailure.nonRetryable(error.message, error.name);
        throw error;
      }
    },
  };
}
