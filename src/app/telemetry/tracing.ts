// Traces (OpenTelemetry, OTLP over HTTP) by configuration: docs/observability.md "Traces".
// Only this file (and its settings) loads while tracing is off: each hook checks `services.tracing`
// and otherwise calls straight through, allocating nothing on the request path. With tracing on,
// startTracing imports tracing-sdk.ts once, and through it the SDK and the span code: the only
// files that import @opentelemetry packages, reached by no other import.
import type { RequestListener } from 'node:http';
import type { DocumentNode, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Job } from 'pg-boss';
import type { Services } from '../context.ts';
import type { CompiledOperation } from '../graphql/compiled-execution.ts';
import { settlesBy } from '../../db/pool-shutdown.ts';
import { tracingSettings } from './tracing-settings.ts';
import type { AttemptFacts, TraceHeaders, Tracing } from './tracing.types.ts';


declare module '../context.ts' {
  interface Services {
    /** this instance's tracing, when the OTEL_* settings turn it on */
    tracing?: Tracing;
  }
}

const NO_TRACE_HEADERS: TraceHeaders = Object.freeze({});

/**
 * Turns tracing on for this instance when the settings ask for it: loads the SDK, and from then
 * on traces the pool's statements and carries trace context in the jobs it sends.
 */
export async function startTracing(services: Services): Promise<void> {
  const settings = tracingSettings(services.config);
  if (!settings) return;
  const { createTracing } = await import('./tracing-sdk.ts');
  services.tracing = await createTracing(settings, services);
  // the origin only: a URL's path or credentials are nobody's business in a log
  services.logger.info({ tracesEndpoint: new URL(settings.url).origin, protocol: settings.protocol, serviceName: settings.serviceName }, 'tracing on');
}

/** How long a shutdown waits for the last spans to be exported: a collector that is down must not hold it. */
const FINAL_EXPORT_MS = 2_000;

/** Exports what is left and stops, by `deadline` (epoch ms) and within FINAL_EXPORT_MS at the latest. */
export async function stopTracing(services: Services, deadline: number): Promise<void> {
  const tracing = services.tracing;
  if (!tracing) return;
  services.tracing = undefined;
  await settlesBy(tracing.shutdown(), Math.min(deadline, Date.now() + FINAL_EXPORT_MS));
}

/** The request handler, each request in a server span (the handler itself when tracing is off). */
export function traceRequests(services: Services, handler: RequestListener): RequestListener {
  return services.tracing ? services.tracing.traceRequests(handler) : handler;
}

/** Yoga plugins giving each query and mutation a span (none when tracing is off). */
export function tracingPlugins(services: Services): Plugin[] {
  return services.tracing ? [services.tracing.graphqlPlugin] : [];
}

/** Runs a REST route's in-process GraphQL operation, in a span of its own when tracing is on. */
export function traceOperation(
  services: Services,
  document: DocumentNode,
  compiled: CompiledOperation,
  context: unknown,
  variables: Record<string, unknown>,
): Promise<ExecutionResult> {
  return services.tracing ? services.tracing.operation(document, compiled, context, variables) : compiled(undefined, context, variables);
}

/** Runs a job handler call, each of its jobs in a consumer span continuing the trace that sent it. */
export function traceJobs<J extends Job<unknown>, C>(
  services: Services | null,
  queue: string,
  jobs: J[],
  handler: (jobs: J[], context: C) => Promise<void>,
  context: C,
): Promise<void> {
  return services?.tracing ? services.tracing.jobs(queue, jobs, handler, context) : handler(jobs, context);
}

/**
 * Makes one webhook attempt of `job` in a client span; `attempt` gets the trace headers to send
 * (none when tracing is off).
 */
export function traceWebhookAttempt<T extends AttemptFacts>(services: Services, job: Job<unknown>, attempt: (headers: TraceHeaders) => Promise<T>): Promise<T> {
  return services.tracing ? services.tracing.webhookAttempt(job, attempt) : attempt(NO_TRACE_HEADERS);
}

/**
 * Runs one job's share of a batch handler call in that job's span, so what it does continues the
 * trace the job carries rather than the batch call's (straight through when tracing is off).
 */
export function traceWithinJob<T>(services: Services, job: Job<unknown>, work: () => T): T {
  return services.tracing ? services.tracing.inJob(job, work) : work();
}
