import type { Db } from '../db/prisma';
import {
  canonicalToken,
  hashToken,
  maskedToken,
  tokenLast4,
  tokenPrefix,
  type Mode,
  type Role,
} from '../domain/apiKeys';
import { newId } from '../domain/ids';
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

export async function createPartnerCommand(
  db: Db,
  input: { name: string; mode: Mode; crmOnly: boolean },
): Promise<CreatedPartnerOutput> {
  const kind: PartnerKind = input.crmOnly ? 'crm_only' : 'payfac';
  const created = await createPartnerWithKey(db, { name: input.name, mode: input.mode, kind });
  return {
    partnerId: created.partner.id,
    partnerKey: created.partnerKey,
    keyId: created.keyId,
    name: created.partner.name,
    mode: input.mode,
    kind,
  };
}

/** What `admin import-legacy-key` prints; the token is the operator's already, so it is not repeated. */
export interface ImportedLegacyKeyOutput {
  keyId: string;
  kind: 'crm';
  accountId: string;
  partnerId: string;
  prefix: string;
  last4: string | null;
  display: string;
  name: string;
  role: Role;
  mode: Mode;
}

export class LegacyKeyImportError extends Error {}

/**
 * Stores an older CRM's UUID token as a CRM key of an existing account (hashed like any other:
 * lower-cased first, so the upper-case spelling works too).
 */
export async function importLegacyKeyCommand(
  db: Db,
  input: { accountId: string; token: string; name: string; role: Role; mode: Mode },
): Promise<ImportedLegacyKeyOutput> {
  const account = await db.account.findUnique({ where: { id: input.accountId } });
  if (!account) throw new LegacyKeyImportError(`no merchant account with id ${input.accountId}`);
  const tokenHash = hashToken(input.token);
  if (await db.apiKey.findUnique({ where: { tokenHash } }))
    throw new LegacyKeyImportError('this token is already a key');
  const key = await db.apiKey.create({
    data: {
      id: newId('apiKey'),
      kind: 'crm',
      mode: input.mode,
      role: input.role,
      prefix: tokenPrefix(canonicalToken(input.token)),
      last4: tokenLast4(canonicalToken(input.token)),
      tokenHash,
      name: input.name,
      partnerId: account.partnerId,
      accountId: account.id,
    },
  });
  return {
    keyId: key.id,
    kind: 'crm',
    accountId: account.id,
    partnerId: account.partnerId,
    prefix: key.prefix,
    last4: key.last4,
    display: maskedToken(key.prefix, key.last4),
    name: key.name,
    role: input.role,
    mode: input.mode,
  };
}

/** Revokes any key by id; null when there is no such key. */
export async function revokeKeyCommand(db: Db, keyId: string) {
  const key = await revokeApiKey(db, { id: keyId });
  return (
    key && {
      id: key.id,
      kind: key.kind,
      prefix: key.prefix,
      last4: key.last4,
      display: maskedToken(key.prefix, key.last4),
      status: key.status,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    }
  );
}

/** Every key, by prefix, last 4 characters and metadata only (the clear token is never stored). */
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
    last4: key.last4,
    display: maskedToken(key.prefix, key.last4),
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
