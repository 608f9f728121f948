import type { Db, Prisma } from '../db/prisma';
import { rawRows } from '../db/rawRows';
import type { SentMark } from '../email/sendEventEmail';

/**
 * Marks events processed and, in the same statement, the e-mails their dispatch sent inline as
 * sent under their rendered subjects: one statement where a mark per e-mail and one for the events
 * were two. The caller writes it only after every mail in `sentMarks` left and every e-mail not
 * sent was handed to its workflow, so nothing is marked sent or processed before that happened.
 * Times are the database's clock in UTC, as the claims are. Both statements skip Prisma's query
 * runtime (src/db/rawRows.ts): one of them runs per dispatch.
 */
export async function markDispatched(db: Db, sentMarks: SentMark[], eventIds: string[]): Promise<void> {
  if (sentMarks.length === 0) return markProcessed(db, eventIds);
  await rawRows(db)`
    WITH sent AS (
      UPDATE sent_emails s SET sent_at = (now() AT TIME ZONE 'UTC'), subject = m.subject
        FROM unnest(${sentMarks.map((mark) => mark.sentEmailId)}::text[],
                    ${sentMarks.map((mark) => mark.subject)}::text[]) AS m(id, subject)
       WHERE s.id = m.id
    )
    UPDATE events SET processed_at = (now() AT TIME ZONE 'UTC')
     WHERE id = ANY(${eventIds}::text[]) AND processed_at IS NULL`;
}

export async function markProcessed(db: Db | Prisma.TransactionClient, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await rawRows(db)`
    UPDATE events SET processed_at = (now() AT TIME ZONE 'UTC')
     WHERE id = ANY(${eventIds}::text[]) AND processed_at IS NULL`;
}
