// The statements a record write leaves behind (record-changes.ts): audit entries, outbox events
// and subscription NOTIFYs, each one multi-row statement whatever the batch size.
import type pg from 'pg';
import { activeStoredTrace } from '../../app/telemetry/stored-trace.ts';

export interface AuditAuthor {
  teamId: bigint;
  actorKind: string;
  credentialId: string | null;
  userSimplyId: string | null;
  source: string;
  requestId: string | null;
}

export async function insertAuditEntries(db: pg.PoolClient, author: AuditAuthor, entries: readonly { simplyId: string; action: string; changes: string }[]): Promise<void> {
  await db.query(
    // stamped now (after the record rows were locked), not at the transaction's start, so the log's
    // newest-first order is the order in which concurrent writers of a record committed
    `INSERT INTO "AuditLogEntry" ("teamId", "entityType", "entitySimplyId", action, changes, "actorKind", "actorCredentialId", "actorUserSimplyId", source, "requestId", "createdAt")
     SELECT $1, 'DataRecord', s, a, c::jsonb, $2, $3, $4, $5, $6, clock_timestamp() FROM unnest($7::text[], $8::text[], $9::text[]) AS t(s, a, c)`,
    [
      author.teamId,
      author.actorKind,
      author.credentialId,
      author.userSimplyId,
      author.source,
      author.requestId,
      entries.map((e) => e.simplyId),
      entries.map((e) => e.action),
      entries.map((e) => e.changes),
    ],
  );
}

export interface OutboxEvent {
  eventId: string;
  eventType: string;
  collectionId: bigint | null;
  payload: unknown;
}

/** The events of one write, each keeping the write's trace (what it causes later continues it). */
export async function insertDomainEvents(db: pg.PoolClient, teamId: bigint, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const trace = activeStoredTrace();
  await db.query(
    `INSERT INTO "DomainEvent" ("teamId", "eventId", "eventType", "collectionId", payload, traceparent, tracestate)
     SELECT $1, e, t, c, p::jsonb, $6, $7 FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(e, t, c, p)`,
    [
      teamId,
      events.map((o) => o.eventId),
      events.map((o) => o.eventType),
      events.map((o) => o.collectionId),
      events.map((o) => JSON.stringify(o.payload)),
      trace.traceparent,
      trace.tracestate,
    ],
  );
}

/** Delivered only if the transaction commits. */
export async function notifyAll(db: pg.PoolClient, notes: readonly { channel: string; payload: string }[]): Promise<void> {
  await db.query(`SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)`, [notes.map((n) => n.channel), notes.map((n) => n.payload)]);
}
