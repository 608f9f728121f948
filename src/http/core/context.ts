import type { KeyKind, Mode, Role } from '../../domain/apiKeys';

/** Everything route handlers need, injected once at start-up (defined beside the start-up code). */
export type { AppDeps } from '../../runtime/appDeps';

/** Who is calling, resolved from the API key by the auth middleware. */
export interface AuthContext {
  keyId: string;
  kind: KeyKind;
  mode: Mode;
  role: Role;
  partnerId: string;
  /** Set for CRM keys, and for processing keys (the account their processing account serves). */
  accountId?: string;
  /** Set for processing keys. */
  tpaId?: string;
  /** Stores a processing key may act on. */
  storeIds?: string[];
  plan: 'standard' | 'premium';
}

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    auth?: AuthContext;
    /** Throws 403 unless the caller's role is org:admin. Set by the auth middleware. */
    requireAdmin?: () => void;
    /** Rejects with 403 unless the caller is a partner key of this kind. Set by the auth middleware. */
    requirePartnerKind?: (kind: 'payfac') => Promise<void>;
    /** The Idempotency-Key sent, whose it is and the request's fingerprint. Set by the idempotency middleware. */
    idempotency?: { key: string; scope: string; requestHash: string };
  }
}
