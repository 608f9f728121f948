import type { Db } from '../db/prisma';
import { invalid } from '../errors';
import { initiatedByMismatch } from './rules';
import { findSession } from './sessions';

/**
 * The HTTP check of a payment call's `threedsSessionId` (pay-v2, /payments/process), before any
 * workflow starts: the session must exist in the caller's account and mode, and its type must
 * pair with `initiatedBy` (merchant ↔ merchant). A session stored as failed passes here on
 * purpose: the payment then declines at its 3DS step, so the charge is refused with the payment recorded.
 */
export async function assertThreeDsSessionFits(
  db: Db,
  scope: { accountId: string; mode: 'test' | 'live' },
  request: { threedsSessionId?: string | null; initiatedBy: 'customer' | 'merchant' },
): Promise<void> {
  if (!request.threedsSessionId) return;
  const session = await findSession(db, scope, request.threedsSessionId);
  if (!session)
    throw invalid(
      `threedsSessionId ${request.threedsSessionId} does not exist in this account and mode`,
      'THREEDS_SESSION_NOT_FOUND',
    );
  const mismatch = initiatedByMismatch(session.type, request.initiatedBy);
  if (mismatch) throw invalid(mismatch, 'THREEDS_SESSION_TYPE_MISMATCH');
}
