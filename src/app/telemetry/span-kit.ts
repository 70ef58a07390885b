// What the span code shares: the instance's tracer and W3C trace-context propagation. Loaded only
// with tracing on (through tracing-sdk.ts).
import { context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import type { TraceHeaders } from './tracing.types.ts';

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

/**
 * Runs `work` with `span` active under `parent`: a throw marks the span failed (by its error type)
 * and the span ends either way. `work` gets the active context (e.g. to pass trace headers on).
 */
export async function withinSpan<T>(span: Span, parent: Context, work: (active: Context) => Promise<T>): Promise<T> {
  const active = trace.setSpan(parent, span);
  try {
    return await context.with(active, work, undefined, active);
  } catch (error) {
    markFailed(span, errorTypeOf(error));
    throw error;
  } finally {
    span.end();
  }
}

/** The class name of a thrown value, as its error type. */
export function errorTypeOf(error: unknown): string {
  return error instanceof Error ? error.constructor.name || 'Error' : typeof error;
}
