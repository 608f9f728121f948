import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../config';
import { unauthenticated } from '../errors';
import { embeddedJwks, issuerOf } from './embeddedIdp';

export type SessionConfig = Pick<Config, 'DATA_DIR' | 'IAM_ISSUER' | 'IAM_AUDIENCE' | 'IAM_JWKS_URL'>;

/**
 * What a verified session says: which provider issued it, who (`sub`, in that provider's namespace)
 * and the e-mail the provider vouches for (only with `email_verified: true`).
 */
export interface VerifiedSession {
  /** `embedded`: the engine's own provider, whose `sub` is the usr_ id; `external`: IAM_JWKS_URL's. */
  provider: 'embedded' | 'external';
  issuer: string;
  subject: string;
  email?: string;
}

export type SessionVerifier = (token: string) => Promise<VerifiedSession>;

/** Asymmetric algorithms only: an `alg: none` or HMAC token signed with the public key is refused. */
const algorithms = ['ES256', 'ES384', 'RS256', 'RS384', 'RS512', 'PS256', 'EdDSA'];

function keySetOf(cfg: SessionConfig): JWTVerifyGetKey {
  if (cfg.IAM_JWKS_URL) return createRemoteJWKSet(new URL(cfg.IAM_JWKS_URL));
  let local: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    local ??= embeddedJwks(cfg.DATA_DIR).then((jwks) => createLocalJWKSet(jwks));
    return (await local)(header, token);
  };
}

/** Why a token was refused, in words a caller can act on (never the token itself). */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the session has expired; sign in again';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'the session was issued by another identity provider';
    if (error.claim === 'aud') return 'the session is for another audience';
    return `the session's ${error.claim} claim is not valid`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the session signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey) return "no key of the identity provider matches the session's key";
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the session is signed with an algorithm not accepted here';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return "the identity provider's key set could not be read";
  return 'the session token is malformed';
}

/**
 * Verifies session JWTs against the identity provider's key set (IAM_JWKS_URL, else the embedded
 * provider's key): signature, expiry, issuer and audience. Any failure is unauthenticated.
 */
export function createSessionVerifier(cfg: SessionConfig): SessionVerifier {
  const keySet = keySetOf(cfg);
  const issuer = issuerOf(cfg);
  const provider = cfg.IAM_JWKS_URL ? 'external' : 'embedded';
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer,
        audience: cfg.IAM_AUDIENCE,
        algorithms,
        requiredClaims: ['sub', 'exp'],
      });
      // An e-mail counts only when the provider says it verified it: a missing claim is not a yes.
      const email = typeof payload.email === 'string' && payload.email_verified === true ? payload.email : undefined;
      return { provider, issuer, subject: payload.sub!, ...(email ? { email } : {}) };
    } catch (error) {
      throw unauthenticated(`Session token is not valid: ${reasonOf(error)}`);
    }
  };
}
