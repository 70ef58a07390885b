// Trace context through pg-boss, and the spans of jobs and webhook attempts. Loaded only with
// tracing on.
//
// Sending: every job sent or inserted through the instance's PgBoss (Jobs.send, boss.send,
// boss.insert, on whatever connection) while a span is recording gets a producer span
// `send <queue>`, and carries its W3C context as `traceparent` (and `tracestate`) in the job data
// (data that already holds one keeps it: a webhook retry stays in its delivery's trace).
// Working: each job of a handler call gets a consumer span `process <queue>` whose parent is the
// context its data carries (a new trace when none). A call of one job runs inside that span; a
// batch runs inside a `process <queue>` batch span linking every job's span, and per-job work
// enters its job's span (a webhook attempt does), so what it sends continues the trace of the
// request that queued it. Job data itself is never recorded.
import { context, ROOT_CONTEXT, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions';
import type { Job, JobInsert, PgBoss } from 'pg-boss';
import type { TraceHeaders, Tracing } from './tracing.types.ts';
import { errorTypeOf, markFailed, withinSpan, type SpanKit } from './span-kit.ts';

// (incubating in the semantic conventions: named here rather than imported from their incubating entry)
const ATTR_MESSAGING_SYSTEM = 'messaging.system';
const ATTR_MESSAGING_OPERATION_TYPE = 'messaging.operation.type';
const ATTR_MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
const ATTR_MESSAGING_MESSAGE_ID = 'messaging.message.id';
const ATTR_MESSAGING_BATCH_MESSAGE_COUNT = 'messaging.batch.message_count';
/** how many times pg-boss has handed this job out before */
const ATTR_JOB_RETRY_COUNT = 'svc.job.retry_count';
const MESSAGING_SYSTEM = 'pg-boss';

type SendFn = (...args: unknown[]) => Promise<string | null>;
type InsertFn = (name: string, jobs: JobInsert[], options?: object) => Promise<string[] | null>;

/** The active context, when it holds a recording span. */
function recordingContext(): Context | null {
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? active : null;
}

/** Job data carrying `headers`; data that already holds a context (a retry queued as a copy of its job) keeps it. */
function withTraceHeaders(data: unknown, headers: TraceHeaders): object {
  if (!data || typeof data !== 'object') return { ...headers };
  return typeof (data as { traceparent?: unknown }).traceparent === 'string' ? data : { ...data, ...headers };
}

/** Puts the sender's trace context into every job `boss` sends or inserts from now on. */
export function propagateThroughJobs(boss: PgBoss, kit: SpanKit): void {
  const send = boss.send.bind(boss) as SendFn;
  const insert = boss.insert.bind(boss) as InsertFn;
  const produce = async <R>(queue: string, count: number, parent: Context, run: (headers: TraceHeaders) => Promise<R>): Promise<R> => {
    const span = kit.tracer.startSpan(
      `send ${queue}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          [ATTR_MESSAGING_SYSTEM]: MESSAGING_SYSTEM,
          [ATTR_MESSAGING_OPERATION_TYPE]: 'send',
          [ATTR_MESSAGING_DESTINATION_NAME]: queue,
          ...(count > 1 ? { [ATTR_MESSAGING_BATCH_MESSAGE_COUNT]: count } : {}),
        },
      },
      parent,
    );
    return withinSpan(span, parent, async (active) => {
      const result = await run(kit.headersOf(active));
      // a deduplicated send (singletonKey) makes no job
      if (typeof result === 'string') span.setAttribute(ATTR_MESSAGING_MESSAGE_ID, result);
      return result;
    });
  };
  boss.send = ((...args: unknown[]) => {
    const parent = recordingContext();
    if (!parent) return send(...args);
    // send(name, data, options) or send({ name, data, options })
    if (typeof args[0] === 'string') {
      const [name, data, options] = args;
      return produce(name as string, 1, parent, (headers) => send(name, withTraceHeaders(data, headers), options));
    }
    const request = args[0] as { name: string; data?: object };
    return produce(request.name, 1, parent, (headers) => send({ ...request, data: withTraceHeaders(request.data, headers) }));
  }) as typeof boss.send;
  boss.insert = ((name: string, jobs: JobInsert[], options?: object) => {
    const parent = recordingContext();
    if (!parent || !Array.isArray(jobs) || jobs.length === 0) return insert(name, jobs, options);
    return produce(name, jobs.length, parent, (headers) =>
      insert(
        name,
        jobs.map((job) => ({ ...job, data: withTraceHeaders(job.data, headers) })),
        options,
      ),
    );
  }) as typeof boss.insert;
}

export type JobSpans = Pick<Tracing, 'jobs' | 'webhookAttempt' | 'inJob'>;

export function jobSpans(kit: SpanKit): JobSpans {
  // the span context of each job whose handler call is running
  const jobContexts = new WeakMap<Job<unknown>, Context>();

  const consumerSpan = (queue: string, job: Job<unknown>, parent: Context, batchSize: number): Span =>
    kit.tracer.startSpan(
      `process ${queue}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          [ATTR_MESSAGING_SYSTEM]: MESSAGING_SYSTEM,
          [ATTR_MESSAGING_OPERATION_TYPE]: 'process',
          [ATTR_MESSAGING_DESTINATION_NAME]: queue,
          [ATTR_MESSAGING_MESSAGE_ID]: job.id,
          [ATTR_JOB_RETRY_COUNT]: job.retryCount,
          ...(batchSize > 1 ? { [ATTR_MESSAGING_BATCH_MESSAGE_COUNT]: batchSize } : {}),
        },
      },
      parent,
    );

  /** runs `fn` in the span of `job` (of a batch being handled), so what it does continues that job's trace */
  const inJob = <T>(job: Job<unknown>, fn: () => T): T => {
    const jobContext = jobContexts.get(job);
    return jobContext ? context.with(jobContext, fn) : fn();
  };

  return {
    inJob,
    async jobs(queue, jobs, handler, handlerContext) {
      if (jobs.length === 0) return handler(jobs, handlerContext);
      const spans = jobs.map((job) => {
        const span = consumerSpan(queue, job, kit.contextFrom(job.data as Record<string, unknown>), jobs.length);
        jobContexts.set(job, trace.setSpan(ROOT_CONTEXT, span));
        return span;
      });
      // one job: its handler call is its span; a batch: a span of the call, linked to each job's
      const callSpan =
        jobs.length === 1
          ? spans[0]!
          : kit.tracer.startSpan(`process ${queue}`, {
              kind: SpanKind.CONSUMER,
              root: true,
              links: spans.map((span) => ({ context: span.spanContext() })),
              attributes: {
                [ATTR_MESSAGING_SYSTEM]: MESSAGING_SYSTEM,
                [ATTR_MESSAGING_OPERATION_TYPE]: 'process',
                [ATTR_MESSAGING_DESTINATION_NAME]: queue,
                [ATTR_MESSAGING_BATCH_MESSAGE_COUNT]: jobs.length,
              },
            });
      const all = callSpan === spans[0] ? spans : [callSpan, ...spans];
      try {
        await context.with(trace.setSpan(ROOT_CONTEXT, callSpan), handler, undefined, jobs, handlerContext);
      } catch (error) {
        for (const span of all) markFailed(span, errorTypeOf(error));
        throw error;
      } finally {
        for (const span of all) span.end();
        for (const job of jobs) jobContexts.delete(job);
      }
    },
    webhookAttempt(job, attempt) {
      return inJob(job, async () => {
        const parent = context.active();
        const span = kit.tracer.startSpan('POST', { kind: SpanKind.CLIENT, attributes: { [ATTR_HTTP_REQUEST_METHOD]: 'POST' } }, parent);
        return withinSpan(span, parent, async (active) => {
          const outcome = await attempt(kit.headersOf(active));
          if (outcome.responseStatus !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.responseStatus);
          // the outcome's message can name addresses: only whether and how it failed
          if (!outcome.success) markFailed(span, outcome.responseStatus !== null ? String(outcome.responseStatus) : 'no_response');
          return outcome;
        });
      });
    },
  };
}
