import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), one registry per process. Each series is counted
 * in the process where its event happens: HTTP, idempotent replays and rate-limit refusals in the
 * API; payments, attempts, refunds and webhook deliveries in the worker's activities (after their
 * transaction commits, and only by the call that changed the row, so an activity retry is not
 * counted twice). `npm start` runs both in one process, so its `/metrics` has everything; a
 * separate `npm run worker` serves its own on WORKER_METRICS_PORT (docs/operations.md).
 *
 * Labels are bounded: route templates (never a raw path with ids), processor types (not ids),
 * decline codes from the decline table, HTTP status classes for webhook endpoints.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

export const paymentsFinished = new Counter({
  name: 'payments_total',
  help: 'Payments that reached a final status, by status, decline code ("" when none) and processor type',
  labelNames: ['status', 'decline_code', 'processor'] as const,
  registers: [metricsRegistry],
});

export const paymentDuration = new Histogram({
  name: 'payment_duration_seconds',
  help: 'From a payment row being written to its final status (3-D Secure challenges included), by status',
  labelNames: ['status'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
  registers: [metricsRegistry],
});

export const paymentAttempts = new Counter({
  name: 'payment_attempts_total',
  help: 'Processor attempts answered, by processor type and outcome (approved, declined, …)',
  labelNames: ['processor', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const paymentCascades = new Counter({
  name: 'payment_cascades_total',
  help: 'Attempts that went to another processor after an earlier attempt of the same payment failed',
  labelNames: ['processor'] as const,
  registers: [metricsRegistry],
});

export const refundsFinished = new Counter({
  name: 'refunds_total',
  help: 'Refunds settled by their processor, by outcome (succeeded, failed)',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome and the endpoint answer class (2xx, 4xx, 5xx, none)',
  labelNames: ['outcome', 'endpoint_status'] as const,
  registers: [metricsRegistry],
});

export const idempotentReplays = new Counter({
  name: 'idempotent_replays_total',
  help: 'Requests answered from an earlier request with the same Idempotency-Key, by API base path',
  labelNames: ['api'] as const,
  registers: [metricsRegistry],
});

export const rateLimitRefusals = new Counter({
  name: 'rate_limit_refusals_total',
  help: 'Requests refused with 429 by the rate limiter, by which limit',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});

/** `404` → `4xx`; no answer at all → `none`. */
export const statusClass = (status: number | undefined | null) => (status ? `${Math.floor(status / 100)}xx` : 'none');
