// The domain-event outbox (DomainEvent rows, written in the transaction of the change they
// describe). A pg-boss job hands undispatched events, oldest first, to the registered consumers
// (webhooks and automations register here) and marks them dispatched in the same transaction,
// so an event is handed on at least once and never for a change that rolled back. Rows are
// claimed with SKIP LOCKED, so several workers share the backlog.
//
// Each consumer runs under a savepoint, so one event a consumer cannot take does not hold back
// every later event of every team. When a consumer fails on a batch it is run again event by
// event; an event it still fails on becomes a DomainEventFailure row (in the same transaction),
// the other consumers and events go on. The minute sweep (not the per-write nudge: see
// data.jobs.ts) retries that consumer alone with backoff until it succeeds or
// MAX_FAILURE_ATTEMPTS are used up (a dead letter, kept and logged). A failed connection aborts
// the whole transaction instead, and the batch is dispatched again later.
//
// Each event keeps the trace context of the write that made it (tracing on); the jobs consumers
// queue for it (queueForEvents) continue that trace, however the events were batched.
import type pg from 'pg';
import type { JobInsert } from 'pg-boss';
import { onConnection, type Jobs } from './jobs.ts';
import { traceHeadersOf, type StoredTrace } from './telemetry/stored-trace.ts';
import { inTransaction } from './transaction.ts';

declare module './context.ts' {
  interface Services {
    /** record-change events waiting for their consumers (webhooks, automations) */
    outbox: DomainEventOutbox;
  }
}

// (renamed from data.dispatch-domain-events when the queue became `short`: pg-boss keeps a
// queue's policy from its creation)
export const DISPATCH_DOMAIN_EVENTS = 'data.outbox-dispatch';
const BATCH = 500;
export const MAX_FAILURE_ATTEMPTS = 10;
const FIRST_RETRY_SECONDS = 30;
const MAX_RETRY_SECONDS = 3600;

/** Seconds before the next try of a consumer that has failed `attempts` times on an event. */
export function failureBackoffSeconds(attempts: number): number {
  return Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1));
}

export interface ConsumerFailureReport {
  consumer: string;
  event: DomainEventRow;
  error: unknown;
  attempts: number;
  /** no more automatic tries */
  dead: boolean;
}

export interface DomainEventRow {
  id: bigint;
  teamId: bigint;
  eventId: string;
  eventType: string;
  collectionId: bigint | null;
  payload: { eventType: string; eventId: string; occurredAt: string; data: Record<string, unknown>; actor: unknown };
  occurredAt: Date;
  /** the trace of the write that made the event: work the consumer queues for it continues this one */
  trace: StoredTrace;
}

/** A consumer runs inside the dispatch transaction: what it writes (e.g. delivery jobs through
 *  the same connection) commits together with the "dispatched" mark. */
export type DomainEventConsumer = (events: readonly DomainEventRow[], db: pg.PoolClient) => Promise<void>;

/**
 * Queues the jobs a consumer makes for events on the dispatch transaction's connection, in one
 * insert. Each job's data carries its event's trace (job-context.ts keeps a `traceparent` the
 * data already holds), so a delivery or a run continues the write that caused it, not the dispatch
 * that handed the event on.
 */
export async function queueForEvents<T extends object>(jobs: Jobs, db: pg.PoolClient, queue: string, items: readonly { trace: StoredTrace; job: JobInsert<T> }[]): Promise<void> {
  const traced = items.map(({ trace, job }) => (trace.traceparent ? { ...job, data: { ...job.data, ...traceHeadersOf(trace) } as T } : job));
  await jobs.boss.insert(queue, traced, { db: onConnection(db) });
}

export class DomainEventOutbox {
  private readonly consumers: { name: string; consume: DomainEventConsumer }[] = [];
  private readonly pool: pg.Pool;
  private readonly jobs: Jobs;
  private readonly onConsumerError: (report: ConsumerFailureReport) => void;
  private nudging: Promise<void> | null = null;
  private nudgeAgain = false;

  constructor(pool: pg.Pool, jobs: Jobs, onConsumerError: (report: ConsumerFailureReport) => void = () => {}) {
    this.pool = pool;
    this.jobs = jobs;
    this.onConsumerError = onConsumerError;
  }

  register(name: string, consume: DomainEventConsumer): void {
    this.consumers.push({ name, consume });
  }

  /**
   * Asks a worker to dispatch soon; a failed nudge is harmless (the scheduled sweep picks it up).
   * Writes that commit while a nudge is on its way share one follow-up nudge, sent once it lands:
   * the one on its way may already have been fetched and read the outbox before their commit, the
   * follow-up cannot have. So a burst sends two nudges per round trip, not one per write (each is
   * a pg-boss insert and a NOTIFY, which contend with the writes' own commits).
   */
  nudge(): Promise<void> {
    if (this.nudging) {
      this.nudgeAgain = true;
      return this.nudging;
    }
    this.nudging = (async () => {
      do {
        this.nudgeAgain = false;
        await this.jobs.send(DISPATCH_DOMAIN_EVENTS, { nudge: true }, { singletonKey: 'dispatch' }).catch(() => null);
      } while (this.nudgeAgain);
      this.nudging = null;
    })();
    return this.nudging;
  }

