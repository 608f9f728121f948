import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { DomainError, type DomainErrorKind } from '../../errors';

/** The error body (ErrorBody in /openapi.json): `{message, code, issues?}`; a declined payment (402) adds `data`. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  issues: z.array(z.object({ message: z.string(), path: z.string().optional() })).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error the API answers with as is: status, stable code, human message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ErrorBody['issues'],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  body(): ErrorBody {
    return { message: this.message, code: this.code, ...(this.issues ? { issues: this.issues } : {}) };
  }
}

type Issue = z.core.$ZodIssue;

/**
 * A union that matched no branch reports one bare "Invalid input" at its own path. When one branch
 * accepted the value's shape (no unknown keys, every issue inside a field), its field issues say what
 * is wrong far better: those are reported instead, under the union's path.
 */
function withUnionBranchIssues(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || !issue.errors.length) return [issue];
  const fitting = issue.errors
    .filter(
      (branch) => branch.length && branch.every((inner) => inner.code !== 'unrecognized_keys' && inner.path.length),
    )
    .sort((a, b) => a.length - b.length);
  const best = fitting[0];
  if (!best || (fitting[1] && fitting[1].length === best.length)) return [issue];
  return best.flatMap((inner) => withUnionBranchIssues({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

/** Turns a zod error into the 400 every validator produces. */
export function validationError(error: z.ZodError, where: string): ApiError {
  const issues = error.issues.flatMap(withUnionBranchIssues).map((issue) => ({
    message: issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    path: issue.path.join('.'),
  }));
  return new ApiError(400, 'VALIDATION_ERROR', `Invalid ${where}: ${issues[0]?.message ?? 'bad input'}`, issues);
}

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  code?: string;
  expose?: boolean;
  message?: string;
}

/** `Not Found` → `NOT_FOUND`: the code of a 4xx that no handler of ours named. */
function codeForStatus(status: number): string {
  return (STATUS_CODES[status] ?? 'Bad Request').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
}

/** The HTTP status of each kind of domain refusal: the only place a domain error meets HTTP. */
export const statusOfDomainKind: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  rate_limited: 429,
  internal: 500,
};

/** The one place any thrown value becomes an HTTP status and error body. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    // A rate-limit refusal tells the caller when to come back (429 carries Retry-After).
    const retryAfter = error.kind === 'rate_limited' ? error.details?.retryAfterSeconds : undefined;
    return new ApiError(
      statusOfDomainKind[error.kind],
      error.code,
      error.message,
      error.issues && [...error.issues],
      typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : undefined,
    );
  }
  if (error instanceof z.ZodError) return validationError(error, 'request');
  const httpish = (error ?? {}) as HttpishError;
  // body-parser errors carry a `type`; they are the client's fault, never a 500.
  switch (httpish.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'INVALID_JSON', 'Request body is not valid JSON');
    case 'encoding.invalid':
      return new ApiError(400, 'INVALID_ENCODING', 'Request body is not valid UTF-8');
    case 'entity.too.large':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported request encoding');
    default:
      break;
  }
  if (httpish.code === 'P2025') return new ApiError(404, 'NOT_FOUND', 'Resource not found');
  if (httpish.code === 'P2002') return new ApiError(409, 'CONFLICT', 'A resource with these values already exists');
  // Express, router and http-errors mark client errors with a status (router: a bad %-escape in
  // a path parameter is a URIError with status 400). Those are the caller's fault, never a 500.
  const status = httpish.status ?? httpish.statusCode;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500) {
    if (error instanceof URIError)
      return new ApiError(400, 'BAD_REQUEST', 'Malformed percent-encoding in the URL path');
    const message = httpish.expose && httpish.message ? httpish.message : (STATUS_CODES[status] ?? 'Bad request');
    return new ApiError(status, codeForStatus(status), message);
  }
  return new ApiError(500, 'INTERNAL_ERROR', 'Internal server error');
}
