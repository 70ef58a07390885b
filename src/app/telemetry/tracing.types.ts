// What live tracing offers (built by tracing-sdk.ts, used through the hooks of tracing.ts): apart
// from both, so the SDK side names it without importing the file that loads it.
import type { RequestListener } from 'node:http';
import type { DocumentNode, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Job } from 'pg-boss';
import type { CompiledOperation } from '../graphql/compiled-execution.ts';

/** What a traced webhook attempt reports back for its span. */
export interface AttemptFacts {
  success: boolean;
  responseStatus: number | null;
}

/** The trace headers an outgoing request carries (`traceparent`, `tracestate`). */
export type TraceHeaders = Readonly<Record<string, string>>;

/** An instance's live tracing (built by tracing-sdk.ts); the hooks below are its only callers. */
export interface Tracing {
  traceRequests(handler: RequestListener): RequestListener;
  graphqlPlugin: Plugin;
  operation(document: DocumentNode, compiled: CompiledOperation, context: unknown, variables: Record<string, unknown>): Promise<ExecutionResult>;
  jobs<J extends Job<unknown>, C>(queue: string, jobs: J[], handler: (jobs: J[], context: C) => Promise<void>, context: C): Promise<void>;
  webhookAttempt<T extends AttemptFacts>(job: Job<unknown>, attempt: (headers: TraceHeaders) => Promise<T>): Promise<T>;
  /** runs `work` in the span of `job`, one of a batch being handled */
  inJob<T>(job: Job<unknown>, work: () => T): T;
  /** exports the spans still buffered, then stops */
  shutdown(): Promise<void>;
}
