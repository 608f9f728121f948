import type { Router } from 'express';
import type { z } from 'zod';
import { isIdPattern } from '../../commerce/schemas';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/**
 * bearer: an API key; cmsToken: a portal session; iamSession: an identity-provider user session (/api/v1/iam);
 * builderToken: a builder session token (/builder routes, docs/plugins.md).
 */
export type Security = 'bearer' | 'cmsToken' | 'iamSession' | 'builderToken' | 'none';

/** What an operation's declaration says about the answers it can give, before any handler logic. */
export interface OperationTraits {
  method: Method;
  security: Security;
  adminOnly: boolean;
  hasBody: boolean;
  hasPathParams: boolean;
  /** Its body or query names a resource by id (a field built with `idOf`). */
  namesResourceInInput: boolean;
  /** Its router runs the Idempotency-Key middleware (mutating POSTs there may answer 409). */
  idempotencyKeys: boolean;
}

/**
 * Error statuses every operation with these traits can answer, whatever its handler does:
 * - 400: a NUL or bad %-escape in the query or path, a malformed Idempotency-Key, or a body that
 *   fails its schema; 413: a declared Content-Length over 1 MB is refused before routing;
 * - 401/403/429: an API key (missing or revoked; wrong key kind, mode or role; the account's rate
 *   limit); a portal session token (missing, expired, revoked; another store's, or an offer-link
 *   session asking for more than its link allows);
 * - 404: a path parameter, body or query field naming nothing the caller owns; 415: a body that
 *   is not JSON;
 * - 409: an Idempotency-Key reused with another body, or whose first request still runs;
 * - 500: the engine's own failure.
 */
export function derivedErrorStatuses(traits: OperationTraits): number[] {
  const statuses = [400, 413, 500];
  if (traits.security === 'bearer') statuses.push(401, 403, 429);
  if (traits.security === 'cmsToken' || traits.security === 'iamSession' || traits.security === 'builderToken')
    statuses.push(401, 403);
  if (traits.adminOnly) statuses.push(403);
  if (traits.hasPathParams || traits.namesResourceInInput) statuses.push(404);
  if (traits.hasBody) statuses.push(415);
  if (traits.idempotencyKeys && traits.method === 'post') statuses.push(409);
  return statuses;
}

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  checks?: { _zod: { def: { pattern?: RegExp } } }[];
}

/** True when a field anywhere in `schema` is an id of another resource (built with `idOf`). */
export function namesResource(schema: z.ZodType | undefined): boolean {
  if (!schema) return false;
  const def = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
  switch (def.type) {
    case 'string':
      return (def.checks ?? []).some(
        (check) => check._zod.def.pattern !== undefined && isIdPattern(check._zod.def.pattern),
      );
    case 'object':
      return Object.values(def.shape ?? {}).some(namesResource);
    case 'array':
      return namesResource(def.element);
    case 'union':
      return (def.options ?? []).some(namesResource);
    case 'intersection':
      return namesResource(def.left) || namesResource(def.right);
    case 'pipe':
      return namesResource(def.in);
    default:
      // optional, nullable, default, readonly, catch… wrap one inner schema.
      return namesResource(def.innerType);
  }
}

/** One declared answer: a JSON body of `schema`, or no body (a redirect). */
export interface DeclaredResponse {
  schema?: z.ZodType;
  /** The answer may also be an HTML page (a browser's Accept header asked for one). */
  html?: boolean;
}

/** An operation as defined with `defineRoute`, for checking answers against what it declares. */
export interface Operation {
  method: Method;
  /** OpenAPI path template: `/api/public/v1/products/{productId}`. */
  path: string;
  responses: Map<number, DeclaredResponse>;
  pattern: RegExp;
  /** Literal segments: a literal match (`/stores/list`) wins over a template (`/stores/{storeId}`). */
  literalSegments: number;
}

const operations: Operation[] = [];

export function registerOperation(method: Method, path: string, responses: Map<number, DeclaredResponse>): void {
  const segments = path.split('/');
  const pattern = new RegExp(
    `^${segments.map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment))).join('/')}/?$`,
  );
  const literalSegments = segments.filter((segment) => !/^\{.+\}$/.test(segment)).length;
  operations.push({ method, path, responses, pattern, literalSegments });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The operation a request addresses (method and path without query), or undefined. */
export function findOperation(method: string, path: string): Operation | undefined {
  const wanted = method.toLowerCase();
  let best: Operation | undefined;
  for (const operation of operations) {
    if (operation.method !== wanted || !operation.pattern.test(path)) continue;
    if (!best || operation.literalSegments > best.literalSegments) best = operation;
  }
  return best;
}

export function allOperations(): readonly Operation[] {
  return operations;
}

/** Routers whose routes run behind the Idempotency-Key middleware (marked where it is mounted). */
const idempotentRouters = new WeakSet<Router>();

export function markIdempotencyKeys(router: Router): void {
  idempotentRouters.add(router);
}

export function acceptsIdempotencyKeys(router: Router): boolean {
  return idempotentRouters.has(router);
}
