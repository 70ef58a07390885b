// pg-boss runs every asynchronous thing. Modules declare their queues (JobDefinition, through
// their manifest); `start` creates the queues and, when this process is a worker, registers
// their handlers, each called with the jobs and a JobContext.
// pg-boss keeps jobs in PostgreSQL, so a job whose process dies is retried after its expiry.
import { PgBoss, type Job } from 'pg-boss';
import type { Logger } from 'pino';
import type { Services } from './context.ts';

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
  /** handlers this process runs at once for the queue (default 1) */
  localConcurrency?: number;
  /** pg-boss queue policy (default standard); `short` keeps at most one job per singletonKey queued */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  handler: (jobs: Job<T>[], context: JobContext) => Promise<void>;
}

export class Jobs {
  readonly boss: PgBoss;
  private readonly definitions: JobDefinition<never>[] = [];
  private started = false;
  private working = false;

  private readonly logger: Logger;

  constructor(connectionString: string, logger: Logger, options: { pollingIntervalSeconds?: number } = {}) {
    this.logger = logger;
    this.boss = new PgBoss({ connectionString, schema: 'pgboss', application_name: 'svc-jobs', max: 4 } as never);
    this.boss.on('error', (error: Error) => this.logger.error({ err: error }, 'job system error'));
    this.pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  }

  private readonly pollingIntervalSeconds: number;

  define<T extends object>(definition: JobDefinition<T>): void {
    this.definitions.push(definition as unknown as JobDefinition<never>);
  }

  /** Starts pg-boss (migrating its schema) and, with `work`, runs this process's workers. */
  /** The services job handlers receive in their JobContext (set once the instance is assembled). */
  bindServices(services: Services): void {
    this.services = services;
  }

  private services: Services | null = null;

  async start(options: { work: boolean }): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const d of this.definitions) {
      await this.boss.createQueue(d.name, { policy: d.policy ?? 'standard', retryLimit: d.retryLimit ?? 3, retryBackoff: true });
      if (d.schedule) await this.boss.schedule(d.name, d.schedule, {}, { tz: 'UTC' });
    }
    if (!options.work) return;
    if (!this.services) throw new Error('Jobs.start({ work: true }) before bindServices()');
    this.working = true;
    for (const d of this.definitions) {
      const context: JobContext = { services: this.services, logger: this.logger.child({ queue: d.name }), queue: d.name };
      await this.boss.work(d.name, { pollingIntervalSeconds: this.pollingIntervalSeconds, localConcurrency: d.localConcurrency ?? 1 }, async (jobs) => {
        await d.handler(jobs as never, context);
      });
    }
  }

  async send(name: string, data: object, options: { singletonKey?: string; startAfter?: number } = {}): Promise<string | null> {
    return this.boss.send(name, data, options);
  }

  get isWorking(): boolean {
    return this.working;
  }

  /** Graceful: stops fetching, lets in-flight handlers finish (up to `timeoutMs`), then closes. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, close: true, timeout: timeoutMs, wait: true } as never);
  }
}
