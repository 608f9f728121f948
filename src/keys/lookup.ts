import type { Db } from '../db/prisma';
import type { KeyKind } from '../domain/apiKeys';
import { rawRows } from '../db/rawRows';

/** An API key as authentication needs it: the key, its partner, account and processing account. */
export interface ApiKeyRecord {
  id: string;
  kind: KeyKind;
  mode: 'test' | 'live';
  role: string;
  status: string;
  partnerId: string;
  tpaId: string | null;
  /** The key's own account (CRM key) or its processing account's account. */
  accountId: string | null;
  plan: 'standard' | 'premium' | null;
  storeIds: string[] | null;
}

/** The key with its account and processing account in one round trip: this runs on every request. */
export async function findKeyByTokenHash(db: Db, tokenHash: string): Promise<ApiKeyRecord | undefined> {
  const rows = await rawRows<ApiKeyRecord>(db)`
    SELECT k.id, k.kind::text AS kind, k.mode::text AS mode, k.role, k.status::text AS status,
           k.partner_id AS "partnerId", k.tpa_id AS "tpaId", a.id AS "accountId", a.plan::text AS plan, t.store_ids AS "storeIds"
      FROM api_keys k
      LEFT JOIN processing_accounts t ON t.id = k.tpa_id
      LEFT JOIN accounts a ON a.id = COALESCE(k.account_id, t.account_id)
     WHERE k.token_hash = ${tokenHash}`;
  return rows[0];
}

/** The merchant account a key is bound to; it must exist. */
export function readAccount(db: Db, accountId: string) {
  return db.account.findUniqueOrThrow({ where: { id: accountId } });
}
