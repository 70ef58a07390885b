// A trace carried by stored work: an outbox event keeps the trace context of the write that made
// it, and the work it causes later (webhook deliveries, automation runs) continues exactly that
// trace, not the trace of whichever dispatch job happened to hand it on. Loaded whether tracing is
// on or off and free of OpenTelemetry imports: tracing-sdk.ts installs the reader of the active
// trace when an instance turns tracing on; until then there is no trace to keep.
import type { TraceHeaders } from './tracing.types.ts';

/** What a stored row keeps of a trace (its columns `traceparent`, `tracestate`). */
export interface StoredTrace {
  traceparent: string | null;
  tracestate: string | null;
}

/** The headers that continue the active trace, when a span is recording. */
type ActiveTraceReader = () => TraceHeaders | null;

const NONE: StoredTrace = Object.freeze({ traceparent: null, tracestate: null });

// process-wide, like the OpenTelemetry context it reads: every traced instance of a process shares
// one context manager, and the W3C format does not depend on the instance
let readActive: ActiveTraceReader | null = null;

/** Called by tracing-sdk.ts when an instance turns tracing on. */
export function installStoredTrace(reader: ActiveTraceReader): void {
  readActive = reader;
}

/** The active trace, to store with work that runs later (nulls when tracing is off or nothing records). */
export function activeStoredTrace(): StoredTrace {
  const headers = readActive?.();
  if (!headers?.traceparent) return NONE;
  return { traceparent: headers.traceparent, tracestate: headers.tracestate ?? null };
}

/** The W3C headers of a stored trace (none when it holds none), to carry in job data. */
export function traceHeadersOf(stored: StoredTrace): TraceHeaders {
  if (!stored.traceparent) return {};
  return stored.tracestate ? { traceparent: stored.traceparent, tracestate: stored.tracestate } : { traceparent: stored.traceparent };
}
