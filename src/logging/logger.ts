import pino from 'pino';

/** Paths that may carry secrets; pino replaces their values before anything is written. */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-cms-token"]',
  'req.headers.cookie',
  '*.authorization',
  // `*.x` matches one level down only; top-level fields need their own paths.
  'authorization',
  'token',
  'secret',
  'partnerKey',
  '*.partnerKey',
  '*.token',
  '*.secret',
  '*.password',
  '*.apiKey',
  '*.cardNumber',
  '*.number',
  '*.cvc',
  '*.credentials',
  '*.signingSecret',
];

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): pino.Logger {
  return pino({
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { service: 'payment-engine' },
  });
}

export const logger = createLogger();
export type Logger = pino.Logger;
