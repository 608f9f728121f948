import pino from 'pino';
import type { Config } from '../config';

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

export type LogLevel = Config['LOG_LEVEL'];

/** The level comes from parsed configuration, so a bad LOG_LEVEL is a config error, not a pino crash. */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): pino.Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { service: 'payment-engine' },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type Logger = pino.Logger;
