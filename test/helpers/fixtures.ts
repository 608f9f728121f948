import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/prisma';
import { hashToken, mintToken, tokenPrefix, type Mode, type Role } from '../../src/domain/apiKeys';
import { newId } from '../../src/domain/ids';
import { mintApiKey } from '../../src/keys/mintKey';
import { createPartnerWithKey } from '../../src/keys/partners';

export interface Merchant {
  partnerId: string;
  accountId: string;
  /** A CRM key (org:admin unless asked otherwise) for /api/public/v1. */
  token: string;
  keyId: string;
  mode: Mode;
}

/**
 * Inserts a partner, a merchant account and a CRM key straight into the database, for tests of
 * resources that only need an authenticated merchant.
 */
export async function createMerchant(
  db: Db,
  options: { mode?: Mode; role?: Role; plan?: 'standard' | 'premium'; partnerKind?: 'payfac' | 'crm_only' } = {},
): Promise<Merchant> {
  const mode = options.mode ?? 'test';
  const partner = await db.partner.create({
    data: { id: newId('partner'), name: 'Test Partner', kind: options.partnerKind ?? 'payfac' },
  });
  const account = await db.account.create({
    data: { id: newId('account'), partnerId: partner.id, name: 'Test Merchant', plan: options.plan ?? 'premium' },
  });
  const token = mintToken('crm', mode);
  const key = await db.apiKey.create({
    data: {
      id: newId('apiKey'),
      kind: 'crm',
      mode,
      role: options.role ?? 'org:admin',
      prefix: tokenPrefix(token),
      tokenHash: hashToken(token),
      name: 'test key',
      partnerId: partner.id,
      accountId: account.id,
    },
  });
  return { partnerId: partner.id, accountId: account.id, token, keyId: key.id, mode };
}

/** Another CRM key on an existing merchant account (a member key, a second mode's key…). */
export async function addCrmKey(
  db: Db,
  merchant: Merchant,
  options: { role?: Role; mode?: Mode } = {},
): Promise<string> {
  const mode = options.mode ?? merchant.mode;
  const token = mintToken('crm', mode);
  await db.apiKey.create({
    data: {
      id: newId('apiKey'),
      kind: 'crm',
      mode,
      role: options.role ?? 'org:admin',
      prefix: tokenPrefix(token),
      tokenHash: hashToken(token),
      name: 'extra key',
      partnerId: merchant.partnerId,
      accountId: merchant.accountId,
    },
  });
  return token;
}

export interface PartnerFixture {
  partnerId: string;
  /** A partner key (tp_sk_<mode>_…) for the provisioning routes. */
  token: string;
  keyId: string;
  mode: Mode;
}

/** A partner and its partner key, made the way `npm run admin -- create-partner` makes them. */
export async function createPartner(
  db: Db,
  options: { mode?: Mode; kind?: 'payfac' | 'crm_only'; name?: string } = {},
): Promise<PartnerFixture> {
  const mode = options.mode ?? 'test';
  const created = await createPartnerWithKey(db, {
    name: options.name ?? 'Fixture Partner',
    mode,
    kind: options.kind ?? 'payfac',
  });
  return { partnerId: created.partner.id, token: created.partnerKey, keyId: created.keyId, mode };
}

/** An older-format CRM key: a bare UUID token (still accepted). */
export async function addLegacyCrmKey(db: Db, merchant: Merchant, options: { mode?: Mode } = {}): Promise<string> {
  const token = randomUUID();
  await db.apiKey.create({
    data: {
      id: newId('apiKey'),
      kind: 'crm',
      mode: options.mode ?? merchant.mode,
      prefix: tokenPrefix(token),
      tokenHash: hashToken(token),
      name: 'legacy key',
      partnerId: merchant.partnerId,
      accountId: merchant.accountId,
    },
  });
  return token;
}

export interface ProcessingFixture {
  tpaId: string;
  /** A processing key (tp_sk_<mode>_…) for /api/processing/v1 on the given stores. */
  token: string;
  keyId: string;
}

/** A processing account over some of a merchant's stores, with one processing key. */
export async function addProcessingKey(
  db: Db,
  merchant: Merchant,
  storeIds: string[],
  options: { mode?: Mode } = {},
): Promise<ProcessingFixture> {
  const mode = options.mode ?? merchant.mode;
  const tpa = await db.processingAccount.create({
    data: {
      id: newId('processingAccount'),
      partnerId: merchant.partnerId,
      accountId: merchant.accountId,
      storeIds,
      mode,
    },
  });
  const { key, token } = await mintApiKey(db, {
    kind: 'processing',
    mode,
    name: 'fixture processing key',
    partnerId: merchant.partnerId,
    accountId: merchant.accountId,
    tpaId: tpa.id,
  });
  return { tpaId: tpa.id, token, keyId: key.id };
}
