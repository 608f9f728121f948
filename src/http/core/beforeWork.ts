import type { Response } from 'express';

/**
 * Refusals made before a request did any work: parsing, authorizing, looking up what it acts on.
 * The phase that fails tags its error here; the error handler then marks the answer, and the
 * Idempotency-Key middleware does not store it, so a corrected retry with the same key runs (as
 * Stripe does). Everything else below 500 (a 402 decline, a 409 from a workflow that ran) is
 * stored and replayed. Tagging the error, not its status, keeps a late 4xx from being forgotten.
 */
const refusals = new WeakSet<object>();

/** Tags `error` as a refusal before any work and returns it: `throw refusedBeforeWork(notFound('Payment'))`. */
export function refusedBeforeWork<E>(error: E): E {
  if (typeof error === 'object' && error !== null) refusals.add(error);
  return error;
}

/** Runs a step that does no work of its own (parse, authorize, load); whatever it throws is a refusal before work. */
export function beforeWork<T>(step: () => T): T {
  let result: T;
  try {
    result = step();
  } catch (error) {
    throw refusedBeforeWork(error);
  }
  if (result instanceof Promise) return result.catch((error: unknown) => Promise.reject(refusedBeforeWork(error))) as T;
  return result;
}

export function isRefusalBeforeWork(error: unknown): boolean {
  return typeof error === 'object' && error !== null && refusals.has(error);
}

const answerKey = 'refusedBeforeWork';

/** Called by the error handler with the error it answers. */
export function noteAnswerTo(res: Response, error: unknown): void {
  if (isRefusalBeforeWork(error)) res.locals[answerKey] = true;
}

/** True when the answer being sent is a refusal before any work (not to be stored under its Idempotency-Key). */
export function answerIsRefusalBeforeWork(res: Response): boolean {
  return res.locals[answerKey] === true;
}
