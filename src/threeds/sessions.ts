import type { Db, Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import { DomainError } from '../errors';
import type { DispatchEvents } from '../events/afterCommit';
import { recordEvent } from '../events/recordEvent';
import type { ThreeDsValues } from '../processors/types';
import type { ThreeDsSessionSource, ThreeDsSessionStatus, ThreeDsSessionType } from './rules';

type Client = Db | Prisma.TransactionClient;
export type ThreeDsSessionRow = NonNullable<Awaited<ReturnType<Db['threeDsSession']['findUnique']>>>;

/** The 3DS values a decision carries (everything the acquirer may receive). */
export interface ThreeDsResultValues {
  transStatus: string;
  eci?: string | null;
  authenticationValue?: string | null;
  dsTransID?: string | null;
  acsTransID?: string | null;
  threeDSServerTransID?: string | null;
  messageVersion?: string | null;
  cardBrand?: string | null;
}

export interface NewSession extends Partial<ThreeDsResultValues> {
  accountId: string;
  mode: 'test' | 'live';
  type: ThreeDsSessionType;
  status: ThreeDsSessionStatus;
  source: ThreeDsSessionSource;
  storeId?: string | null;
  customerId?: string | null;
  paymentInstrumentId?: string | null;
  paymentId?: string | null;
  authenticationType?: string | null;
  recurringInfo?: Prisma.InputJsonObject | null;
  tokenId?: string | null;
  returnUrl?: string | null;
  workflowId?: string | null;
  failureReason?: string | null;
  providerProcessorId?: string | null;
}

const eventTypeOfStatus: Record<ThreeDsSessionStatus, string | null> = {
  pending: null,
  challenge_required: 's_threeds_session_challenge_required',
  authenticated: 's_threeds_session_succeeded',
  failed: 's_threeds_session_failed',
};

async function emit(tx: Prisma.TransactionClient, row: ThreeDsSessionRow, eventType: string): Promise<string> {
  const event = await recordEvent(tx, {
    accountId: row.accountId,
    mode: row.mode,
    storeId: row.storeId,
    customerId: row.customerId,
    eventType,
    properties: {
      threedsSessionId: row.id,
      status: row.status,
      type: row.type,
      transStatus: row.transStatus,
      eci: row.eci,
      paymentId: row.paymentId,
      ...(row.failureReason ? { failureReason: row.failureReason } : {}),
    },
  });
  return event.id;
}

/**
 * Creates a session and its events (created, plus the status's own) in one transaction, then
 * hands the events to `dispatch` (when given) once committed.
 */
export async function createSession(
  db: Db,
  input: NewSession,
  options: { id?: string; dispatch?: DispatchEvents } = {},
): Promise<ThreeDsSessionRow> {
  const id = options.id ?? newId('threeDsSession');
  const { row, eventIds } = await db.$transaction(async (tx) => {
    const row = await tx.threeDsSession.create({
      data: { ...input, id, recurringInfo: input.recurringInfo ?? undefined },
    });
    const eventIds = [await emit(tx, row, 's_threeds_session_created')];
    const statusEvent = eventTypeOfStatus[row.status as ThreeDsSessionStatus];
    if (statusEvent) eventIds.push(await emit(tx, row, statusEvent));
    return { row, eventIds };
  });
  await options.dispatch?.(eventIds);
  return row;
}

export interface SessionTransition extends Partial<ThreeDsResultValues> {
  status: 'challenge_required' | 'authenticated' | 'failed';
  challengeUrl?: string | null;
  expiresAt?: Date | null;
  failureReason?: string | null;
  workflowId?: string | null;
}

/** The code of a refused move: the session is final already (authenticated or failed) and is never rewritten. */
export const sessionAlreadyFinalCode = 'THREEDS_SESSION_ALREADY_FINAL';

const allowedFrom: Record<SessionTransition['status'], ThreeDsSessionStatus[]> = {
  challenge_required: ['pending'],
  authenticated: ['pending', 'challenge_required'],
  failed: ['pending', 'challenge_required'],
};

/**
 * Moves a session to its next state with its event, in one transaction. A session already in the
 * target state is left as is (a retried activity), and any other move is refused (a conflict with
 * `sessionAlreadyFinalCode`), so a finished session is never rewritten. The event goes to
 * `dispatch` (when given) once committed.
 */
export async function transitionSession(
  db: Db,
  sessionId: string,
  change: SessionTransition,
  dispatch?: DispatchEvents,
): Promise<ThreeDsSessionRow> {
  const { row, eventIds } = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<
      { status: string }[]
    >`SELECT status FROM threeds_sessions WHERE id = ${sessionId} FOR UPDATE`;
    if (!locked) throw new Error(`3DS session ${sessionId} does not exist`);
    const current = await tx.threeDsSession.findUniqueOrThrow({ where: { id: sessionId } });
    if (current.status === change.status) return { row: current, eventIds: [] };
    if (!allowedFrom[change.status].includes(current.status as ThreeDsSessionStatus)) {
      throw new DomainError(
        'conflict',
        sessionAlreadyFinalCode,
        `3DS session ${sessionId} cannot move from ${current.status} to ${change.status}`,
      );
    }
    const row = await tx.threeDsSession.update({ where: { id: sessionId }, data: change });
    return { row, eventIds: [await emit(tx, row, eventTypeOfStatus[change.status]!)] };
  });
  await dispatch?.(eventIds);
  return row;
}

/** A session of the caller's account and mode, or null (other accounts' sessions do not exist). */
export function findSession(db: Client, scope: { accountId: string; mode: 'test' | 'live' }, id: string) {
  return db.threeDsSession.findFirst({ where: { id, accountId: scope.accountId, mode: scope.mode } });
}

/** A session by id, unscoped: for the 3DS workflows, which were started for it. */
export function sessionById(db: Client, id: string): Promise<ThreeDsSessionRow> {
  return db.threeDsSession.findUniqueOrThrow({ where: { id } });
}

/** The card a session authenticates, of the session's own account and mode; null when it is gone. */
export function cardOfSession(
  db: Client,
  session: Pick<ThreeDsSessionRow, 'accountId' | 'mode'>,
  instrumentId: string,
) {
  return db.paymentInstrument.findFirst({
    where: { id: instrumentId, accountId: session.accountId, mode: session.mode },
  });
}

/** The processor a session names as its 3DS server, of the session's own account and mode; null when it is gone. */
export function providerProcessorOf(
  db: Client,
  session: Pick<ThreeDsSessionRow, 'accountId' | 'mode'>,
  processorId: string,
) {
  return db.processor.findFirst({ where: { id: processorId, accountId: session.accountId, mode: session.mode } });
}

/** The values forwarded to an acquirer, exactly as stored (never re-encoded). */
export function valuesOf(row: ThreeDsSessionRow): ThreeDsValues | null {
  if (row.status !== 'authenticated' || !row.eci || !row.authenticationValue || !row.transStatus) return null;
  return {
    eci: row.eci,
    authenticationValue: row.authenticationValue,
    transStatus: row.transStatus,
    ...(row.dsTransID ? { dsTransID: row.dsTransID } : {}),
    ...(row.acsTransID ? { acsTransID: row.acsTransID } : {}),
    ...(row.threeDSServerTransID ? { threeDSServerTransID: row.threeDSServerTransID } : {}),
    messageVersion: row.messageVersion ?? '2.2.0',
    type: row.type as ThreeDsSessionType,
  };
}
