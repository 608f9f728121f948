import path from 'node:path';
import { z } from 'zod';
import { defaultProcessorEndpointAllow, parseEndpointAllow } from '../processors/endpoint';
import { projectRoot } from '../projectRoot';

/**
 * Bounds of the in-process structures that grow with traffic (docs/configuration.md, "Memory").
 * Code that runs without parsed configuration (tests, the sandbox started by a test) uses these.
 */
export const memoryLimitDefaults = {
  SANDBOX_ACQUIRER_MAX_ENTRIES: 20_000,
  SANDBOX_THREEDS_MAX_TRANSACTIONS: 5_000,
  SANDBOX_OUTBOX_MAX_MESSAGES: 1_000,
  SANDBOX_INBOX_MAX_DELIVERIES: 1_000,
  LAST_USED_FLUSH_MS: 1_000,
  LAST_USED_MAX_PENDING_KEYS: 10_000,
  RECORDED_VIOLATIONS_MAX: 1_000,
  TEMPORAL_MAX_CACHED_WORKFLOWS: 100,
} as const;

const positiveInt = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Every environment variable the engine reads. docs/configuration.md's table mirrors this. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().default(path.join(projectRoot, '.data')),
    DATABASE_URL: z.string().url().optional(),
    EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    TEMPORAL_ADDRESS: z.string().optional(),
    TEMPORAL_NAMESPACE: z.string().default('default'),
    TEMPORAL_API_KEY: z.string().optional(),
    TEMPORAL_TLS: booleanFromEnv.optional(),
    TEMPORAL_TLS_CERT_PATH: z.string().optional(),
    TEMPORAL_TLS_KEY_PATH: z.string().optional(),
    TEMPORAL_TASK_QUEUE: z.string().default('payments'),
    TEMPORAL_DEV_SERVER_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
    TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
    TEMPORAL_CLI_PATH: z.string().optional(),
    REDIS_URL: z.string().url().optional(),
    /** The current master key of the vault (64 hex); unset outside production: a key file in DATA_DIR. */
    ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
      .optional(),
    /** Master keys rotated out, comma-separated: still read, never written (docs/operations.md, key rotation). */
    ENCRYPTION_KEYS_PREVIOUS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be a comma-separated list of 64-hex-character keys'))),
    SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
    SANDBOX_URL: z.string().url().optional(),
    PUBLIC_BASE_URL: z.string().url().optional(),
    WEBHOOK_ALLOW_INSECURE_URLS: booleanFromEnv.default(false),
    /**
     * Webhook endpoints on loopback (127.0.0.0/8, ::1) where http is allowed (test mode). Unset: off,
     * except under `npm start` outside NODE_ENV=production (see `withStartDefaults`).
     */
    WEBHOOK_ALLOW_LOOPBACK: booleanFromEnv.optional(),
    /** Check every answer against /openapi.json and log what it does not declare (default: on when NODE_ENV=test). */
    CHECK_RESPONSES: booleanFromEnv.optional(),
    /** GET /metrics on the API (Prometheus text, no API key): keep it off the public internet. */
    METRICS_ENABLED: booleanFromEnv.default(true),
    /** `npm run worker` serves its own /metrics on this port when set (unset: none). */
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** The worker's Temporal SDK metrics (Prometheus, served by the SDK's runtime) on this port when set. */
    TEMPORAL_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** OTLP/HTTP collector base URL (http://collector:4318): traces are exported there; unset: tracing off. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
    /** The service name spans are exported under (default: the role, payment-engine, -api or -worker). */
    OTEL_SERVICE_NAME: z.string().min(1).optional(),
    PAYMENT_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(20000),
    /**
     * How long after a payment's finalize commit its events are dispatched (webhook deliveries
     * started, receipt sent): long enough for the payment's answer to leave first, since both need
     * the worker's main thread. 0: at once.
     */
    PAYMENT_DISPATCH_DELAY_MS: z.coerce.number().int().min(0).max(10000).default(30),
    /** How long a capture, void or refund answered `pending` waits for the processor's webhook before asking it. */
    FOLLOW_UP_CONFIRMATION_WAIT_MS: z.coerce.number().int().min(1000).default(86_400_000),
    /** Slow-client limits of the API server: all request headers, the whole request, an idle keep-alive connection. */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(10000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3600000).default(30000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600000).default(65000),
    /** How long one processor call may take before it counts as a technical failure (timeout). */
    PROCESSOR_TIMEOUT_MS: z.coerce.number().int().min(50).max(120000).default(5000),
    /** Hosts a test processor's `credentials.endpoint` may name: comma-separated host[:port]; default loopback. */
    PROCESSOR_ENDPOINT_ALLOW: z
      .string()
      .default(defaultProcessorEndpointAllow)
      .superRefine((list, context) => {
        try {
          parseEndpointAllow(list);
        } catch (error) {
          context.addIssue({ code: 'custom', message: (error as Error).message });
        }
      }),
    /** Customer portal: session lifetime, one-time login code lifetime, offer-link signing secret. */
    PORTAL_SESSION_TTL_MINUTES: z.coerce.number().int().min(1).max(43200).default(720),
    PORTAL_LOGIN_CODE_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
    PORTAL_LINK_SECRET: z.string().min(32).optional(),
    /**
     * Portal sign-in limits (docs/subscriptions.md): requests per window per (store, e-mail) and per
     * client IP on login and on confirm, and failed confirms per (store, e-mail) in 24 hours.
     */
    PORTAL_LOGIN_WINDOW_MINUTES: positiveInt(1, 1440, 60),
    PORTAL_LOGIN_MAX_PER_EMAIL: positiveInt(1, 1000, 5),
    PORTAL_LOGIN_MAX_PER_IP: positiveInt(1, 100_000, 30),
    PORTAL_CONFIRM_MAX_PER_EMAIL: positiveInt(1, 1000, 15),
    PORTAL_CONFIRM_MAX_PER_IP: positiveInt(1, 100_000, 60),
    PORTAL_LOGIN_MAX_FAILED_CONFIRMS_PER_DAY: positiveInt(1, 10_000, 20),
    /** smtp(s)://user:pass@host:port; unset: customer e-mail of test mode goes to the sandbox outbox. */
    SMTP_URL: z.string().url().optional(),
    SMTP_FROM: z.string().default('no-reply@payment-engine.local'),
    /** Identity management sessions: unset JWKS URL = the engine is its own identity provider (key in DATA_DIR). */
    IAM_JWKS_URL: z.string().url().optional(),
    IAM_ISSUER: z.string().min(1).optional(),
    IAM_AUDIENCE: z.string().min(1).default('payment-engine-iam'),
    IAM_SESSION_TTL_MINUTES: z.coerce.number().int().min(1).max(43200).default(60),
    /** Origins (scheme://host[:port], comma-separated) besides the API's own whose cookie-authenticated IAM writes are accepted. */
    IAM_ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((value, ctx) => {
        const origins = value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean);
        for (const origin of origins) {
          let parsed: URL | undefined;
          try {
            parsed = new URL(origin);
          } catch {
            parsed = undefined;
          }
          if (!parsed || parsed.origin !== origin)
            ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin (scheme://host[:port], no path)` });
        }
        return origins;
      }),
    /** Memory bounds: each structure that grows with traffic keeps at most this many entries. */
    SANDBOX_ACQUIRER_MAX_ENTRIES: positiveInt(100, 10_000_000, memoryLimitDefaults.SANDBOX_ACQUIRER_MAX_ENTRIES),
    SANDBOX_THREEDS_MAX_TRANSACTIONS: positiveInt(10, 1_000_000, memoryLimitDefaults.SANDBOX_THREEDS_MAX_TRANSACTIONS),
    SANDBOX_OUTBOX_MAX_MESSAGES: positiveInt(10, 1_000_000, memoryLimitDefaults.SANDBOX_OUTBOX_MAX_MESSAGES),
    SANDBOX_INBOX_MAX_DELIVERIES: positiveInt(10, 1_000_000, memoryLimitDefaults.SANDBOX_INBOX_MAX_DELIVERIES),
    LAST_USED_FLUSH_MS: positiveInt(10, 600_000, memoryLimitDefaults.LAST_USED_FLUSH_MS),
    LAST_USED_MAX_PENDING_KEYS: positiveInt(1, 1_000_000, memoryLimitDefaults.LAST_USED_MAX_PENDING_KEYS),
    RECORDED_VIOLATIONS_MAX: positiveInt(1, 1_000_000, memoryLimitDefaults.RECORDED_VIOLATIONS_MAX),
    /** Workflows the worker keeps in its sticky cache (0 turns the cache off). */
    TEMPORAL_MAX_CACHED_WORKFLOWS: z.coerce
      .number()
      .int()
      .refine((n) => n === 0 || (n >= 2 && n <= 100_000), 'must be 0 or between 2 and 100000')
      .default(memoryLimitDefaults.TEMPORAL_MAX_CACHED_WORKFLOWS),
  })
  .refine((cfg) => !cfg.IAM_JWKS_URL || cfg.IAM_ISSUER, {
    // Without an expected issuer, any key set's tokens would pass: an external provider must be named.
    message: 'must be set when IAM_JWKS_URL is set',
    path: ['IAM_ISSUER'],
  })
  .refine((cfg) => cfg.NODE_ENV !== 'production' || cfg.ENCRYPTION_KEY, {
    // The generated key file lives beside the database: a copy of the data directory would carry both.
    message: 'must be set when NODE_ENV=production (64 hex characters; the generated key file is for development)',
    path: ['ENCRYPTION_KEY'],
  })
  .refine((cfg) => cfg.HTTP_HEADERS_TIMEOUT_MS <= cfg.HTTP_REQUEST_TIMEOUT_MS, {
    // Node refuses to start a server whose headers may take longer than the whole request.
    message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
  });

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses configuration from an environment; throws a one-line error naming each bad variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return result.data;
}

/**
 * `npm start`'s embedded set-up: everything on one machine, so loopback webhook receivers are on
 * unless the operator says otherwise or runs NODE_ENV=production. `npm run api` and `npm run
 * worker` (the split deployment) keep them off unless WEBHOOK_ALLOW_LOOPBACK=true.
 */
export function withStartDefaults(cfg: Config): Config {
  return { ...cfg, WEBHOOK_ALLOW_LOOPBACK: cfg.WEBHOOK_ALLOW_LOOPBACK ?? cfg.NODE_ENV !== 'production' };
}

let cached: Config | undefined;

/** The process-wide configuration, parsed once. */
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}

export { projectRoot };
