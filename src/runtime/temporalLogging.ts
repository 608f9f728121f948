import type { LogLevel, LogMetadata } from '@temporalio/common';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Logger } from '../logging/logger';

const pinoLevels: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * Sends the Temporal SDK's own logs (worker state, workflow logs) through pino as JSON, and
 * leaves signals to our Lifecycle: the SDK's own SIGINT/SIGTERM handler would shut the worker
 * down before the API has stopped taking requests that wait on workflows.
 */
export function routeTemporalLogsTo(logger: Logger): void {
  const child = logger.child({ component: 'temporal-sdk' });
  const level = logger.level === 'debug' || logger.level === 'trace' ? 'DEBUG' : 'WARN';
  try {
    Runtime.install({
      shutdownSignals: [],
      logger: new DefaultLogger(level, (entry) => {
        child[pinoLevels[entry.level]]((entry.meta ?? {}) as LogMetadata, entry.message);
      }),
    });
  } catch {
    // The runtime was already installed in this process (tests); keep it.
  }
}
