import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { ProcessorAdapter } from '../processors/types';
import { activeTracing } from './tracing';

const tracer = trace.getTracer('payment-engine-processors');

export interface ProcessorIdentity {
  id: string;
  type: string;
}

/**
 * The adapter with each call to the processor (acquirer, PSP or its simulator) in a client span
 * `processor.<operation>` under the activity's, with the processor's id and type, the outcome and
 * a decline code. Never the request (card data, credentials) nor an error's message, which may
 * quote it: a failure shows as its error name and code only. Without tracing the adapter is
 * returned as is.
 */
export function traceProcessorCalls(adapter: ProcessorAdapter, processor: ProcessorIdentity): ProcessorAdapter {
  if (!activeTracing()) return adapter;
  const call = <T extends { outcome: string }>(operation: string, send: () => Promise<T>): Promise<T> =>
    // A call outside a traced activity stays untraced (see src/tracing/temporal.ts).
    !trace.getActiveSpan()
      ? send()
      : tracer.startActiveSpan(
          `processor.${operation}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'processor.id': processor.id,
              'processor.type': processor.type,
              'processor.operation': operation,
            },
          },
          async (span) => {
            try {
              const result = await send();
              span.setAttribute('processor.outcome', result.outcome);
              if ('code' in result && typeof result.code === 'string') span.setAttribute('processor.code', result.code);
              return result;
            } catch (error) {
              markFailed(span, error);
              throw error;
            } finally {
              span.end();
            }
          },
        );
  return {
    type: adapter.type,
    capabilities: adapter.capabilities,
    authorize: (request) => call('authorize', () => adapter.authorize(request)),
    capture: (request) => call('capture', () => adapter.capture(request)),
    void: (request) => call('void', () => adapter.void(request)),
    refund: (request) => call('refund', () => adapter.refund(request)),
    reverseByIdempotencyKey: (request) =>
      call('reverseByIdempotencyKey', () => adapter.reverseByIdempotencyKey(request)),
    lookup: (request) => call('lookup', () => adapter.lookup(request)),
  };
}

function markFailed(span: Span, error: unknown): void {
  const name = error instanceof Error ? error.name : 'Error';
  const code = (error as { code?: unknown } | undefined)?.code;
  span.setAttribute('error.type', name);
  if (typeof code === 'string') span.setAttribute('processor.code', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: name });
}
