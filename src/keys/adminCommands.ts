import type { Db } from '../db/prisma';
import type { Mode } from '../domain/apiKeys';
import { revokeApiKey } from './mintKey';
import { createPartnerWithKey, type PartnerKind } from './partners';

/** What `admin create-partner` prints: the only time the partner key is shown. */
export interface CreatedPartnerOutput {
  partnerId: string;
  partnerKey: string;
  keyId: string;
  name: string;
  mode: Mode;
  kind: PartnerKind;
}

export async function createPartnerCommand(db: Db, input: { name: string; mode: Mode; crmOnly: boolean }): Promise<CreatedPartnerOutput> {
  const kind: PartnerKind = input.crmOnly ? 'crm_only' : 'payfac';
  const created = await createPartnerWithKey(db, { name: input.name, mode: input.mode, kind });
  return { partnerId: created.partner.id, partnerKey: created.partnerKey, keyId: created.keyId, name: created.partner.name, mode: input.mode, kind };
}

/** Revokes any key by id; null when there is no such key. */
export async function revokeKeyCommand(db: Db, keyId: string) {
  const key = await revokeApiKey(db, { id: keyId });
  return key && { id: key.id, kind: key.kind, prefix: key.prefix, status: key.status, revokedAt: key.revokedAt?.toISOString() ?? null };
}

/** Every key, by prefix and metadata only (the clear token is never stored). */
export async function listKeysCommand(db: Db, filter: { partnerId?: string } = {}) {
  const keys = await db.apiKey.findMany({
    where: filter.partnerId ? { partnerId: filter.partnerId } : {},
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return keys.map((key) => ({
    id: key.id,
    kind: key.kind,
    mode: key.mode,
    prefix: key.prefix,
    name: key.name,
    role: key.role,
    status: key.status,
    partnerId: key.partnerId,
    accountId: key.accountId,
    tpaId: key.tpaId,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  }));
}
