import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { NextFunction, Request, Response } from 'express';
import { routeTemplateOf } from '../metrics/http';

const tracer = trace.getTracer('payment-engine-http');

/** Polled every few seconds by Prometheus and load balancers: a trace each would bury the payments. */
const probePaths = new Set(['/metrics', '/api/public/v1/health']);

/**
 * The server span of an API request, the root of a payment's trace (or a child of the caller's,
 * when it sends a W3C `traceparent`). Named by method and route template once routed
 * (`POST /api/public/v1/payments/process`), never by the raw path, and carrying no body, query or
 * header beyond the request id. The rest of the request runs in its context, so the Temporal
 * client's span, and through it the workflow's, are its children.
 */
export function traceHttpRequests(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' && probePaths.has(req.path)) return next();
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer.startSpan(
    req.method,
    { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method } },
    parent,
  );
  const requestContext = trace.setSpan(parent, span);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const route = routeTemplateOf(req, res);
    span.updateName(`${req.method} ${route}`);
    span.setAttributes({ [ATTR_HTTP_ROUTE]: route, [ATTR_HTTP_RESPONSE_STATUS_CODE]: res.statusCode });
    const requestId = res.getHeader('x-request-id');
    if (typeof requestId === 'string') span.setAttribute('http.request.id', requestId);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', end);
  // A client that goes away before the answer still closes its span.
  res.once('close', end);
  // Body chunks arrive on the socket's own async context: bind the streams so their listeners, and
  // whatever they call next, run in the request's.
  context.bind(requestContext, req);
  context.bind(requestContext, res);
  context.with(requestContext, next);
}
