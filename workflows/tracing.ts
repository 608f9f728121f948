import type {
  Headers,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptorsFactory,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

type OpenTelemetryWorkflowModule = typeof import('@temporalio/interceptors-opentelemetry/lib/workflow');
type OpenTelemetryApi = typeof import('@opentelemetry/api');

/** The header @temporalio/interceptors-opentelemetry carries a trace context in (its TRACE_HEADER). */
export const traceHeader = '_tracer-data';

/**
 * OpenTelemetry's workflow interceptors, bundled with the workflow code (temporal/worker.ts) and
 * used only for calls that carry a trace context: a start, signal, update or query whose client
 * traces gets its span, and the activities, children and signals it issues carry the context on.
 * A workflow nobody traces makes no span and adds no header to its commands, so an engine with
 * tracing off records the same histories as before. Whether a call carried a context is part of
 * its history, so a replay takes the same path.
 *
 * Each workflow run evaluates the modules it requires in its own sandbox, so OpenTelemetry (its SDK
 * 1.x, with the semantic conventions) is required on a run's first traced call, not by every run.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let otel:
    | {
        api: OpenTelemetryApi;
        inbound: InstanceType<OpenTelemetryWorkflowModule['OpenTelemetryInboundInterceptor']>;
        outbound: InstanceType<OpenTelemetryWorkflowModule['OpenTelemetryOutboundInterceptor']>;
        internals: InstanceType<OpenTelemetryWorkflowModule['OpenTelemetryInternalsInterceptor']>;
      }
    | undefined;
  const traced = (headers: Headers) => {
    if (!(traceHeader in headers)) return undefined;
    if (!otel) {
      // Bundled by webpack, evaluated here: a static import would load it into every run.
      /* eslint-disable no-restricted-globals, @typescript-eslint/no-require-imports */
      const module = require('@temporalio/interceptors-opentelemetry/lib/workflow') as OpenTelemetryWorkflowModule;
      const api = require('@opentelemetry/api') as OpenTelemetryApi;
      /* eslint-enable no-restricted-globals, @typescript-eslint/no-require-imports */
      otel = {
        api,
        inbound: new module.OpenTelemetryInboundInterceptor(),
        outbound: new module.OpenTelemetryOutboundInterceptor(),
        internals: new module.OpenTelemetryInternalsInterceptor(),
      };
    }
    return otel;
  };
  // An outgoing call is traced when it is made inside a traced call's span.
  const within = () => (otel?.api.trace.getActiveSpan() ? otel : undefined);

  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => traced(input.headers)?.inbound.execute(input, next) ?? next(input),
    handleSignal: (input, next) => traced(input.headers)?.inbound.handleSignal(input, next) ?? next(input),
    handleUpdate: (input, next) => traced(input.headers)?.inbound.handleUpdate(input, next) ?? next(input),
    validateUpdate: (input, next) => {
      const tracing = traced(input.headers);
      if (tracing) tracing.inbound.validateUpdate(input, next);
      else next(input);
    },
    handleQuery: (input, next) => traced(input.headers)?.inbound.handleQuery(input, next) ?? next(input),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => within()?.outbound.scheduleActivity(input, next) ?? next(input),
    scheduleLocalActivity: (input, next) => within()?.outbound.scheduleLocalActivity(input, next) ?? next(input),
    startChildWorkflowExecution: (input, next) =>
      within()?.outbound.startChildWorkflowExecution(input, next) ?? next(input),
    signalWorkflow: (input, next) => within()?.outbound.signalWorkflow(input, next) ?? next(input),
    continueAsNew: (input, next) => within()?.outbound.continueAsNew(input, next) ?? next(input),
    startNexusOperation: (input, next) => within()?.outbound.startNexusOperation(input, next) ?? next(input),
    getLogAttributes: (input, next) => within()?.outbound.getLogAttributes(input, next) ?? next(input),
  };
  // The context manager OpenTelemetry sets up in a traced run is released with the run.
  return {
    inbound: [inbound],
    outbound: [outbound],
    internals: [{ dispose: (input, next) => (otel ? otel.internals.dispose(input, next) : next(input)) }],
  };
};
