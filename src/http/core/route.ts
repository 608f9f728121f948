import { STATUS_CODES } from 'node:http';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { beforeWork } from './beforeWork';
import { errorBodySchema, validationError } from './errors';
import { passIdempotencyGate } from './idempotencyGate';
import { openApiRegistry } from './openapi';
import {
  acceptsIdempotencyKeys,
  derivedErrorStatuses,
  namesResource,
  registerOperation,
  type DeclaredResponse,
  type Method,
  type Security,
} from './operations';
import { assertReadableInput } from './requestBody';

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
  /** Longer prose for the OpenAPI document: the choices the summary leaves out. */
  description?: string;
  tags: string[];
  security?: Security;
  /** `org:admin` operations answer 403 to member keys. */
  adminOnly?: boolean;
  /**
   * Partner operations only full processing partners may call: any other partner's key answers 403
   * `payfac_required` before the body is read (documented as `x-required-partner-kind`).
   */
  partnerKind?: 'payfac';
  /**
   * A refusal that depends on the path: runs once the path parameters parsed (a malformed id stays
   * a 400) and before the query and body, so a caller without the right never learns what a valid
   * body would be. Throws (or rejects with) the refusal; may be async when the right depends on a
   * lookup (the account's partner), and is awaited before the query and body are parsed.
   */
  authorize?: (input: { params: Infer<P>; req: Request }) => void | Promise<void>;
  body?: B;
  /**
   * A typical JSON body for the OpenAPI document (`requestBody…example`): what a first call would
   * send. Typed by the body schema; test/unit/openapiCompleteness.test.ts parses it with the schema.
   */
  example?: B extends z.ZodType ? z.input<B> : never;
  query?: Q;
  params?: P;
  response: R;
  /**
   * Top-level fields of the answer that hold a secret shown once (a signing secret, a session
   * token, a link that opens a session): left out of the stored Idempotency-Key answer, so a replay
   * shows the resource without them. Declare them optional in `response`.
   */
  secretFields?: string[];
  /** Status of a successful answer (default 200). */
  status?: number;
  /** Other statuses answered with the `response` body (202: a payment still running at the deadline; health's 503). */
  otherResponseStatuses?: number[];
  /** A redirect the operation may answer instead, without a body (303 to a merchant's return URL). */
  redirectStatus?: number;
  /** The success status may also answer an HTML page (for a browser that asks for one) instead of the JSON body. */
  htmlAnswer?: boolean;
  /**
   * Error statuses the handler's own logic answers (a body naming something missing: 404; a
   * conflict: 409; a decline: 402). Those every operation of its kind answers are derived from the
   * declaration (see `derivedErrorStatuses`): never list them here.
   */
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
  registerOpenApi(basePath, spec, acceptsIdempotencyKeys(router));
  router[spec.method](spec.path, async (req: Request, res: Response) => {
    // Kept for metrics: once an error leaves the router, Express no longer says where it was mounted.
    res.locals.routeTemplate = `${basePath}${spec.path}`;
    // Authorize, then validate: a refusal here happened before any work (see beforeWork.ts).
    // The URL first: a malformed id in the path is the error to report, whatever the body holds.
    const params = beforeWork(() => {
      if (spec.adminOnly) req.requireAdmin?.();
      assertReadableInput(req, spec.body !== undefined);
      return parsePart(spec.params, req.params, 'path parameters');
    });
    // The caller's rights, before anything is learnt from the query or body.
    if (spec.partnerKind) await beforeWork(() => req.requirePartnerKind!(spec.partnerKind!));
    if (spec.authorize) await beforeWork(() => spec.authorize!({ params: params as Infer<P>, req }));
    // Only now the Idempotency-Key: a stored answer is replayed to a caller allowed to make the request.
    if (await passIdempotencyGate(res, { secretFields: spec.secretFields })) return;
    const { body, query } = beforeWork(() => {
      const query = parsePart(spec.query, req.query, 'query');
      return { body: parsePart(spec.body, req.body ?? {}, 'body'), query };
    });
    const result = await handler({ body, query, params, req, res } as HandlerInput<Infer<B>, Infer<Q>, Infer<P>>);
    if (res.headersSent) return;
    // A handler may pick another status (health answers 503); otherwise the route's declared success status.
    res.status(res.statusCode !== 200 ? res.statusCode : (spec.status ?? 200)).json(result);
  });
}

