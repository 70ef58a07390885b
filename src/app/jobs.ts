// pg-boss runs every asynchronous thing. Modules declare their queues (JobDefinition, through
// their manifest); `start` creates the queues and, when this process is a worker, registers
// their handlers, each called with a batch of jobs and a JobContext.
//
// Draining: every queue is created with `notify`, so a job sent (or retried) wakes idle workers
// at once through pg-boss's LISTEN/NOTIFY; a worker that has just handled jobs fetches again at
// once and wakes the queue's next handler slot, and only an empty queue waits for the backstop
// poll, which one slot per queue runs (the others only rarely). Recovery: every job carries a
// heartbeat that the worker refreshes while its handler runs; the supervisor fails a job whose
// heartbeat went stale (its worker died) and pg-boss retries it, so a dead worker's job runs
// again after about heartbeat + supervise interval + retry delay, not after its expiry.
import type pg from 'pg';
import { PgBoss, type Db, type Job, type SendOptions } from 'pg-boss';
import type { Tx } from './transaction.ts';
import { settlesBy } from '../db/pool-shutdown.ts';
import type { Logger } from 'pino';
import type { Services } from './context.ts';

declare module './context.ts' {
  interface Services {
    jobs: Jobs;
  }
}
import { traceJobs } from './telemetry/tracing.ts';

/**
 * pg-boss statements on an open pg connection: a job sent or inserted with `{ db: onConnection(db) }`
 * commits (or rolls back) with the caller's transaction. The Prisma twin is `Jobs.sendInTransaction`.
 */
export function onConnection(db: pg.PoolClient): Db {
  return { executeSql: (text: string, values?: unknown[]) => db.query(text, values as never[]) };
}

/** What a job handler gets besides its jobs: the instance's services and a logger naming the queue. */
export interface JobContext {
  services: Services;
  logger: Logger;
  queue: string;
}

export interface JobDefinition<T extends object = object> {
  name: string;
  /** cron expression (UTC) for recurring jobs */
  schedule?: string;
  retryLimit?: number;
  /** handler calls this process runs at once for the queue (default 1); JOB_CONCURRENCY overrides */
  concurrency?: number;
  /** jobs one handler call receives at most (default 1) */
  batchSize?: number;
  /** crash recovery: a job whose worker stopped heartbeating for this long is retried (default 10) */
  heartbeatSeconds?: number;
  /** the longest one job may run before pg-boss gives up on it (default 15 minutes) */
  expireInSeconds?: number;
  /** at most this many jobs of one group (jobs sent with `group: { id }`) active at once, over every instance */
  groupConcurrency?: number;
  /** pg-boss queue policy (default standard); `short` keeps at most one job per singletonKey queued */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  handler: (jobs: Job<T>[], context: JobContext) => Promise<void>;
}

export const DEFAULT_HEARTBEAT_SECONDS = 10;
const DEFAULT_EXPIRE_SECONDS = 15 * 60;
/** how often the supervisor looks for stale heartbeats and expired jobs */
const SUPERVISE_SECONDS = 5;
/** the poll of a queue whose NOTIFY wake-up is available: only a backstop */
const BACKSTOP_POLL_SECONDS = 5;
/**
 * The backstop of a queue's other handler slots. Their polls were most of an idle instance's
 * statements (a queue with 16 slots made 16 empty fetches every 5 s); the first slot finds what
 * came due and wakes the next one, so the others need no short poll of their own.
 */
const SIBLING_BACKSTOP_POLL_SECONDS = 60;

export interface JobsOptions {
  /** the poll when NOTIFY is unavailable (default 2) */
  pollingIntervalSeconds?: number;
  /**
   * the backstop poll (default 5): what picks up a job that becomes due later (a retry's delay, a
   * startAfter), since NOTIFY wakes workers when a job is sent, not when it comes due; tests that
   * wait on retries shorten it
   */
  backstopPollSeconds?: number;
  /** queue name → handler calls at once, overriding the definition (JOB_CONCURRENCY) */
  concurrency?: Readonly<Record<string, number>>;
  /** pg-boss's own pool (default 10) */
  poolSize?: number;
}

/** One finished handler call (metrics): `failed` when it threw, so pg-boss retries or fails its jobs. */
export interface JobsHandled {
  queue: string;
  jobs: readonly Pick<Job, 'retryCount'>[];
  retryLimit: number;
  failed: boolean;
  seconds: number;
}

export class Jobs {
  readonly boss: PgBoss;
  /** told of every handler call this process finishes (src/app/http/metrics.ts); must not throw */
  onHandled: ((handled: JobsHandled) => void) | null = null;
  private readonly definitions: JobDefinition<never>[] = [];
  private started = false;
  private working = false;
  private services: Services | null = null;
  private readonly logger: Logger;
  private readonly pollingIntervalSeconds: number;
  private readonly backstopPollSeconds: number;
  private readonly concurrency: Readonly<Record<string, number>>;

