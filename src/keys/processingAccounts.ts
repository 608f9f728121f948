import type { Page } from '../domain/listQuery';
import { newestFirstPage, readPage } from '../db/pageQuery';
import type { Db } from '../db/prisma';
import type { ApiKey, ProcessingAccount } from '../generated/prisma/client';
import { processingKeyLabel, visibleModes, type Mode } from '../domain/apiKeys';
import { newId } from '../domain/ids';
import { invalid, notFound, orNotFound } from '../errors';
import type { PageRequest, PartnerCaller } from './caller';
import { mintApiKey, revokeApiKey, type MintedKey } from './mintKey';
import { assertCanActInMode } from './modeGuard';
import { assertPayfacPartner } from './partners';

/** A processing account of the calling partner in a mode its key sees, or not_found. */
async function findOwnTpa(db: Db, caller: PartnerCaller, tpaId: string) {
  return orNotFound(
    await db.processingAccount.findFirst({
      where: { id: tpaId, partnerId: caller.partnerId, mode: { in: visibleModes(caller.mode) } },
      include: { partner: true, account: true },
    }),
    'Processing account',
  );
}

export interface NewProcessingAccount {
  accountId: string;
  storeId?: string;
  storeIds?: string[];
  externalRef?: string;
  mode?: Mode;
}

/**
 * A processing account for one of the partner's merchant accounts and its store(s), all in one
 * mode; full processing partners (payfac) only.
 */
export async function createProcessingAccount(
  db: Db,
  caller: PartnerCaller,
  input: NewProcessingAccount,
): Promise<ProcessingAccount> {
  // The route refuses before validating (RouteSpec.partnerKind); callers outside HTTP are checked here.
  await assertPayfacPartner(db, caller.partnerId);
  const mode: Mode = input.mode ?? caller.mode;
  assertCanActInMode(caller.mode, mode);
  const account = await db.account.findFirst({ where: { id: input.accountId, partnerId: caller.partnerId } });
  if (!account) throw notFound('Merchant account');
  const storeIds = [...new Set([...(input.storeId ? [input.storeId] : []), ...(input.storeIds ?? [])])];
  const stores = await db.store.findMany({
    where: { id: { in: storeIds }, accountId: account.id, mode },
    select: { id: true },
  });
  const found = new Set(stores.map((store) => store.id));
  const missing = storeIds.filter((id) => !found.has(id));
  if (missing.length)
    throw invalid(`Not ${mode}-mode stores of account ${account.id}: ${missing.join(', ')}`, 'STORE_NOT_IN_ACCOUNT');
  return db.processingAccount.create({
    data: {
      id: newId('processingAccount'),
      partnerId: caller.partnerId,
      accountId: account.id,
      storeIds,
      externalRef: input.externalRef ?? null,
      mode,
    },
  });
}

/** The partner's processing accounts in the modes its key sees, newest first. */
export async function listProcessingAccounts(
  db: Db,
  caller: PartnerCaller,
  page: PageRequest,
): Promise<Page<ProcessingAccount>> {
  const where = { partnerId: caller.partnerId, mode: { in: visibleModes(caller.mode) } };
  return readPage(
    db.processingAccount.findMany({ where, ...newestFirstPage(page) }),
    db.processingAccount.count({ where }),
  );
}

export async function findProcessingAccount(db: Db, caller: PartnerCaller, tpaId: string): Promise<ProcessingAccount> {
  return findOwnTpa(db, caller, tpaId);
}

/** Mints a processing key in the account's own mode, labelled by partner name and external reference. */
export async function mintProcessingKey(
  db: Db,
  caller: PartnerCaller,
  tpaId: string,
  input: { mode?: Mode },
): Promise<MintedKey> {
  const tpa = await findOwnTpa(db, caller, tpaId);
  const mode = input.mode ?? tpa.mode;
  assertCanActInMode(caller.mode, mode);
  if (mode !== tpa.mode)
    throw invalid(
      `Processing account ${tpa.id} is in ${tpa.mode} mode; its keys are ${tpa.mode} keys`,
      'MODE_MISMATCH',
    );
  const label = processingKeyLabel(tpa.partner.name, tpa.externalRef ?? tpa.account.externalRef, tpa.accountId);
  return mintApiKey(db, {
    kind: 'processing',
    mode,
    name: label,
    partnerId: caller.partnerId,
    accountId: tpa.accountId,
    tpaId: tpa.id,
  });
}

/** A processing account's keys, newest first. */
export async function processingKeysOf(db: Db, caller: PartnerCaller, tpaId: string): Promise<ApiKey[]> {
  const tpa = await findOwnTpa(db, caller, tpaId);
  return db.apiKey.findMany({
    where: { tpaId: tpa.id, kind: 'processing' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** Revokes one of a processing account's keys (idempotent); not_found when it is not one of them. */
export async function revokeProcessingKey(
  db: Db,
  caller: PartnerCaller,
  tpaId: string,
  keyId: string,
): Promise<ApiKey> {
  const tpa = await findOwnTpa(db, caller, tpaId);
  return orNotFound(await revokeApiKey(db, { id: keyId, tpaId: tpa.id, kind: 'processing' }), 'Processing key');
}
