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

export interface TemporalRuntimeOptions {
  /** Serve the SDK's own metrics (workflow and activity tasks, polls, cache, latencies) in Prometheus text here. */
  metricsPort?: number;
  /** The address the metrics server binds to (an IP address; `localhost` is taken as 127.0.0.1). */
  host?: string;
}

/**
 * Installs the Temporal SDK's runtime of this process, once, before any worker connection (the
 * runtime cannot be changed afterwards). It sends the SDK's own logs (worker state, workflow logs)
 * through pino as JSON; with `metricsPort` it serves the SDK's metrics at
 * `http://host:port/metrics`; and it leaves signals to our Lifecycle: the SDK's own SIGINT/SIGTERM
 * handler would shut the worker down before the API has stopped taking requests that wait on
 * workflows. Answers the metrics URL when there is one.
 */
export function installTemporalRuntime(logger: Logger, options: TemporalRuntimeOptions = {}): string | undefined {
  const child = logger.child({ component: 'temporal-sdk' });
  const level = logger.level === 'debug' || logger.level === 'trace' ? 'DEBUG' : 'WARN';
  const host = !options.host || options.host === 'localhost' ? '127.0.0.1' : options.host;
  const bindAddress = options.metricsPort ? `${host}:${options.metricsPort}` : undefined;
  try {
    Runtime.install({
      shutdownSignals: [],
      logger: new DefaultLogger(level, (entry) => {
        child[pinoLevels[entry.level]]((entry.meta ?? {}) as LogMetadata, entry.message);
      }),
      ...(bindAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress } } } } : {}),
    });
  } catch (error) {
    // Asked for metrics, a runtime installed earlier would silently serve none.
    if (bindAddress) throw error;
    // The runtime was already installed in this process (tests); keep it.
  }
  return bindAddress ? `http://${bindAddress}/metrics` : undefined;
}
