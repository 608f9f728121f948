import { trace } from '@opentelemetry/api';
import type { ClientInterceptors, WorkflowClientInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  makeWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { activeTracing, type Tracing } from './tracing';

/**
 * Temporal's side of tracing. A trace starts at an API request; what that request causes follows
 * it, and nothing else is traced: the client passes the caller's span on in the headers of a
 * workflow start, update, signal or query only when there is one (an HTTP request, an activity of a
 * traced workflow), the workflow interceptors (workflows/tracing.ts, in the bundle) continue it in
 * the sandbox and hand it to the activities, and an activity opens its span only when its headers
 * carry one. Work no request started (the singleton sweepers every 30 s, a worker's start-up) makes
 * no spans, rather than a trace per sweep, or one that never ends.
 */
export function tracingClientInterceptors(): ClientInterceptors | undefined {
  if (!activeTracing()) return undefined;
  const otel = new OpenTelemetryWorkflowClientInterceptor();
  const inSpan = () => trace.getActiveSpan() !== undefined;
  const workflow: WorkflowClientInterceptor = {
    start: (input, next) => (inSpan() ? otel.start(input, next) : next(input)),
    startWithDetails: (input, next) => (inSpan() ? otel.startWithDetails(input, next) : next(input)),
    startUpdate: (input, next) => (inSpan() ? otel.startUpdate(input, next) : next(input)),
    startUpdateWithStart: (input, next) => (inSpan() ? otel.startUpdateWithStart(input, next) : next(input)),
    signal: (input, next) => (inSpan() ? otel.signal(input, next) : next(input)),
    signalWithStart: (input, next) => (inSpan() ? otel.signalWithStart(input, next) : next(input)),
    query: (input, next) => (inSpan() ? otel.query(input, next) : next(input)),
    terminate: (input, next) => (inSpan() ? otel.terminate(input, next) : next(input)),
    cancel: (input, next) => (inSpan() ? otel.cancel(input, next) : next(input)),
    describe: (input, next) => (inSpan() ? otel.describe(input, next) : next(input)),
  };
  return { workflow: [workflow] };
}

/**
 * Activity interceptors when tracing, and always the sink the sandbox sends its finished workflow
 * spans to: a workflow started by a tracing API may run on a worker that does not trace, which then
 * drops them instead of logging an unregistered sink for every task.
 */
export function workerTracingOptions(): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const tracing = activeTracing();
  if (!tracing) return { sinks: droppedWorkflowSpans };
  return {
    interceptors: {
      activity: [
        (ctx) => {
          const otel = new OpenTelemetryActivityInboundInterceptor(ctx);
          return {
            inbound: {
              execute: (input, next) => (TRACE_HEADER in input.headers ? otel.execute(input, next) : next(input)),
            },
            outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
          };
        },
      ],
    },
    sinks: workflowSpanSink(tracing),
  };
}

const droppedWorkflowSpans: InjectedSinks<OpenTelemetrySinks> = {
  exporter: { export: { fn: () => undefined } },
};

type WorkflowExporterArgs = Parameters<typeof makeWorkflowExporter>;

/**
 * The interceptors package builds workflow spans in the shape of OpenTelemetry SDK 1.x (a
 * `parentSpanId`, an `instrumentationLibrary`); the 2.x processors and exporters read
 * `parentSpanContext` and `instrumentationScope`, and without them the workflow spans would lose
 * their parent (each a root of its own in the trace).
 */
function workflowSpanSink(tracing: Tracing): InjectedSinks<OpenTelemetrySinks> {
  const { spanProcessor } = tracing;
  const upgrading = {
    onStart: () => undefined,
    onEnd: (span: SdkOneSpan) => spanProcessor.onEnd(upgradedSpan(span)),
    forceFlush: () => spanProcessor.forceFlush(),
    // The process's processor is stopped with the SDK, not by the worker.
    shutdown: async () => undefined,
  };
  return {
    // Typed against SDK 1.x's processor and resource; it only calls onEnd and attaches the resource.
    exporter: makeWorkflowExporter(
      upgrading as unknown as WorkflowExporterArgs[0],
      tracing.resource as unknown as WorkflowExporterArgs[1],
    ),
  };
}

type ReadableSpan = Parameters<SpanProcessor['onEnd']>[0];
type SdkOneSpan = Omit<ReadableSpan, 'parentSpanContext' | 'instrumentationScope'> & {
  parentSpanId?: string;
  instrumentationLibrary?: ReadableSpan['instrumentationScope'];
};

/**
 * Also keeps only the attributes OpenTelemetry can carry (strings, numbers, booleans and arrays of
 * them): the sink merges the whole workflow info into each span, memo and search attributes as
 * nested objects included, which have no place in a span.
 */
function upgradedSpan(span: SdkOneSpan): ReadableSpan {
  const { parentSpanId, instrumentationLibrary, ...rest } = span;
  const context = span.spanContext();
  return {
    ...rest,
    attributes: Object.fromEntries(Object.entries(span.attributes).filter(([, value]) => isAttributeValue(value))),
    parentSpanContext: parentSpanId
      ? { traceId: context.traceId, spanId: parentSpanId, traceFlags: context.traceFlags }
      : undefined,
    instrumentationScope: instrumentationLibrary ?? { name: '@temporalio/interceptor-workflow' },
  };
}

function isAttributeValue(value: unknown): boolean {
  const primitive = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  return primitive(value) || (Array.isArray(value) && value.every(primitive));
}
