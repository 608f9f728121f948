import type { Db } from '../db/prisma';
import type { Mode } from '../domain/apiKeys';
import { notFound } from '../errors';
import type { ApiKey } from '../generated/prisma/client';
import { mintApiKey, revokeApiKeyOnce, type MintedKey } from '../keys/mintKey';
import { recordIamEvent } from './events';
import { canManageOrgMembership, enforce, type AccountRef, type Grants } from './policies';

/*
 * Each function takes the account already looked up (findAccountRef, once per request by the
 * route's authorize step) and checks the caller's right again: the policy is pure, no query.
 */

/** A merchant service API key (`sk_crm_…`) with org:admin rights on the account; the token exists only in the answer. */
export async function mintServiceKey(
  db: Db,
  grants: Grants,
  account: AccountRef,
  input: { name: string; mode: Mode },
): Promise<MintedKey> {
  enforce(canManageOrgMembership(grants, account));
  return db.$transaction(async (tx) => {
    const minted = await mintApiKey(tx, {
      kind: 'crm',
      mode: input.mode,
      role: 'org:admin',
      name: input.name,
      partnerId: account.partnerId,
      accountId: account.id,
    });
    await recordIamEvent(tx, {
      eventType: 's_service_key_created',
      actorUserId: grants.userId,
      accountId: account.id,
      properties: { keyId: minted.key.id, name: input.name, mode: input.mode },
    });
    return minted;
  });
}

/** Every CRM key of the account (minted here or by its partner), newest first. */
export async function listServiceKeys(db: Db, grants: Grants, account: AccountRef): Promise<ApiKey[]> {
  enforce(canManageOrgMembership(grants, account));
  return db.apiKey.findMany({
    where: { accountId: account.id, kind: 'crm' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** Revokes one of the account's CRM keys, immediately and for good (idempotent). */
export async function revokeServiceKey(db: Db, grants: Grants, account: AccountRef, keyId: string): Promise<ApiKey> {
  const accountId = account.id;
  enforce(canManageOrgMembership(grants, account));
  return db.$transaction(async (tx) => {
    const revoked = await revokeApiKeyOnce(tx, { id: keyId, accountId, kind: 'crm' });
    if (!revoked) throw notFound('Service key');
    if (revoked.revokedNow)
      await recordIamEvent(tx, {
        eventType: 's_service_key_revoked',
        actorUserId: grants.userId,
        accountId,
        properties: { keyId },
      });
    return revoked.key;
  });
}
