// What is waiting in the database, for /metrics: pg-boss queue sizes, how long the oldest runnable
// job of each queue has waited, and the domain-event outbox's backlog. Read when scraped, but at
// most once per `maxAgeMs` whatever the number of scrapers (one reading in flight at a time,
// shared), so a scrape storm costs the database nothing more. These figures are the same from every
// instance of a deployment: aggregate them with max(), not sum().
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { DomainEventOutbox } from '../outbox.ts';

export interface QueueBacklog {
  queue: string;
  /** runnable now */
  ready: number;
  /** waiting for a start time (including retries in their backoff) */
  deferred: number;
  active: number;
  /** seconds the oldest runnable job has been runnable; 0 when none is */
  oldestReadySeconds: number;
}

export interface Backlog {
  queues: QueueBacklog[];
  outboxPending: number;
  /** seconds since the oldest undispatched domain event occurred; 0 when none is waiting */
  outboxOldestSeconds: number;
}

// Runnable jobs are the rows of pg-boss's own partial index (state below active, not blocked):
// the scan covers the waiting jobs only, not the retained history of completed ones.
const OLDEST_READY_SQL = `
  SELECT name, EXTRACT(EPOCH FROM now() - min(start_after))::float8 AS seconds
    FROM pgboss.job
   WHERE state < 'active' AND NOT blocked AND start_after <= now()
   GROUP BY name`;

/** One reading of the backlog. Queue sizes are pg-boss's own counts, refreshed by its monitor (every few seconds). */
export async function readBacklog(pool: pg.Pool, boss: PgBoss, outbox: DomainEventOutbox): Promise<Backlog> {
  const [queues, oldest, events] = await Promise.all([boss.getQueues(), pool.query(OLDEST_READY_SQL), outbox.backlog()]);
  const oldestByQueue = new Map<string, number>(oldest.rows.map((r) => [r.name as string, Math.max(0, Number(r.seconds))]));
  return {
    queues: queues.map((q) => ({
      queue: q.name,
      ready: q.readyCount,
      deferred: q.deferredCount,
      active: q.activeCount,
      oldestReadySeconds: oldestByQueue.get(q.name) ?? 0,
    })),
    outboxPending: events.pending,
    outboxOldestSeconds: events.oldestSeconds,
  };
}

/**
 * A value read at most once per `maxAgeMs`. A caller waits for a fresh reading up to `waitMs` and
 * otherwise gets the previous one; a failed reading yields null (the figures are then left out of
 * the scrape rather than shown stale) and is not retried before `maxAgeMs` has passed.
 */
export class CachedReading<T> {
  private value: T | null = null;
  private readAt = -Infinity;
  private pending: Promise<void> | null = null;

  private readonly read: () => Promise<T>;
  private readonly options: { maxAgeMs: number; waitMs: number; onError: (error: unknown) => void };

  constructor(read: () => Promise<T>, options: { maxAgeMs: number; waitMs: number; onError: (error: unknown) => void }) {
    this.read = read;
    this.options = options;
  }

  async get(): Promise<T | null> {
    if (performance.now() - this.readAt < this.options.maxAgeMs) return this.value;
    this.pending ??= this.read().then(
      (value) => {
        this.value = value;
        this.readAt = performance.now();
        this.pending = null;
      },
      (error: unknown) => {
        this.value = null;
        this.readAt = performance.now();
        this.pending = null;
        this.options.onError(error);
      },
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pending, new Promise((resolve) => (timer = setTimeout(resolve, this.options.waitMs)))]);
    clearTimeout(timer);
    return this.value;
  }
}
