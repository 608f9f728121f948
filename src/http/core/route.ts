import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { errorBodySchema, validationError } from './errors';
import { openApiRegistry } from './openapi';
import { assertReadableInput } from './requestBody';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Security = 'bearer' | 'cmsToken' | 'none';

export interface RouteSpec<
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
  R extends z.ZodType,
> {
  method: Method;
  /** Express-style path relative to the router's base path, e.g. `/products/:productId`. */
  path: string;
  summary: string;
  tags: string[];
  security?: Security;
  /** `org:admin` operations answer 403 to member keys. */
  adminOnly?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  response: R;
  /** Status of a successful answer (default 200). */
  status?: number;
  /** Extra documented error statuses besides 400/401/403/404/429. */
  errors?: number[];
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface HandlerInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
}

/**
 * Defines one route: registers it in the OpenAPI document, parses body/query/params with its
 * zod schemas before the handler runs, and sends the handler's result as JSON.
 */
export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(
  router: Router,
  basePath: string,
  spec: RouteSpec<B, Q, P, R>,
  handler: (input: HandlerInput<Infer<B>, Infer<Q>, Infer<P>>) => Promise<z.input<R>> | z.input<R>,
): void {
  registerOpenApi(basePath, spec);
  router[spec.method](spec.path, async (req: Request, res: Response) => {
    if (spec.adminOnly) req.requireAdmin?.();
    assertReadableInput(req, spec.body !== undefined);
    const body = parsePart(spec.body, req.body ?? {}, 'body');
    const query = parsePart(spec.query, req.query, 'query');
    const params = parsePart(spec.params, req.params, 'path parameters');
    const result = await handler({ body, query, params, req, res } as HandlerInput<Infer<B>, Infer<Q>, Infer<P>>);
    if (res.headersSent) return;
    // A handler may pick another status (health answers 503); otherwise the spec's success status.
    res.status(res.statusCode !== 200 ? res.statusCode : (spec.status ?? 200)).json(result);
  });
}

function parsePart<T extends z.ZodType | undefined>(schema: T, value: unknown, where: string): Infer<T> {
  if (!schema) return undefined as Infer<T>;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, where);
  return parsed.data as Infer<T>;
}

function registerOpenApi(
  basePath: string,
  spec: RouteSpec<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType>,
): void {
  const fullPath = `${basePath}${spec.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const errorResponse = { description: 'Error', content: { 'application/json': { schema: errorBodySchema } } };
  const security = spec.security ?? 'bearer';
  const errorStatuses = new Set([400, 429, 500, ...(security === 'none' ? [] : [401, 403]), ...(spec.body ? [413, 415] : []), ...(spec.errors ?? [])]);
  openApiRegistry.registerPath({
    method: spec.method,
    path: fullPath,
    summary: spec.summary,
    tags: spec.tags,
    ...(security === 'none' ? {} : { security: [{ [security === 'bearer' ? 'bearerAuth' : 'cmsToken']: [] }] }),
    // Machine-readable too: clients (and the role test) find admin-only operations without parsing prose.
    ...(spec.adminOnly ? { description: 'Requires the org:admin role.', 'x-required-role': 'org:admin' } : {}),
    request: {
      ...(spec.body ? { body: { content: { 'application/json': { schema: spec.body } } } } : {}),
      ...(spec.query ? { query: spec.query as z.ZodObject } : {}),
      ...(spec.params ? { params: spec.params as z.ZodObject } : {}),
    },
    responses: {
      [spec.status ?? 200]: { description: 'Success', content: { 'application/json': { schema: spec.response } } },
      ...Object.fromEntries([...errorStatuses].map((status) => [status, errorResponse])),
    },
  });
}
