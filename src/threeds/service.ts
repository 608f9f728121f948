import type { Db, Prisma } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import { findStoreOfScope } from '../commerce/storeOfScope';
import { conflict, orNotFound } from '../errors';
import type { DispatchEvents } from '../events/afterCommit';
import { createSession, findSession, type ThreeDsSessionRow } from './sessions';

/** A card of the caller's account and mode to authenticate, or not_found. */
async function findInstrument(db: Db, scope: Scope, paymentInstrumentId: string) {
  return orNotFound(
    await db.paymentInstrument.findFirst({ where: { id: paymentInstrumentId, ...scope } }),
    'Payment instrument',
  );
}

/** A 3DS session of the caller's account and mode, or not_found. */
export async function findSessionOfScope(db: Db, scope: Scope, sessionId: string): Promise<ThreeDsSessionRow> {
  return orNotFound(await findSession(db, scope, sessionId), '3DS session');
}

export interface AuthenticationRequest {
  /** A pending session to authenticate, or else … */
  sessionId?: string;
  /** … the card of a new customer session. */
  paymentInstrumentId?: string;
  storeId?: string;
  authenticationType: string;
  recurringInfo?: Prisma.InputJsonObject;
  returnUrl?: string;
  /** The processor whose 3DS provider authenticates (null: the sandbox's simulator, test mode). */
  providerProcessorId: string | null;
}

/**
 * The session an authentication runs on: the pending session named, or a new customer session for
 * the card (its events go to `dispatch` once committed).
 */
export async function sessionToAuthenticate(
  db: Db,
  scope: Scope,
  input: AuthenticationRequest,
  dispatch: DispatchEvents,
): Promise<ThreeDsSessionRow> {
  const store = input.storeId ? await findStoreOfScope(db, scope, input.storeId) : null;
  if (input.sessionId) {
    const session = await findSessionOfScope(db, scope, input.sessionId);
    if (session.status !== 'pending')
      throw conflict(
        `3DS session ${session.id} is ${session.status}; only a pending session can be authenticated`,
        'THREEDS_SESSION_NOT_PENDING',
      );
    if (session.providerProcessorId === input.providerProcessorId) return session;
    return db.threeDsSession.update({
      where: { id: session.id },
      data: { providerProcessorId: input.providerProcessorId },
    });
  }
  const instrument = await findInstrument(db, scope, input.paymentInstrumentId!);
  return createSession(
    db,
    {
      ...scope,
      type: 'customer',
      status: 'pending',
      source: 'authenticate',
      storeId: store?.id ?? null,
      customerId: instrument.customerId,
      paymentInstrumentId: instrument.id,
      authenticationType: input.authenticationType,
      recurringInfo: input.recurringInfo ?? null,
      returnUrl: input.returnUrl ?? null,
      providerProcessorId: input.providerProcessorId,
    },
    { dispatch },
  );
}

/** A merchant-initiated (3RI) session for a stored card of a store, with the store it is for. */
export async function createMerchantSession(
  db: Db,
  scope: Scope,
  input: { storeId: string; paymentInstrumentId: string; tokenId: string; providerProcessorId: string | null },
  dispatch: DispatchEvents,
) {
  const store = await findStoreOfScope(db, scope, input.storeId);
  const instrument = await findInstrument(db, scope, input.paymentInstrumentId);
  const session = await createSession(
    db,
    {
      ...scope,
      type: 'merchant',
      status: 'pending',
      source: 'merchant_session',
      storeId: store.id,
      customerId: instrument.customerId,
      paymentInstrumentId: instrument.id,
      authenticationType: 'recurring-transaction',
      tokenId: input.tokenId,
      providerProcessorId: input.providerProcessorId,
    },
    { dispatch },
  );
  return { session, store };
}
