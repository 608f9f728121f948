import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../portal/mailer';
import {
  emailKindOfEvent,
  emailOfRows,
  type EventEmailInput,
  type EventEmailKind,
  type EventEmailOutcome,
} from './eventEmails';
import { readEventEmailRows } from './eventEmailRows';
import { renderEmailWith } from './templates';

export interface SendEventEmailDeps {
  db: Db;
  mailer: Mailer;
  logger: Logger;
}

/** A claim older than this whose mail is not marked sent belongs to a sender that died: it may be taken over. */
export const claimLeaseMs = 120_000;

/** Another attempt holds the claim and may be sending right now: retried later, never sent alongside. */
export class EmailClaimBusyError extends Error {
  constructor(eventId: string, kind: string) {
    super(`the ${kind} e-mail of ${eventId} is being sent by another attempt`);
    this.name = 'EmailClaimBusyError';
  }
}

/**
 * Sends the e-mail of one event once. The (event, kind) row of `sent_emails` is claimed before
 * the mail leaves and marked sent after: a repeat finds it sent and sends nothing; a send that
 * fails gives the claim back so the activity's retry sends it. Only a crash between the mail
 * server accepting it and the mark can send it twice (the claim is then taken over after
 * `claimLeaseMs`); nothing can mark it sent without sending.
 */
export async function sendEventEmail(deps: SendEventEmailDeps, input: EventEmailInput): Promise<EventEmailOutcome> {
  const { db } = deps;
  const rows = await readEventEmailRows(db, input);
  const { event } = rows;
  if (!event || event.draft || emailKindOfEvent(event) !== input.kind)
    return { outcome: 'skipped', reason: 'the event sends no such e-mail' };
  if (rows.sentEmail?.sent) return { outcome: 'already_sent', sentEmailId: rows.sentEmail.id };
  const built = emailOfRows(input.kind, rows);
  if (!built) return { outcome: 'skipped', reason: 'no customer e-mail to send to' };
  const mail = await renderEmailWith(rows.template, input.kind, built.data);
  if (mail.fallbackReason)
    deps.logger.warn({ eventId: event.id, reason: mail.fallbackReason }, 'store e-mail template failed; default sent');

  const claim = { accountId: event.accountId, mode: event.mode, storeId: built.storeId, recipient: built.recipient };
  const claimed = await claimSend(db, { ...claim, eventId: event.id, kind: input.kind, subject: mail.subject });
  if (claimed.state === 'sent') return { outcome: 'already_sent', sentEmailId: claimed.id };
  if (claimed.state === 'busy') throw new EmailClaimBusyError(event.id, input.kind);
  try {
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
        sentEmailId: claimed.id,
        ...(mail.templateId ? { templateId: mail.templateId } : {}),
      },
    });
  } catch (error) {
    await db.sentEmail.deleteMany({ where: { id: claimed.id, sentAt: null } });
    throw error;
  }
  await db.sentEmail.update({ where: { id: claimed.id }, data: { sentAt: new Date() } });
  return { outcome: 'sent', sentEmailId: claimed.id, templateId: mail.templateId };
}

/**
 * Takes the (event, kind) claim: a new row, or a row whose earlier claim lapsed unsent. Answers
 * `sent` when the e-mail went out already and `busy` while another attempt holds a live claim.
 */
async function claimSend(
  db: Db,
  row: {
    accountId: string;
    mode: 'test' | 'live';
    storeId: string;
    eventId: string;
    kind: EventEmailKind;
    recipient: string;
    subject: string;
  },
): Promise<{ state: 'claimed' | 'sent' | 'busy'; id: string }> {
  const id = newId('sentEmail');
  // The database's clock, in UTC as the engine stores timestamps: claims of several workers compare on one clock.
  const taken = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO sent_emails (id, account_id, mode, store_id, event_id, kind, recipient, subject, claimed_at)
    VALUES (${id}, ${row.accountId}, ${row.mode}::"Mode", ${row.storeId}, ${row.eventId}, ${row.kind},
            ${row.recipient}, ${row.subject}, (now() AT TIME ZONE 'UTC'))
    ON CONFLICT (event_id, kind) DO UPDATE
       SET claimed_at = EXCLUDED.claimed_at, recipient = EXCLUDED.recipient, subject = EXCLUDED.subject
     WHERE sent_emails.sent_at IS NULL
       AND sent_emails.claimed_at < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${claimLeaseMs / 1000})
    RETURNING id`;
  if (taken[0]) return { state: 'claimed', id: taken[0].id };
  const existing = await db.sentEmail.findUniqueOrThrow({
    where: { eventId_kind: { eventId: row.eventId, kind: row.kind } },
  });
  return { state: existing.sentAt ? 'sent' : 'busy', id: existing.id };
}
