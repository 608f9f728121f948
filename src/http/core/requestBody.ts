import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, toApiError } from './errors';
import { findInvalidCharacter, invalidCharacterError } from './invalidCharacters';

export const maxBodyBytes = 1024 * 1024;
const jsonTypes = ['application/json', 'application/*+json'];

/** Problems found while reading a body, held until the route has authenticated and authorized the caller. */
const bodyProblems = new WeakMap<Request, ApiError>();

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function payloadTooLarge(): ApiError {
  // The unread body is still on its way: the connection cannot carry another request.
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBodyBytes} bytes`, undefined, {
    Connection: 'close',
  });
}

/**
 * 413 for a declared `Content-Length` over the limit, before a byte of the body is read and
 * before authentication: waiting for (or draining) a body we will refuse only holds the connection.
 */
export function refuseOversizedBody(req: Request, _res: Response, next: NextFunction): void {
  if (Number(req.headers['content-length']) > maxBodyBytes) throw payloadTooLarge();
  next();
}

/**
 * Bodies kept byte for byte, for routes that verify a signature over them (processor webhooks):
 * only requests under a registered path prefix, so no other request holds its bytes twice.
 */
const rawBodies = new WeakMap<Request, Buffer>();
const rawBodyPrefixes: string[] = [];

export function keepRawBodyUnder(pathPrefix: string): void {
  if (!rawBodyPrefixes.includes(pathPrefix)) rawBodyPrefixes.push(pathPrefix);
}

/** The body as received (empty when none came or the route did not ask for it). */
export function rawBodyOf(req: Request): Buffer {
  return rawBodies.get(req) ?? Buffer.alloc(0);
}

/** body-parser's `verify`: JSON must be UTF-8 (RFC 8259), and invalid bytes are refused, not turned into U+FFFD. */
function requireUtf8(req: Request, _res: Response, bytes: Buffer, encoding: string): void {
  if (rawBodyPrefixes.some((prefix) => req.originalUrl.startsWith(prefix))) rawBodies.set(req, bytes);
  if (encoding !== 'utf-8') {
    throw Object.assign(new Error(`unsupported charset "${encoding}"`), { status: 415, type: 'charset.unsupported' });
  }
  try {
    strictUtf8.decode(bytes);
  } catch {
    throw Object.assign(new Error('Request body is not valid UTF-8'), { status: 400, type: 'encoding.invalid' });
  }
}

/**
 * Parses JSON bodies. A body that cannot be read (malformed JSON, bytes that are not UTF-8, an
 * unsupported charset, U+0000 or a lone surrogate in a string) does not fail here: the problem
 * waits for `assertReadableInput`, so a caller without a key still gets 401 first. Only 413 is
 * answered at once.
 */
export function readJsonBody(): RequestHandler {
  const parse = express.json({ limit: maxBodyBytes, type: jsonTypes, verify: requireUtf8 });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      const invalid = error ? undefined : findInvalidCharacter(req.body, 'body');
      const problem = error ? toApiError(error) : invalid && invalidCharacterError(invalid);
      if (problem?.status === 413) return next(problem);
      if (problem) bodyProblems.set(req, problem);
      next();
    });
  };
}

function hasBodyBytes(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
}

/** True when the request carries a body that was not read as JSON (see `readJsonBody`). */
export function hasUnreadableBody(req: Request): boolean {
  return bodyProblems.has(req) || (hasBodyBytes(req) && req.body === undefined);
}

/**
 * The route's check before it parses its input: the body's problem if it had one, 415 when a
 * route that takes JSON gets a body of another type, and 400 for U+0000 in the query or path.
 * A route without a body schema ignores whatever body comes (the 3DS return accepts form posts).
 */
export function assertReadableInput(req: Request, takesJsonBody: boolean): void {
  const problem = bodyProblems.get(req);
  if (problem) throw problem;
  if (takesJsonBody && hasBodyBytes(req) && !req.is(jsonTypes)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (Content-Type: application/json)');
  }
  const invalid = findInvalidCharacter(req.query, 'query') ?? findInvalidCharacter(req.params, 'params');
  if (invalid) throw invalidCharacterError(invalid);
}
