import { trace } from '@opentelemetry/api';
import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type {
  Headers,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptorsFactory,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

/**
 * OpenTelemetry's workflow interceptors, bundled with the workflow code (temporal/worker.ts) and
 * used only for calls that carry a trace context: a start, signal, update or query whose client
 * traces gets its span, and the activities, children and signals it issues carry the context on.
 * A workflow nobody traces makes no span and adds no header to its commands, so an engine with
 * tracing off records the same histories as before. Whether a call carried a context is part of
 * its history, so a replay takes the same path.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let otel: { inbound: OpenTelemetryInboundInterceptor; outbound: OpenTelemetryOutboundInterceptor } | undefined;
  // Built on the first traced call: an untraced run never sets up a tracer in its sandbox.
  const traced = (headers: Headers) =>
    TRACE_HEADER in headers
      ? (otel ??= { inbound: new OpenTelemetryInboundInterceptor(), outbound: new OpenTelemetryOutboundInterceptor() })
      : undefined;
  // An outgoing call is traced when it is made inside a traced call's span.
  const within = () => (trace.getActiveSpan() ? otel : undefined);

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
  return { inbound: [inbound], outbound: [outbound], internals: [new OpenTelemetryInternalsInterceptor()] };
};
