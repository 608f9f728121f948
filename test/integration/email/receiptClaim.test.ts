import pg from 'pg';
import { newId } from '../../../src/domain/ids';
import { readEventEmailRowsAndClaim } from '../../../src/email/eventEmailRows';
import { claimLeaseMs, sendEventEmail, sendEventEmailMarkLater } from '../../../src/email/sendEventEmail';
import { dispatchRecordedEvents, type RecordedEvent } from '../../../src/events/dispatch';
import { createMailer } from '../../../src/portal/mailer';
import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';
import { recordPaidOrder } from './receiptFixtures';

describe('the receipt’s sent_emails claim in its read and its sent mark with the events’ processed mark (real Postgres)', () => {
  const harness = useHarness({});

  const mailbox = async (to: string): Promise<any[]> =>
    ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${encodeURIComponent(to)}`)).json()) as any).data;
  const mailOf = (to: string, eventId: string) =>
    until(async () => (await mailbox(to)).find((mail) => mail.meta.eventId === eventId));
  const emailDeps = () => ({ db: harness.db, logger: harness.logger, mailer: createMailer(harness) });
  const dispatchDeps = () => ({ db: harness.db, temporal: harness.temporal, taskQueue: harness.taskQueue });
  const readAndClaim = (eventId: string) =>
    readEventEmailRowsAndClaim(harness.db, { eventId, kind: 'order/paid' }, newId('sentEmail'));
  const sentEmailRows = (eventId: string) => harness.db.sentEmail.findMany({ where: { eventId } });

  /** The paid order's event as the paid checkout's statement hands it to the dispatch (no endpoints). */
  async function recordedEvent(eventId: string): Promise<RecordedEvent> {
    const event = await harness.db.event.findUniqueOrThrow({ where: { id: eventId } });
    return { ...event, endpointIds: [] };
  }

  /** The texts of the SQL statements `run` sends (node-postgres' Client#query, which Prisma's adapter calls). */
  async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
    const query = jest.spyOn(pg.Client.prototype, 'query');
    try {
      await run();
      return query.mock.calls.map(([first]) => (typeof first === 'string' ? first : ((first as any)?.text ?? '?')));
    } finally {
      query.mockRestore();
    }
  }

  it('the read claims a new row (recipient from SQL, empty subject), finds a live claim busy, takes a lapsed one over and finds a sent one sent', async () => {
    const { email, eventId, storeId } = await recordPaidOrder(harness, 'test');
    const first = await readAndClaim(eventId);
    expect(first.claim).toEqual({ state: 'claimed', id: expect.stringMatching(/^eml_/) });
    const claimedId = (first.claim as { id: string }).id;
    expect(await sentEmailRows(eventId)).toEqual([
      expect.objectContaining({
        id: claimedId,
        kind: 'order/paid',
        storeId,
        recipient: email,
        subject: '',
        sentAt: null,
      }),
    ]);

    expect((await readAndClaim(eventId)).claim).toEqual({ state: 'busy' });

    const lapsedAt = new Date(Date.now() - claimLeaseMs - 60_000);
    await harness.db.sentEmail.update({ where: { id: claimedId }, data: { claimedAt: lapsedAt } });
    expect((await readAndClaim(eventId)).claim).toEqual({ state: 'claimed', id: claimedId });
    const [taken] = await sentEmailRows(eventId);
    expect(taken!.claimedAt.getTime()).toBeGreaterThan(lapsedAt.getTime() + claimLeaseMs);

    await harness.db.sentEmail.update({ where: { id: claimedId }, data: { sentAt: new Date(), claimedAt: lapsedAt } });
    expect((await readAndClaim(eventId)).claim).toEqual({ state: 'sent', id: claimedId });
    // A sent row is left as it was, its lapsed claim included.
    expect((await sentEmailRows(eventId))[0]!.claimedAt).toEqual(lapsedAt);
  });

  it('the read claims nothing for a draft or a missing event', async () => {
    const { eventId } = await recordPaidOrder(harness, 'test');
    await harness.db.event.update({ where: { id: eventId }, data: { draft: true } });
    expect((await readAndClaim(eventId)).claim).toBeNull();
    expect((await readAndClaim('evt_missing')).claim).toBeNull();
    expect(await sentEmailRows(eventId)).toEqual([]);
  });

  it('a claim the read made for an event Node then skips (no card payment) is given back', async () => {
    const { email, eventId } = await recordPaidOrder(harness, 'test');
    const event = await harness.db.event.findUniqueOrThrow({ where: { id: eventId } });
    const { paymentId: _paymentId, ...creditsOnly } = event.properties as Record<string, unknown>;
    await harness.db.event.update({ where: { id: eventId }, data: { properties: creditsOnly as object } });
    const statements = await statementsOf(async () =>
      expect(await sendEventEmail(emailDeps(), { eventId, kind: 'order/paid' })).toEqual({
        outcome: 'skipped',
        reason: 'the event sends no such e-mail',
      }),
    );
    expect(statements[0]).toContain('INSERT INTO sent_emails');
    expect(statements.some((text) => /DELETE FROM "?public"?\."?sent_emails/i.test(text))).toBe(true);
    expect(await sentEmailRows(eventId)).toEqual([]);
    expect(await mailbox(email)).toEqual([]);
    // The read did claim it: the give-back is what leaves no row.
    expect((await readAndClaim(eventId)).claim).toMatchObject({ state: 'claimed' });
  });

  it('a standalone send marks its row sent under the rendered subject', async () => {
    const { email, eventId, orderId } = await recordPaidOrder(harness, 'test');
    const sent = await sendEventEmail(emailDeps(), { eventId, kind: 'order/paid' });
    expect(sent).toMatchObject({ outcome: 'sent' });
    const mail = await mailOf(email, eventId);
    expect(mail.subject).toBe(`Your Corner Shop receipt for order ${orderId}`);
    expect(await sentEmailRows(eventId)).toEqual([
      expect.objectContaining({ subject: mail.subject, recipient: email, sentAt: expect.any(Date) }),
    ]);
  });

  it('a send that leaves its mark to the caller keeps the claim live until then: a concurrent send finds it busy', async () => {
    const { email, eventId } = await recordPaidOrder(harness, 'test');
    const { outcome, sentMark } = await sendEventEmailMarkLater(emailDeps(), { eventId, kind: 'order/paid' });
    expect(outcome).toMatchObject({ outcome: 'sent' });
    const mail = await mailOf(email, eventId);
    expect(sentMark).toEqual({ sentEmailId: (outcome as { sentEmailId: string }).sentEmailId, subject: mail.subject });
    expect(await sentEmailRows(eventId)).toEqual([expect.objectContaining({ subject: '', sentAt: null })]);
    await expect(sendEventEmail(emailDeps(), { eventId, kind: 'order/paid' })).rejects.toMatchObject({
      name: 'EmailClaimBusyError',
    });
  });

  it('the dispatch of a paid checkout sends its receipt in 2 statements: read and claim, then sent and processed marks', async () => {
    const { email, eventId } = await recordPaidOrder(harness, 'test');
    const event = await recordedEvent(eventId);
    let dispatched: Awaited<ReturnType<typeof dispatchRecordedEvents>> | undefined;
    const statements = await statementsOf(async () => {
      dispatched = await dispatchRecordedEvents({ ...dispatchDeps(), emailNow: emailDeps() }, [event]);
    });
    expect(dispatched).toEqual({ started: 0, workflowIds: [] });
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain('INSERT INTO sent_emails');
    expect(statements[1]).toMatch(/UPDATE sent_emails[\s\S]*UPDATE events/);
    const mail = await mailOf(email, eventId);
    expect(await sentEmailRows(eventId)).toEqual([
      expect.objectContaining({ subject: mail.subject, recipient: email, sentAt: expect.any(Date) }),
    ]);
    expect((await harness.db.event.findUniqueOrThrow({ where: { id: eventId } })).processedAt).toEqual(
      expect.any(Date),
    );
  });

  it('ten concurrent dispatches whose sends leave their marks to the dispatch, and five standalone sends, make one e-mail and one row marked sent', async () => {
    const { email, eventId } = await recordPaidOrder(harness, 'test');
    const event = await recordedEvent(eventId);
    const dispatching = Array.from({ length: 10 }, () =>
      dispatchRecordedEvents({ ...dispatchDeps(), emailNow: emailDeps() }, [event]),
    );
    const sending = Array.from({ length: 5 }, () => sendEventEmail(emailDeps(), { eventId, kind: 'order/paid' }));
    const dispatches = await Promise.all(dispatching);
    const sends = await Promise.allSettled(sending);
    const mail = await mailOf(email, eventId);
    // A send that found the claim busy failed; one that found it sent sent nothing.
    expect(sends.filter((send) => send.status === 'fulfilled' && send.value.outcome === 'sent').length).toBeLessThan(2);
    // A dispatch that found the claim busy handed the e-mail to its workflow: it must find it sent.
    if (dispatches.some((dispatched) => dispatched.workflowIds.length > 0)) {
      const handle = harness.temporal.workflow.getHandle(`eml_${eventId}_order_paid`);
      expect((await handle.result()).outcome).toBe('already_sent');
    }
    expect((await mailbox(email)).filter((sent) => sent.meta.eventId === eventId)).toHaveLength(1);
    expect(await sentEmailRows(eventId)).toEqual([
      expect.objectContaining({ subject: mail.subject, sentAt: expect.any(Date) }),
    ]);
    expect((await harness.db.event.findUniqueOrThrow({ where: { id: eventId } })).processedAt).toEqual(
      expect.any(Date),
    );
  });
});
