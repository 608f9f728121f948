import { ApplicationFailure } from '@temporalio/common';
import type { EventEmailInput, EventEmailOutcome } from '../../src/email/eventEmails';
import { sendEventEmail } from '../../src/email/sendEventEmail';
import { createMailer, MailNotConfiguredError, type Mailer } from '../../src/portal/mailer';
import type { ActivityDeps } from '../deps';

export function createEmailActivities(deps: ActivityDeps) {
  // The worker passes its mailer (and closes it); activities built without one make their own.
  let ownMailer: Mailer | undefined;
  const mailer = () => deps.mailer ?? (ownMailer ??= createMailer(deps));
  return {
    /** Sends the customer e-mail of one event once (sent_emails claim); retried by the workflow. */
    async sendEventEmail(input: EventEmailInput): Promise<EventEmailOutcome> {
      try {
        const outcome = await sendEventEmail({ db: deps.db, logger: deps.logger, mailer: mailer() }, input);
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
