// A trace carried by stored work: an outbox event keeps the trace context of the write that made
// it, and the work it causes later (webhook deliveries, automation runs) continues exactly that
// trace, not the trace of whichever dispatch job happened to hand it on. Loaded whether tracing is
// on or off and free of OpenTelemetry imports: tracing-sdk.ts installs the two operations when an
// instance turns tracing on; until then there is no trace to keep, and work runs as it is.
import type { TraceHeaders } from './tracing.types.ts';

/** What a stored row keeps of a trace (its columns `traceparent`, `tracestate`). */
export interface StoredTrace {
  traceparent: string | null;
  tracestate: string | null;
}

interface StoredTraceAccess {
  /** the headers that continue the active trace, when a span is recording */
  active(): TraceHeaders | null;
  /** runs `work` as part of the trace the headers name */
  within<T>(headers: TraceHeaders, work: () => T): T;
}

const NONE: StoredTrace = Object.freeze({ traceparent: null, tracestate: null });

// process-wide, like the OpenTelemetry context it reads: every traced instance of a process shares
// one context manager, and the W3C format does not depend on the instance
let access: StoredTraceAccess | null = null;

/** Called by tracing-sdk.ts when an instance turns tracing on. */
export function installStoredTrace(operations: StoredTraceAccess): void {
  access = operations;
}

/** The active trace, to store with work that runs later (nulls when tracing is off or nothing records). */
export function activeStoredTrace(): StoredTrace {
  const headers = access?.active();
  if (!headers?.traceparent) return NONE;
  return { traceparent: headers.traceparent, tracestate: headers.tracestate ?? null };
}

/** Runs `work` in the stored trace (straight through when there is none, or tracing is off). */
export function withinStoredTrace<T>(stored: StoredTrace, work: () => T): T {
  if (!access || !stored.traceparent) return work();
  const headers: Record<string, string> = { traceparent: stored.traceparent };
  if (stored.tracestate) headers.tracestate = stored.tracestate;
  return access.within(headers, work);
}

/** A key grouping work by the trace it continues (one pg-boss insert per trace). */
export function storedTraceKey(stored: StoredTrace): string {
  return `${stored.traceparent ?? ''}|${stored.tracestate ?? ''}`;
}
