import type { Response } from 'express';

/** What the Idempotency-Key handling needs from the route's declaration. */
export interface IdempotencyGateOptions {
  /** Top-level fields of the answer that hold a secret: never stored, so never replayed. */
  secretFields?: readonly string[];
}

/** Claims the key or replays its stored answer; true when it answered (the route stops there). */
export type IdempotencyGate = (options: IdempotencyGateOptions) => Promise<boolean>;

const gates = new WeakMap<Response, IdempotencyGate>();

/** Set by the Idempotency-Key middleware for a keyed request; run by the route once it has authorized the caller. */
export function setIdempotencyGate(res: Response, gate: IdempotencyGate): void {
  gates.set(res, gate);
}

/**
 * Run by `defineRoute` after authentication and authorization (role, the path's resource) and
 * before validation: a stored answer is only replayed to a caller allowed to make the request.
 * True when the answer was sent.
 */
export function passIdempotencyGate(res: Response, options: IdempotencyGateOptions): Promise<boolean> {
  const gate = gates.get(res);
  if (!gate) return Promise.resolve(false);
  gates.delete(res);
  return gate(options);
}
