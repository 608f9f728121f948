import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, NextFunction, Request, Response } from 'express';
import { httpRequestDuration, httpRequests, metricsRegistry } from './metrics';

/**
 * The route template that answered (`/api/public/v1/payments/:paymentId`), never the raw path; an
 * answer given before routing (authentication refusal, idempotent replay, unknown path, 413) is
 * `(unrouted)`.
 */
export function routeTemplateOf(req: Request, res: Response): string {
  const defined: unknown = res.locals.routeTemplate;
  if (typeof defined === 'string') return defined;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : '(unrouted)';
}

/** Counts and times every request when its answer is sent, by route template and status. */
export function countHttpRequests(req: Request, res: Response, next: NextFunction): void {
  const stop = httpRequestDuration.startTimer();
  res.once('finish', () => {
    const labels = { method: req.method, route: routeTemplateOf(req, res), status: String(res.statusCode) };
    httpRequests.inc(labels);
    stop(labels);
  });
  next();
}

async function answerMetrics(res: http.ServerResponse): Promise<void> {
  const text = await metricsRegistry.metrics();
  res.writeHead(200, { 'content-type': metricsRegistry.contentType });
  res.end(text);
}

/**
 * `GET /metrics` on the API: Prometheus text, no API key (like a health check). Operators keep it
 * off the public internet (reverse proxy rule or network policy) or set METRICS_ENABLED=false.
 */
export function registerMetricsRoute(app: Express): void {
  app.get('/metrics', (_req, res, next) => {
    answerMetrics(res).catch(next);
  });
}

/**
 * A worker run on its own (`npm run worker`) serves its metrics here: payments, attempts, refunds
 * and webhook deliveries are counted where the activities run.
 */
export async function startMetricsServer(port: number, host: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      answerMetrics(res).catch(() => {
        res.writeHead(500).end();
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/metrics`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
