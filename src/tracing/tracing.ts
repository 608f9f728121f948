import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config';

/**
 * OpenTelemetry tracing of one process: started once at start-up when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set, never otherwise. Off, the SDK is not even loaded (imported on start), and the pieces that
 * trace (the HTTP middleware, the Temporal client and worker interceptors, the processor-call span)
 * are not installed, so an engine without a collector pays nothing for them.
 */
export interface Tracing {
  /** Where every span of the process ends, the workflow spans the worker receives from its sandboxes included. */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Sends what is buffered and stops the SDK (last in the shutdown order). */
  stop(): Promise<void>;
}

let active: Tracing | undefined;

/** The process's tracing, when started. */
export function activeTracing(): Tracing | undefined {
  return active;
}

/**
 * Starts the SDK with this span processor (the OTLP exporter in production, an in-memory one in
 * tests): W3C trace context propagation, an AsyncLocalStorage context manager, no automatic
 * instrumentation, no metrics or logs (metrics are Prometheus, src/metrics).
 */
export async function startTracing(options: { serviceName: string; spanProcessor: SpanProcessor }): Promise<Tracing> {
  if (active) throw new Error('tracing is already started in this process');
  const [{ NodeSDK }, { resourceFromAttributes }, { ATTR_SERVICE_NAME }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName });
  const sdk = new NodeSDK({
    resource,
    autoDetectResources: false,
    spanProcessors: [options.spanProcessor],
    // Without these the SDK would start OTLP metric and log exporters of its own.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  const tracing: Tracing = {
    spanProcessor: options.spanProcessor,
    resource,
    stop: async () => {
      if (active === tracing) active = undefined;
      await sdk.shutdown();
    },
  };
  active = tracing;
  return tracing;
}

/**
 * Tracing as configured: spans batched to the OTLP/HTTP collector at OTEL_EXPORTER_OTLP_ENDPOINT
 * (the exporter reads it and the other OTEL_EXPORTER_OTLP_* variables itself; the engine does not
 * parse them), or none when it is unset. `role` names the service unless OTEL_SERVICE_NAME does.
 */
export async function startTracingFromConfig(cfg: Config, role: string): Promise<Tracing | undefined> {
  if (!cfg.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const [{ OTLPTraceExporter }, { BatchSpanProcessor }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace-base'),
  ]);
  return startTracing({
    serviceName: cfg.OTEL_SERVICE_NAME ?? role,
    spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter()),
  });
}
