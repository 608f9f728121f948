import type { Page } from '../domain/listQuery';
import { newestFirstPage, readPage } from '../db/pageQuery';
import type { Db } from '../db/prisma';
import type { Account, ApiKey } from '../generated/prisma/client';
import { visibleModes, type Mode, type Role } from '../domain/apiKeys';
import { newId } from '../domain/ids';
import { orNotFound } from '../errors';
import type { PageRequest, PartnerCaller } from './caller';
import { mintApiKey, revokeApiKey, type MintedKey } from './mintKey';
import { assertCanActInMode } from './modeGuard';

/** A merchant account of the calling partner, or not_found (another partner's accounts do not exist for it). */
async function findOwnMerchant(db: Db, partnerId: string, accountId: string): Promise<Account> {
  return orNotFound(await db.account.findFirst({ where: { id: accountId, partnerId } }), 'Merchant account');
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'P2002';
}

/**
 * A new merchant account, or the partner's account with the same externalRef (`created: false`),
 * so a partner may retry a creation safely.
 */
export async function createMerchant(
  db: Db,
  partnerId: string,
  input: { name: string; externalRef?: string; plan: 'standard' | 'premium' },
): Promise<{ account: Account; created: boolean }> {
  const replay = async () => {
    if (!input.externalRef) return null;
    const existing = await db.account.findUnique({
      where: { partnerId_externalRef: { partnerId, externalRef: input.externalRef } },
    });
    return existing ? { account: existing, created: false } : null;
  };
  const existing = await replay();
  if (existing) return existing;
  try {
    const account = await db.account.create({
      data: {
        id: newId('account'),
        partnerId,
        name: input.name,
        externalRef: input.externalRef ?? null,
        plan: input.plan,
      },
    });
    return { account, created: true };
  } catch (error) {
    // Two concurrent creations with one externalRef: the unique index lets one win, the other replays.
    const raced = isUniqueViolation(error) ? await replay() : null;
    if (raced) return raced;
    throw error;
  }
}

/** The partner's merchant accounts, newest first. */
export async function listMerchants(db: Db, partnerId: string, page: PageRequest): Promise<Page<Account>> {
  const where = { partnerId };
  return readPage(db.account.findMany({ where, ...newestFirstPage(page) }), db.account.count({ where }));
}

/** Mints a CRM key for one of the partner's accounts, in the partner key's mode unless another is asked for. */
export async function mintCrmKey(
  db: Db,
  caller: PartnerCaller,
  accountId: string,
  input: { name: string; role: Role; mode?: Mode },
): Promise<MintedKey> {
  const mode = input.mode ?? caller.mode;
  assertCanActInMode(caller.mode, mode);
  const account = await findOwnMerchant(db, caller.partnerId, accountId);
  return mintApiKey(db, {
    kind: 'crm',
    mode,
    role: input.role,
    name: input.name,
    partnerId: caller.partnerId,
    accountId: account.id,
  });
}

/** An account's CRM keys in the modes the partner key sees, newest first. */
export async function crmKeysOf(db: Db, caller: PartnerCaller, accountId: string): Promise<ApiKey[]> {
  const account = await findOwnMerchant(db, caller.partnerId, accountId);
  return db.apiKey.findMany({
    where: { accountId: account.id, kind: 'crm', mode: { in: visibleModes(caller.mode) } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** Revokes one of an account's CRM keys (idempotent); not_found when the partner key cannot see it. */
export async function revokeCrmKey(db: Db, caller: PartnerCaller, accountId: string, keyId: string): Promise<ApiKey> {
  const account = await findOwnMerchant(db, caller.partnerId, accountId);
  return orNotFound(
    await revokeApiKey(db, {
      id: keyId,
      accountId: account.id,
      kind: 'crm',
      mode: { in: visibleModes(caller.mode) },
    }),
    'CRM key',
  );
}
