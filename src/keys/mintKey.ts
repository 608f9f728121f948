import type { Db, Prisma } from '../db/prisma';
import type { ApiKey } from '../generated/prisma/client';
import { hashToken, mintToken, tokenLast4, tokenPrefix, type KeyKind, type Mode, type Role } from '../domain/apiKeys';
import { newId } from '../domain/ids';

export interface KeyToMint {
  kind: KeyKind;
  mode: Mode;
  name: string;
  partnerId: string;
  role?: Role;
  accountId?: string;
  tpaId?: string;
}

/** A freshly stored key and its clear token; the token exists only in this return value. */
export interface MintedKey {
  key: ApiKey;
  token: string;
}

/** Mints a token of the key's family and stores only its SHA-256 hash, 12-character prefix and last 4 characters. */
export async function mintApiKey(db: Db | Prisma.TransactionClient, input: KeyToMint): Promise<MintedKey> {
  const token = mintToken(input.kind, input.mode);
  const key = await db.apiKey.create({
    data: {
      id: newId('apiKey'),
      kind: input.kind,
      mode: input.mode,
      role: input.role ?? 'org:admin',
      prefix: tokenPrefix(token),
      last4: tokenLast4(token),
      tokenHash: hashToken(token),
      name: input.name,
      partnerId: input.partnerId,
      accountId: input.accountId ?? null,
      tpaId: input.tpaId ?? null,
    },
  });
  return { key, token };
}

/**
 * Revokes a key for good. Already revoked keys stay as they are (the call is idempotent); the
 * `where` lets callers restrict revocation to keys they own. Returns null when nothing matched.
 */
export async function revokeApiKey(db: Db, where: Prisma.ApiKeyWhereInput): Promise<ApiKey | null> {
  return (await revokeApiKeyOnce(db, where))?.key ?? null;
}

/**
 * Revokes the key and says whether this call did it: of concurrent revokes exactly one sees
 * `revokedNow` (the conditional update), so a caller records its event once.
 */
export async function revokeApiKeyOnce(
  db: Db | Prisma.TransactionClient,
  where: Prisma.ApiKeyWhereInput,
): Promise<{ key: ApiKey; revokedNow: boolean } | null> {
  const existing = await db.apiKey.findFirst({ where });
  if (!existing) return null;
  if (existing.status === 'revoked') return { key: existing, revokedNow: false };
  const { count } = await db.apiKey.updateMany({
    where: { id: existing.id, status: 'active' },
    data: { status: 'revoked', revokedAt: new Date() },
  });
  return { key: await db.apiKey.findUniqueOrThrow({ where: { id: existing.id } }), revokedNow: count === 1 };
}
