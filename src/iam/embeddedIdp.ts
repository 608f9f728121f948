import fs from 'node:fs';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Config } from '../config';
import { writeKeyFileOnce } from '../vault/keyFile';

/**
 * The engine as its own identity provider (development and tests; IAM_JWKS_URL unset): one ES256
 * key in `<DATA_DIR>/iam-signing-key.json`, generated on first use with mode 0600, its public half
 * served as a JWKS at `/.well-known/jwks.json`.
 */
export const embeddedIssuer = 'payment-engine';
export const signingAlgorithm = 'ES256';

export type IdpConfig = Pick<Config, 'DATA_DIR' | 'IAM_ISSUER' | 'IAM_AUDIENCE' | 'IAM_SESSION_TTL_MINUTES'>;

interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
}

const keys = new Map<string, Promise<SigningKey>>();

export function signingKeyPath(dataDir: string): string {
  return path.join(dataDir, 'iam-signing-key.json');
}

/** The issuer embedded tokens carry and the verifier expects. */
export function issuerOf(cfg: Pick<Config, 'IAM_ISSUER'>): string {
  return cfg.IAM_ISSUER ?? embeddedIssuer;
}

async function createKeyFile(file: string): Promise<void> {
  const { privateKey } = await generateKeyPair(signingAlgorithm, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  writeKeyFileOnce(file, `${JSON.stringify({ ...jwk, kid, alg: signingAlgorithm })}\n`);
}

async function loadSigningKey(dataDir: string): Promise<SigningKey> {
  const file = signingKeyPath(dataDir);
  if (!fs.existsSync(file)) await createKeyFile(file);
  const jwk = JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
  const privateKey = (await importJWK(jwk, signingAlgorithm)) as CryptoKey;
  const { d: _private, ...publicJwk } = jwk;
  return { privateKey, publicJwk: { ...publicJwk, use: 'sig' } };
}

function signingKey(dataDir: string): Promise<SigningKey> {
  let key = keys.get(dataDir);
  if (!key) {
    key = loadSigningKey(dataDir);
    keys.set(dataDir, key);
    key.catch(() => keys.delete(dataDir));
  }
  return key;
}

/** The embedded provider's public key set, as served at /.well-known/jwks.json. */
export async function embeddedJwks(dataDir: string): Promise<JSONWebKeySet> {
  return { keys: [(await signingKey(dataDir)).publicJwk] };
}

/** A session JWT for `userId` (`sub`), signed by the embedded provider. */
export async function issueSessionToken(
  cfg: IdpConfig,
  userId: string,
): Promise<{ sessionToken: string; expiresAt: string }> {
  const key = await signingKey(cfg.DATA_DIR);
  const expiresAt = new Date(Date.now() + cfg.IAM_SESSION_TTL_MINUTES * 60_000);
  const sessionToken = await new SignJWT({})
    .setProtectedHeader({ alg: signingAlgorithm, kid: key.publicJwk.kid, typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(issuerOf(cfg))
    .setAudience(cfg.IAM_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key.privateKey);
  return { sessionToken, expiresAt: expiresAt.toISOString() };
}
