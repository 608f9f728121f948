import type { Db } from '../db/prisma';
import type { Partner } from '../generated/prisma/client';
import type { Mode } from '../domain/apiKeys';
import { newId } from '../domain/ids';
import { forbidden } from '../errors';
import { mintApiKey } from './mintKey';

export type PartnerKind = 'payfac' | 'crm_only';

export interface CreatedPartner {
  partner: Partner;
  keyId: string;
  /** The partner key in clear; shown once to the operator. */
  partnerKey: string;
}

/** Bootstrap: a partner and its first partner key, in one transaction. */
export async function createPartnerWithKey(
  db: Db,
  input: { name: string; mode: Mode; kind: PartnerKind },
): Promise<CreatedPartner> {
  return db.$transaction(async (tx) => {
    const partner = await tx.partner.create({ data: { id: newId('partner'), name: input.name, kind: input.kind } });
    const { key, token } = await mintApiKey(tx, {
      kind: 'partner',
      mode: input.mode,
      name: `${input.name} partner key`,
      partnerId: partner.id,
    });
    return { partner, keyId: key.id, partnerKey: token };
  });
}

/**
 * Refuses a partner that is not a full processing partner (payfac): only those create processing
 * accounts and mint processing keys. Checked before the request's body is read.
 */
export async function assertPayfacPartner(db: Db, partnerId: string): Promise<void> {
  const partner = await db.partner.findUnique({ where: { id: partnerId }, select: { kind: true } });
  if (partner?.kind !== 'payfac') {
    throw forbidden(
      'Only full processing partners (payfac) can create processing accounts and keys; this partner is CRM-only',
      'payfac_required',
    );
  }
}
