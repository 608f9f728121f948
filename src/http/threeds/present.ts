import type { ThreeDsSessionRow } from '../../threeds/sessions';
import type { RecurringInfo, ThreeDsSessionOut } from './validators';

/** The public view of a session: private columns (token id, workflow id, return URL) stay inside. */
export function toPublicThreeDsSession(row: ThreeDsSessionRow): ThreeDsSessionOut {
  return {
    id: row.id,
    type: row.type as ThreeDsSessionOut['type'],
    status: row.status as ThreeDsSessionOut['status'],
    source: row.source,
    eci: row.eci,
    authenticationValue: row.authenticationValue,
    transStatus: row.transStatus,
    dsTransID: row.dsTransID,
    acsTransID: row.acsTransID,
    threeDSServerTransID: row.threeDSServerTransID,
    messageVersion: row.messageVersion,
    cardBrand: row.cardBrand,
    authenticationType: row.authenticationType,
    recurringInfo: (row.recurringInfo as RecurringInfo | null) ?? null,
    paymentInstrumentId: row.paymentInstrumentId,
    storeId: row.storeId,
    paymentId: row.paymentId,
    redirectUrl: row.status === 'challenge_required' ? row.challengeUrl : null,
    failureReason: row.failureReason,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}
