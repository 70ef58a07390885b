// Prometheus metrics. One registry per app instance (tests run several in one process). Labels
// only ever hold bounded, non-personal values: a method, a route template (unmatched paths
// collapse to fixed labels), a status, a queue name, a pool name, an outcome. docs/observability.md
// lists every metric.
import type pg from 'pg';
import client from 'prom-client';
import type { Services } from '../context.ts';
import type { JobsHandled } from '../jobs.ts';
import { CachedReading, readBacklog, type Backlog } from './metrics-backlog.ts';
import { readPool, timeConnectionWaits, type PoolReading } from './metrics-pools.ts';
import { RequestMetrics } from './request-metrics.ts';
import { BucketHistogram, registerComputedMetric } from './bucket-histogram.ts';

/** How long one reading of the database backlog (queues, outbox) serves scrapes. */
export const BACKLOG_MAX_AGE_MS = 5_000;
/** A scrape waits this long for a fresh backlog reading before it answers with the previous one. */
const BACKLOG_WAIT_MS = 2_000;

export interface MetricsOptions {
  /** open WebSocket connections of this instance; absent in a worker (no realtime figures then) */
  webSockets?: () => number;
  backlogMaxAgeMs?: number;
}

export class Metrics {
  readonly registry = new client.Registry();
  /** svc_http_requests_total and svc_http_request_duration_seconds */
  readonly requests: RequestMetrics;

  constructor(services: Services, options: MetricsOptions = {}) {
    const { registry } = this;
    const registers = [registry];
    client.collectDefaultMetrics({ register: registry, prefix: 'svc_' });

    this.requests = new RequestMetrics(registry);

    // jobs this process handled
    const handled = new client.Counter({
      name: 'svc_jobs_handled_total',
      help: 'Jobs whose handler finished in this process, by queue and outcome (completed; retried: failed, will run again; failed: no tries left)',
      labelNames: ['queue', 'outcome'],
      registers,
    });
    const handlerSeconds = new client.Histogram({
      name: 'svc_job_handler_duration_seconds',
      help: 'Duration of job handler calls in this process, by queue',
      labelNames: ['queue'],
      buckets: [0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30, 120],
      registers,
    });
    services.jobs.onHandled = (h: JobsHandled) => {
      if (h.jobs.length === 0) return;
      handlerSeconds.observe({ queue: h.queue }, h.seconds);
      if (!h.failed) return void handled.inc({ queue: h.queue, outcome: 'completed' }, h.jobs.length);
      for (const job of h.jobs) handled.inc({ queue: h.queue, outcome: job.retryCount < h.retryLimit ? 'retried' : 'failed' });
    };

    // what waits in the database, shared by every instance
    const backlog = new CachedReading<Backlog>(() => readBacklog(services.pool, services.jobs.boss, services.outbox), {
      maxAgeMs: options.backlogMaxAgeMs ?? BACKLOG_MAX_AGE_MS,
      waitMs: BACKLOG_WAIT_MS,
      onError: (error) => services.logger.warn({ err: error }, 'metrics: reading the job and outbox backlog failed'),
    });
    const perQueue = (name: string, help: string, value: (q: Backlog['queues'][number]) => number) =>
      new client.Gauge({
        name,
        help,
        labelNames: ['queue'],
        registers,
        async collect() {
          const reading = await backlog.get();
          this.reset();
          for (const q of reading?.queues ?? []) this.set({ queue: q.queue }, value(q));
        },
      });
    perQueue('svc_job_queue_ready_jobs', 'Jobs runnable now and not yet started, per queue (pg-boss count, refreshed every few seconds)', (q) => q.ready);
    perQueue('svc_job_queue_deferred_jobs', 'Jobs waiting for their start time or retry backoff, per queue', (q) => q.deferred);
    perQueue('svc_job_queue_active_jobs', 'Jobs being handled, per queue', (q) => q.active);
    perQueue('svc_job_queue_oldest_ready_age_seconds', 'How long the oldest runnable job has waited to start, per queue (0: none waiting)', (q) => q.oldestReadySeconds);
    const outboxGauge = (name: string, help: string, value: (b: Backlog) => number) =>
      new client.Gauge({
        name,
        help,
        registers,
        async collect() {
          const reading = await backlog.get();
          this.reset();
          if (reading) this.set(value(reading));
        },
      });
    outboxGauge('svc_outbox_pending_events', 'Domain events not yet handed to their consumers (webhooks, automations)', (b) => b.outboxPending);
    outboxGauge('svc_outbox_oldest_pending_age_seconds', 'Age of the oldest domain event not yet handed on (0: none waiting)', (b) => b.outboxOldestSeconds);

    // database connection pools of this process
    // every query checks out a connection: observed into plain counts (bucket-histogram.ts)
    const appWaits = new BucketHistogram([0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5]);
    registerComputedMetric(registry, {
      name: 'svc_db_pool_acquire_seconds',
      help: 'How long queries of the main pool waited for a connection',
      type: 'histogram',
      values: () => appWaits.series('svc_db_pool_acquire_seconds', { pool: 'app' }),
      reset: () => appWaits.reset(),
    });
    timeConnectionWaits(services.pool, (seconds) => appWaits.observe(seconds));
    const pools = (): PoolReading[] =>
      [readPool('app', services.pool), readPool('jobs', (services.jobs.boss.getDb() as { pool?: pg.Pool }).pool)].filter((p) => p !== null);
    const perPool = (name: string, help: string, value: (p: PoolReading) => number) =>
      new client.Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers,
        collect() {
          this.reset();
          for (const p of pools()) this.set({ pool: p.pool }, value(p));
        },
      });
    perPool('svc_db_pool_connections', 'Open connections per pool (app: requests and Prisma; jobs: pg-boss)', (p) => p.total);
    perPool('svc_db_pool_idle_connections', 'Idle open connections per pool', (p) => p.idle);
    perPool('svc_db_pool_waiting_queries', 'Queries waiting for a connection per pool', (p) => p.waiting);
    perPool('svc_db_pool_max_connections', 'Connection limit per pool', (p) => p.max);

    // realtime (a serving instance's)
    if (options.webSockets) {
      this.gauge('svc_graphql_subscriptions', 'Active GraphQL subscriptions on this instance (graphql-ws and HTTP streams)', () => services.events.hub.size);
      this.gauge('svc_websocket_connections', 'Open graphql-ws connections on this instance', options.webSockets);
    }

    // credential cache
    const cache = services.authenticator.cache;
    this.gauge('svc_credential_cache_entries', 'Checked credentials held in memory', () => cache.size);
    this.counter('svc_credential_cache_hits_total', 'Credential checks answered from memory', () => cache.hits);
    this.counter('svc_credential_cache_misses_total', 'Credential checks that needed the database', () => cache.misses);
  }

  /** A gauge read from `value` whenever /metrics is scraped. */
  private gauge(name: string, help: string, value: () => number): void {
    new client.Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(value());
      },
    });
  }

  /** A counter whose (ever-growing) total is kept elsewhere, read whenever /metrics is scraped. */
  private counter(name: string, help: string, total: () => number): void {
    new client.Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(total());
      },
    });
  }
}
