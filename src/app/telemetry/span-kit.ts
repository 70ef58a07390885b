// What the span code shares: the instance's tracer and W3C trace-context propagation. Loaded only
// with tracing on (through tracing-sdk.ts).
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanStatusCode, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import type { TraceHeaders } from './tracing.ts';

export interface SpanKit {
  tracer: Tracer;
  /** the trace headers (`traceparent`, `tracestate`) that continue `context` elsewhere */
  headersOf(context: Context): TraceHeaders;
  /** the context a carrier of trace headers (request headers, job data) continues; ROOT_CONTEXT when it carries none */
  contextFrom(carrier: Readonly<Record<string, unknown>> | null | undefined): Context;
}

export function createSpanKit(tracer: Tracer): SpanKit {
  const propagator = new W3CTraceContextPropagator();
  return {
    tracer,
    headersOf(context) {
      const headers: Record<string, string> = {};
      propagator.inject(context, headers, defaultTextMapSetter);
      return headers;
    },
    contextFrom(carrier) {
      if (!carrier || typeof carrier.traceparent !== 'string') return ROOT_CONTEXT;
      return propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
    },
  };
}

/**
 * Marks a span failed with a kind of error (a status, an SQLSTATE, a code or a class name), never
 * the error's message: messages can quote values.
 */
export function markFailed(span: Span, errorType: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute(ATTR_ERROR_TYPE, errorType);
}

/** The class name of a thrown value, as its error type. */
export function errorTypeOf(error: unknown): string {
  return error instanceof Error ? error.constructor.name || 'Error' : typeof error;
}
