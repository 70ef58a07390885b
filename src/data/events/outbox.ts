// The domain-event outbox (DomainEvent rows, written in the transaction of the change they
// describe). A pg-boss job hands undispatched events, oldest first, to the registered consumers
// (webhooks and automations register here) and marks them dispatched in the same transaction,
// so an event is handed on at least once and never for a change that rolled back. Rows are
// claimed with SKIP LOCKED, so several workers share the backlog.
import type pg from 'pg';
import type { Jobs } from '../../jobs/jobs.ts';
import { inTransaction } from '../records/sql.ts';

export const DISPATCH_DOMAIN_EVENTS = 'data.dispatch-domain-events';
const BATCH = 500;

export interface DomainEventRow {
  id: bigint;
  teamId: bigint;
  eventId: string;
  eventType: string;
  collectionId: bigint | null;
  payload: { eventType: string; eventId: string; occurredAt: string; data: Record<string, unknown>; actor: unknown };
  occurredAt: Date;
}

/** A consumer runs inside the dispatch transaction: what it writes (e.g. delivery jobs through
 *  the same connection) commits together with the "dispatched" mark. */
export type DomainEventConsumer = (events: readonly DomainEventRow[], db: pg.PoolClient) => Promise<void>;

export class DomainEventOutbox {
  private readonly consumers: { name: string; consume: DomainEventConsumer }[] = [];
  private readonly pool: pg.Pool;
  private readonly jobs: Jobs;

  constructor(pool: pg.Pool, jobs: Jobs) {
    this.pool = pool;
    this.jobs = jobs;
  }

  register(name: string, consume: DomainEventConsumer): void {
    this.consumers.push({ name, consume });
  }

  /** Asks a worker to dispatch soon; a failed nudge is harmless (the scheduled sweep picks it up). */
  async nudge(): Promise<void> {
    await this.jobs.send(DISPATCH_DOMAIN_EVENTS, {}, { singletonKey: 'dispatch' }).catch(() => null);
  }

  /** Dispatches until the outbox is empty; returns how many events were handed on. */
  async dispatchPending(): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await inTransaction(this.pool, async (db) => {
        const { rows } = await db.query(
          `SELECT id, "teamId", "eventId", "eventType", "collectionId", payload, "occurredAt"
             FROM "DomainEvent" WHERE "dispatchedAt" IS NULL ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        );
        if (rows.length === 0) return 0;
        const events: DomainEventRow[] = rows.map((r) => ({
          id: BigInt(r.id),
          teamId: BigInt(r.teamId),
          eventId: r.eventId,
          eventType: r.eventType,
          collectionId: r.collectionId === null ? null : BigInt(r.collectionId),
          payload: r.payload,
          occurredAt: r.occurredAt,
        }));
        for (const consumer of this.consumers) await consumer.consume(events, db);
        await db.query(`UPDATE "DomainEvent" SET "dispatchedAt" = now() WHERE id = ANY($1::bigint[])`, [events.map((e) => e.id)]);
        return events.length;
      });
      total += count;
      if (count < BATCH) return total;
    }
  }
}