  constructor(connectionString: string, logger: Logger, options: JobsOptions = {}) {
    this.logger = logger;
    this.pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    this.backstopPollSeconds = options.backstopPollSeconds ?? BACKSTOP_POLL_SECONDS;
    this.concurrency = options.concurrency ?? {};
    this.boss = new PgBoss({
      connectionString,
      schema: 'pgboss',
      application_name: 'svc-jobs',
      max: options.poolSize ?? 10,
      useListenNotify: true,
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      // stale heartbeats are failed by the monitor step, not by maintenance: at pg-boss's default
      // (60 s) a dead worker's job would wait a minute
      monitorIntervalSeconds: SUPERVISE_SECONDS,
    } as never);
    this.boss.on('error', (error: Error) => this.logger.error({ err: error }, 'job system error'));
    this.boss.on('warning', (warning: { message: string }) => this.logger.warn({ warning }, 'job system warning'));
  }

  define<T extends object>(definition: JobDefinition<T>): void {
    this.definitions.push(definition as unknown as JobDefinition<never>);
  }

  /** The services job handlers receive in their JobContext (set once the instance is assembled). */
  bindServices(services: Services): void {
    this.services = services;
  }

  /** Handler calls at once for a queue in this process. */
  concurrencyOf(definition: Pick<JobDefinition, 'name' | 'concurrency'>): number {
    return this.concurrency[definition.name] ?? definition.concurrency ?? 1;
  }

  /** Starts pg-boss (migrating its schema) and, with `work`, runs this process's workers. */
  async start(options: { work: boolean }): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const d of this.definitions) {
      const queue = {
        policy: d.policy ?? 'standard',
        retryLimit: d.retryLimit ?? 3,
        retryBackoff: true,
        heartbeatSeconds: d.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS,
        expireInSeconds: d.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS,
        notify: true,
      };
      // createQueue keeps an existing queue's settings: bring queues made by an older version in line
      const existing = await this.boss.getQueue(d.name);
      if (existing) {
        const { policy: _fixedAtCreation, ...changeable } = queue;
        await this.boss.updateQueue(d.name, changeable as never);
      } else await this.boss.createQueue(d.name, queue as never);
      if (d.schedule) await this.boss.schedule(d.name, d.schedule, {}, { tz: 'UTC' });
    }
    if (!options.work) return;
    if (!this.services) throw new Error('Jobs.start({ work: true }) before bindServices()');
    this.working = true;
    for (const d of this.definitions) {
      const context: JobContext = { services: this.services, logger: this.logger.child({ queue: d.name }), queue: d.name };
      const options = (backstopSeconds: number) => ({
        batchSize: d.batchSize ?? 1,
        localConcurrency: 1,
        pollingIntervalSeconds: this.pollingIntervalSeconds,
        notifyPollingIntervalSeconds: Math.max(this.pollingIntervalSeconds, backstopSeconds),
        ...(d.groupConcurrency ? { groupConcurrency: d.groupConcurrency } : {}),
      });
      // One work() per handler slot, so each slot has a worker id to wake. A slot that fetched jobs
      // wakes the next slot before it handles them, so a backlog the first slot's backstop found
      // (retries come due) spreads over every slot within a few fetches, however long each job
      // runs; once done it fetches again at once (more may be waiting). Without NOTIFY every slot
      // polls at the base interval.
      const slots = this.concurrencyOf(d);
      // (a handler could in principle run before work() returns: waking '' is then a no-op)
      const workerIds: string[] = Array.from({ length: slots }, () => '');
      for (let slot = 0; slot < slots; slot++) {
        const backstop = slot === 0 ? this.backstopPollSeconds : Math.max(this.backstopPollSeconds, SIBLING_BACKSTOP_POLL_SECONDS);
        workerIds[slot] = await this.boss.work(d.name, options(backstop), async (jobs) => {
          if (jobs.length > 0 && slot + 1 < slots) this.boss.notifyWorker(workerIds[slot + 1]!);
          const started = performance.now();
          let failed = true;
          try {
            await traceJobs(this.services, d.name, jobs as never, d.handler, context);
            failed = false;
          } finally {
            this.onHandled?.({ queue: d.name, jobs, retryLimit: d.retryLimit ?? 3, failed, seconds: (performance.now() - started) / 1000 });
            if (jobs.length > 0) this.boss.notifyWorker(workerIds[slot]!);
          }
        });
      }
    }
  }

  async send(name: string, data: object, options: { singletonKey?: string; startAfter?: number } = {}): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  /**
   * Sends the job inside the caller's Prisma transaction: it exists only if the transaction commits,
   * and nothing is lost if the process dies right after the commit.
   */
  async sendInTransaction(tx: Tx, name: string, data: object, options: Omit<SendOptions, 'db'> = {}): Promise<string | null> {
    const db = { executeSql: async (text: string, values: unknown[] = []) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }) };
    return this.boss.send(name, data, { ...options, db });
  }

  get isWorking(): boolean {
    return this.working;
  }

  /** Graceful: stops fetching, lets in-flight handlers finish (up to `timeoutMs`), then closes. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    this.started = false;
    // The workers first, each answering once its handler is done (pg-boss's own graceful stop looks
    // only every half second whether they are, which every shutdown would wait out). Then pg-boss
    // stops at once: it hands back to the queue whatever still ran at the deadline, and closes.
    if (this.working) await settlesBy(Promise.allSettled(this.definitions.map((d) => this.boss.offWork(d.name, { wait: true }))), Date.now() + timeoutMs);
    await this.boss.stop({ graceful: false, close: true, wait: true } as never);
  }
}