function parsePart<T extends z.ZodType | undefined>(schema: T, value: unknown, where: string): Infer<T> {
  if (!schema) return undefined as Infer<T>;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, where);
  return parsed.data as Infer<T>;
}

const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .openapi({
      description:
        'Makes a retry safe: a repeat with the same body gets the first answer again (docs/payments.md: Idempotency-Key)',
    }),
});

/** Every body example declared, with the schema it must pass (for the completeness test). */
const bodyExamples: { method: Method; path: string; schema: z.ZodType; example: unknown }[] = [];
export const declaredBodyExamples = (): readonly (typeof bodyExamples)[number][] => bodyExamples;

const exampleOf = (example: unknown) => (example === undefined ? {} : { example });

function registerOpenApi(
  basePath: string,
  spec: RouteSpec<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType>,
  idempotencyKeys: boolean,
): void {
  const fullPath = `${basePath}${spec.path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const security = spec.security ?? 'bearer';
  const takesIdempotencyKey = idempotencyKeys && spec.method === 'post';
  const traits = {
    method: spec.method,
    security,
    adminOnly: spec.adminOnly ?? false,
    hasBody: spec.body !== undefined,
    hasPathParams: spec.params !== undefined,
    namesResourceInInput: namesResource(spec.body) || namesResource(spec.query),
    idempotencyKeys,
  };
  const declared = new Map<number, DeclaredResponse>();
  for (const status of [spec.status ?? 200, ...(spec.otherResponseStatuses ?? [])])
    declared.set(status, { schema: spec.response, ...(spec.htmlAnswer ? { html: true } : {}) });
  if (spec.redirectStatus) declared.set(spec.redirectStatus, {});
  for (const status of [...derivedErrorStatuses(traits), ...(spec.errors ?? [])].sort((a, b) => a - b))
    declared.set(status, { schema: errorBodySchema });
  registerOperation(spec.method, fullPath, declared);
  if (spec.body && spec.example !== undefined)
    bodyExamples.push({ method: spec.method, path: fullPath, schema: spec.body, example: spec.example });

  const responses = Object.fromEntries(
    [...declared].map(([status, { schema, html }]) => [
      status,
      {
        description: STATUS_CODES[status] ?? 'Answer',
        ...(schema
          ? {
              content: {
                'application/json': { schema },
                ...(html ? { 'text/html': { schema: { type: 'string' as const } } } : {}),
              },
            }
          : {
              headers: {
                Location: { description: 'Where the browser goes next', schema: { type: 'string' as const } },
              },
            }),
      },
    ]),
  );
  const description = [
    spec.adminOnly ? 'Requires the org:admin role.' : '',
    spec.partnerKind ? partnerKindNote(spec.partnerKind) : '',
    spec.description ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  openApiRegistry.registerPath({
    method: spec.method,
    path: fullPath,
    summary: spec.summary,
    tags: spec.tags,
    ...(security === 'none' ? {} : { security: [{ [security === 'bearer' ? 'bearerAuth' : security]: [] }] }),
    // Machine-readable too: clients (and the role and partner-kind sweeps) find these without parsing prose.
    ...(spec.adminOnly ? { 'x-required-role': 'org:admin' } : {}),
    ...(spec.partnerKind ? { 'x-required-partner-kind': spec.partnerKind } : {}),
    ...(description ? { description } : {}),
    request: {
      ...(spec.body
        ? { body: { content: { 'application/json': { schema: spec.body, ...exampleOf(spec.example) } } } }
        : {}),
      ...(spec.query ? { query: spec.query as z.ZodObject } : {}),
      ...(spec.params ? { params: spec.params as z.ZodObject } : {}),
      ...(takesIdempotencyKey ? { headers: idempotencyHeaders } : {}),
    },
    responses,
  });
}

const partnerKindNote = (kind: 'payfac') =>
  `Requires a ${kind} partner: any other partner key answers 403 ${kind}_required, whatever the body.`;
