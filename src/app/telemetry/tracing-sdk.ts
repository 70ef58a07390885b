// The OpenTelemetry SDK for one instance, imported by startTracing only when tracing is on: a
// tracer provider of its own (not the global one, so instances in one process stay apart), a
// batch processor exporting OTLP over HTTP (protobuf or JSON), the sampler of OTEL_TRACES_SAMPLER,
// and the process-wide AsyncLocalStorage context manager that parents nested work.
import { randomUUID } from 'node:crypto';
import { context, diag, DiagLogLevel, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import type { Services } from '../context.ts';
import { serverSpans } from './http-spans.ts';
import { propagateThroughJobs, jobSpans } from './job-context.ts';
import { graphqlOperationPlugin, restOperation } from './operation-spans.ts';
import { createSpanKit } from './span-kit.ts';
import { instrumentPool } from './sql-spans.ts';
import { installStoredTrace } from './stored-trace.ts';
import type { Tracing } from './tracing.types.ts';
import type { SamplerName, TracingSettings } from './tracing-settings.ts';

const TRACER_NAME = 'svc-platform';
/** the SDK's own complaints (an unreachable collector) reach the log at most this often */
const DIAG_LOG_INTERVAL_MS = 60_000;

let contextManagerSet = false;

/** One AsyncLocalStorage context manager per process, shared by every instance in it. */
function ensureContextManager(): void {
  if (contextManagerSet) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerSet = true;
}

let diagSet = false;

/**
 * The SDK's complaints (e.g. failed exports) as warning lines, at most one a minute; they never hold
 * span data. A failed export costs spans, never a request: not an error of the platform.
 */
function ensureDiagLogger(logger: Logger): void {
  if (diagSet) return;
  diagSet = true;
  let last = 0;
  const warn = (message: string) => {
    const now = Date.now();
    if (now - last < DIAG_LOG_INTERVAL_MS) return;
    last = now;
    logger.warn({ component: 'opentelemetry' }, `tracing: ${message}`);
  };
  const ignore = () => {};
  diag.setLogger({ error: warn, warn, info: ignore, debug: ignore, verbose: ignore }, DiagLogLevel.WARN);
}

function samplerOf(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

async function exporterOf(settings: TracingSettings): Promise<SpanExporter> {
  const options = { url: settings.url, headers: settings.headers, timeoutMillis: settings.timeoutMs };
  if (settings.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter(options);
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(options);
}

export async function createTracing(settings: TracingSettings, services: Services): Promise<Tracing> {
  ensureContextManager();
  ensureDiagLogger(services.logger);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...settings.resourceAttributes,
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_INSTANCE_ID]: settings.resourceAttributes[ATTR_SERVICE_INSTANCE_ID] ?? randomUUID(),
    }),
    sampler: samplerOf(settings.sampler, settings.ratio),
    spanProcessors: [new BatchSpanProcessor({ exporter: await exporterOf(settings), scheduledDelayMillis: settings.scheduledDelayMs })],
  });
  const kit = createSpanKit(provider.getTracer(TRACER_NAME));
  instrumentPool(services.pool, kit);
  propagateThroughJobs(services.jobs.boss, kit);
  const jobs = jobSpans(kit);
  installStoredTrace(() => {
    const active = context.active();
    return trace.getSpan(active)?.isRecording() ? kit.headersOf(active) : null;
  });
  return {
    traceRequests: serverSpans(kit),
    graphqlPlugin: graphqlOperationPlugin(kit),
    operation: restOperation(kit),
    jobs: jobs.jobs,
    webhookAttempt: jobs.webhookAttempt,
    inJob: jobs.inJob,
    shutdown: () => provider.shutdown(),
  };
}
