/**
 * What kind of refusal an error is, in business terms. Only src/http/core/errors.ts turns a kind
 * into an HTTP status; nothing below src/http knows about statuses.
 * - invalid: the request itself is wrong (a bad value, things that do not belong together)
 * - unauthenticated: the credential presented (a session token, a signed link) is missing, unknown or expired
 * - forbidden: the caller may not do this
 * - not_found: what it names does not exist for this caller
 * - conflict: the state of what it acts on does not allow it (now, or any more)
 * - unavailable: a dependency the operation needs is missing or did not answer; retrying later may work
 * - rate_limited: the caller made too many attempts; `details.retryAfterSeconds` says when to try again
 * - internal: the engine could not finish it; not the caller's fault
 */
export type DomainErrorKind =
  'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'unavailable' | 'rate_limited' | 'internal';

/**
 * A refusal as plain data: what workflows and activities answer with instead of throwing (their
 * results cross Temporal as JSON). `DomainError.from` turns it back into the error.
 */
export interface DomainErrorData {
  kind: DomainErrorKind;
  /** Stable, documented: callers branch on it (`CHECKOUT_ALREADY_PAID`, `NOT_FOUND`, …). */
  code: string;
  message: string;
}

/** One problem of a refused input (`value.2: not an IP address`), as the error body lists it under `issues`. */
export interface DomainIssue {
  message: string;
  path?: string;
}

/**
 * A refusal of the business rules: a kind, a stable code, a human message, optional details for
 * logs and, for invalid input, the problems one by one (answered to the caller as `issues`).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    readonly issues?: readonly DomainIssue[],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static from(data: DomainErrorData): DomainError {
    return new DomainError(data.kind, data.code, data.message);
  }
}

/** Whether `error` is a DomainError, optionally with this code: errors are recognised by code, never by message. */
export function isDomainError(error: unknown, code?: string): error is DomainError {
  return error instanceof DomainError && (code === undefined || error.code === code);
}

export const invalid = (message: string, code = 'BAD_REQUEST', issues?: DomainIssue[]) =>
  new DomainError('invalid', code, message, undefined, issues);
/** The API has always answered these with NOT_AUTHORIZED. */
export const unauthenticated = (message: string) => new DomainError('unauthenticated', 'NOT_AUTHORIZED', message);
export const forbidden = (message: string, code = 'FORBIDDEN') => new DomainError('forbidden', code, message);
/** `notFound('Store')` → NOT_FOUND "Store not found", as the API has always said it. */
export const notFound = (what: string) => new DomainError('not_found', 'NOT_FOUND', `${what} not found`);

/** What a lookup found, or not_found naming what it looked for: `orNotFound(await db.store.findFirst(…), 'Store')`. */
export function orNotFound<T>(found: T | null | undefined, what: string): T {
  if (found === null || found === undefined) throw notFound(what);
  return found;
}
export const conflict = (message: string, code = 'CONFLICT') => new DomainError('conflict', code, message);
export const unavailable = (message: string, code: string) => new DomainError('unavailable', code, message);
/** Too many attempts: the caller may try again after `retryAfterSeconds` (at least 1). */
export const rateLimited = (message: string, retryAfterSeconds: number, code = 'RATE_LIMITED') =>
  new DomainError('rate_limited', code, message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
