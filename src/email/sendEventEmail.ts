import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../portal/mailer';
import { emailKindOfEvent, emailOfRows, type EventEmailInput, type EventEmailOutcome } from './eventEmails';
import { readEventEmailRowsAndClaim } from './eventEmailRows';
import { renderEmailWith } from './templates';

export { claimLeaseMs } from './eventEmailRows';

export interface SendEventEmailDeps {
  db: Db;
  mailer: Mailer;
  logger: Logger;
}

/** Another attempt holds the claim and may be sending right now: retried later, never sent alongside. */
export class EmailClaimBusyError extends Error {
  constructor(eventId: string, kind: string) {
    super(`the ${kind} e-mail of ${eventId} is being sent by another attempt`);
    this.name = 'EmailClaimBusyError';
  }
}

/** What still has to be written after a mail left: its `sent_emails` row is sent, under the rendered subject. */
export interface SentMark {
  sentEmailId: string;
  subject: string;
}

/**
 * Sends the e-mail of one event once. The (event, kind) row of `sent_emails` is claimed before
 * the mail leaves (by the statement that reads what the mail is made from) and marked sent after:
 * a repeat finds it sent and sends nothing; a send that fails gives the claim back so the
 * activity's retry sends it. Only a crash between the mail server accepting it and the mark can
 * send it twice (the claim is then taken over after `claimLeaseMs`); nothing can mark it sent
 * without sending.
 */
export async function sendEventEmail(deps: SendEventEmailDeps, input: EventEmailInput): Promise<EventEmailOutcome> {
  const { outcome, sentMark } = await sendEventEmailMarkLater(deps, input);
  if (sentMark)
    await deps.db.sentEmail.update({
      where: { id: sentMark.sentEmailId },
      data: { sentAt: new Date(), subject: sentMark.subject },
    });
  return outcome;
}

/**
 * `sendEventEmail` without its mark: a sent mail answers its `sentMark`, which the caller writes
 * (the dispatch writes it in the statement that marks the events processed). Until it is written
 * the claim stays live, so a concurrent attempt finds it busy and sends nothing.
 */
export async function sendEventEmailMarkLater(
  deps: SendEventEmailDeps,
  input: EventEmailInput,
): Promise<{ outcome: EventEmailOutcome; sentMark: SentMark | null }> {
  const { db } = deps;
  const rows = await readEventEmailRowsAndClaim(db, input, newId('sentEmail'));
  const { event, claim } = rows;
  const claimedId = claim?.state === 'claimed' ? claim.id : null;
  // The read claims whatever SQL can tell is to send; what only Node rules out gives the claim back.
  const skipped = async (reason: string) => {
    if (claimedId) await giveClaimBack(db, claimedId);
    return { outcome: { outcome: 'skipped', reason } as const, sentMark: null };
  };
  if (!event || event.draft || emailKindOfEvent(event) !== input.kind) return skipped('the event sends no such e-mail');
  if (claim?.state === 'sent') return { outcome: { outcome: 'already_sent', sentEmailId: claim.id }, sentMark: null };
  const built = emailOfRows(input.kind, rows);
  if (!built) return skipped('no customer e-mail to send to');
  if (claim?.state === 'busy') throw new EmailClaimBusyError(event.id, input.kind);
  if (!claimedId) throw new Error(`the ${input.kind} e-mail of ${event.id} was not claimed; not sent`);

  try {
    const mail = await renderEmailWith(rows.template, input.kind, built.data);
    if (mail.fallbackReason)
      deps.logger.warn(
        { eventId: event.id, reason: mail.fallbackReason },
        'store e-mail template failed; default sent',
      );
    await deps.mailer.send({
      mode: event.mode,
      to: built.recipient,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      meta: {
        eventId: event.id,
        kind: input.kind,
        storeId: built.storeId,
        sentEmailId: claimedId,
        ...(mail.templateId ? { templateId: mail.templateId } : {}),
      },
    });
    return {
      outcome: { outcome: 'sent', sentEmailId: claimedId, templateId: mail.templateId },
      sentMark: { sentEmailId: claimedId, subject: mail.subject },
    };
  } catch (error) {
    await giveClaimBack(db, claimedId);
    throw error;
  }
}

/** Deletes a claim whose mail did not leave, so that a retry or the e-mail's workflow can claim it again. */
async function giveClaimBack(db: Db, sentEmailId: string): Promise<void> {
  await db.sentEmail.deleteMany({ where: { id: sentEmailId, sentAt: null } });
}