  /** Dispatches until the outbox is empty; returns how many events were handed on. */
  async dispatchPending(): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await inTransaction(this.pool, async (db) => {
        const { rows } = await db.query(
          `SELECT id, "teamId", "eventId", "eventType", "collectionId", payload, "occurredAt", traceparent, tracestate
             FROM "DomainEvent" WHERE "dispatchedAt" IS NULL ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        );
        if (rows.length === 0) return 0;
        const events = rows.map(toEventRow);
        for (const consumer of this.consumers) await this.consumeIsolated(consumer, events, db);
        await db.query(`UPDATE "DomainEvent" SET "dispatchedAt" = now() WHERE id = ANY($1::bigint[])`, [events.map((e) => e.id)]);
        return events.length;
      });
      total += count;
      if (count < BATCH) return total;
    }
  }

  /**
   * Undispatched events and the seconds since the oldest of them occurred (0 when none), for
   * /metrics. Both read through the ("dispatchedAt", id) index: only waiting rows are visited.
   */
  async backlog(): Promise<{ pending: number; oldestSeconds: number }> {
    const { rows } = await this.pool.query(
      `SELECT (SELECT count(*) FROM "DomainEvent" WHERE "dispatchedAt" IS NULL)::float8 AS pending,
              COALESCE(EXTRACT(EPOCH FROM now() - (SELECT "occurredAt" FROM "DomainEvent" WHERE "dispatchedAt" IS NULL ORDER BY id LIMIT 1)), 0)::float8 AS seconds`,
    );
    return { pending: Number(rows[0].pending), oldestSeconds: Math.max(0, Number(rows[0].seconds)) };
  }

  /** Gives each consumer the events it failed on whose next try is due; returns how many succeeded. */
  async retryFailures(now = new Date()): Promise<number> {
    return inTransaction(this.pool, async (db) => {
      const { rows } = await db.query(
        `SELECT f.id AS "failureId", f.consumer, f.attempts,
                e.id, e."teamId", e."eventId", e."eventType", e."collectionId", e.payload, e."occurredAt", e.traceparent, e.tracestate
           FROM "DomainEventFailure" f JOIN "DomainEvent" e ON e.id = f."eventRowId"
          WHERE f."resolvedAt" IS NULL AND f."nextAttemptAt" <= $1
          ORDER BY f."nextAttemptAt" LIMIT ${BATCH} FOR UPDATE OF f SKIP LOCKED`,
        [now],
      );
      let resolved = 0;
      for (const row of rows) {
        const consumer = this.consumers.find((c) => c.name === row.consumer);
        if (!consumer) continue; // registered by another kind of process: it retries there
        const event = toEventRow(row);
        let failure: unknown = null;
        if (await inSavepoint(db, () => consumer.consume([event], db), (error) => (failure = error))) {
          await db.query(`UPDATE "DomainEventFailure" SET "resolvedAt" = now(), "updatedAt" = now() WHERE id = $1`, [row.failureId]);
          resolved++;
          continue;
        }
        const attempts = row.attempts + 1;
        const dead = attempts >= MAX_FAILURE_ATTEMPTS;
        await db.query(
          `UPDATE "DomainEventFailure" SET attempts = $2, "lastError" = $3, "updatedAt" = now(),
                  "nextAttemptAt" = CASE WHEN $4 THEN NULL ELSE $5::timestamptz + make_interval(secs => $6) END
            WHERE id = $1`,
          [row.failureId, attempts, errorText(failure), dead, now, failureBackoffSeconds(attempts)],
        );
        this.onConsumerError({ consumer: consumer.name, event, error: failure, attempts, dead });
      }
      return resolved;
    });
  }

  private async consumeIsolated(consumer: { name: string; consume: DomainEventConsumer }, events: readonly DomainEventRow[], db: pg.PoolClient): Promise<void> {
    if (await inSavepoint(db, () => consumer.consume(events, db))) return;
    for (const event of events) {
      let failure: unknown = null;
      if (await inSavepoint(db, () => consumer.consume([event], db), (error) => (failure = error))) continue;
      await db.query(
        `INSERT INTO "DomainEventFailure" ("teamId", "eventRowId", "eventId", consumer, "lastError", "nextAttemptAt", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), now())
         ON CONFLICT ("eventRowId", consumer) DO NOTHING`,
        [event.teamId, event.id, event.eventId, consumer.name, errorText(failure), failureBackoffSeconds(1)],
      );
      this.onConsumerError({ consumer: consumer.name, event, error: failure, attempts: 1, dead: false });
    }
  }
}

function toEventRow(r: Record<string, any>): DomainEventRow {
  return {
    id: BigInt(r.id),
    teamId: BigInt(r.teamId),
    eventId: r.eventId,
    eventType: r.eventType,
    collectionId: r.collectionId === null ? null : BigInt(r.collectionId),
    payload: r.payload,
    occurredAt: r.occurredAt,
    trace: { traceparent: r.traceparent ?? null, tracestate: r.tracestate ?? null },
  };
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

async function inSavepoint(db: pg.PoolClient, work: () => Promise<void>, onError?: (error: unknown) => void): Promise<boolean> {
  await db.query('SAVEPOINT outbox_consumer');
  try {
    await work();
    await db.query('RELEASE SAVEPOINT outbox_consumer');
    return true;
  } catch (error) {
    // on a dead connection this throws too, and the whole dispatch transaction goes
    await db.query('ROLLBACK TO SAVEPOINT outbox_consumer');
    onError?.(error);
    return false;
  }
}
