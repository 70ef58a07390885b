// What every record write leaves behind, in the same transaction as the write itself, whichever
// face made it (REST, GraphQL, batch, create menu, jobs): an audit entry per record (before/after
// per field), a durable domain event per record in the outbox (plus one DATA_RECORDS_BULK_SYNCED
// per batch), and a NOTIFY for GraphQL subscribers, delivered only if the transaction commits.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Principal } from '../../app/auth/principal.ts';
import type { Services } from '../../app/context.ts';
import type { RecordChangeEvent } from './records.events.ts';
import type { CollectionDefinition, FieldDefinition } from '../schema/team-schema.ts';
import { decodeRecordFields, decodeValue } from '../values/index.ts';
import type { RecordRow } from './records.sql.ts';
import { insertAuditEntries, insertDomainEvents, notifyAll, type OutboxEvent } from './record-changes.sql.ts';

export const RECORD_EVENT_TYPES = {
  CREATED: 'DATA_RECORD_CREATED',
  UPDATED: 'DATA_RECORD_UPDATED',
  DELETED: 'DATA_RECORD_DELETED',
} as const;
export const BULK_SYNCED = 'DATA_RECORDS_BULK_SYNCED';

export interface RecordChange {
  kind: 'CREATED' | 'UPDATED' | 'DELETED';
  /** the record after the change (for DELETED: as it was) */
  record: RecordRow;
  collection: CollectionDefinition;
  /** every field of the collection (events and audit are not narrowed by the caller's role) */
  fields: readonly FieldDefinition[];
  /** UPDATED: stored values before the change */
  before?: Record<string, unknown>;
  /** UPDATED: fields whose value changed; CREATED: fields given a value */
  changedFields: readonly FieldDefinition[];
}

/**
 * A check another area makes inside every record write's transaction, after the rows are written and
 * before their traces: throwing refuses the whole write. Space bookings claim the time of booking
 * records written by any face here, so no face can book a space twice.
 */
export type RecordWriteGuard = (db: pg.PoolClient, actor: ChangeActor, changes: readonly RecordChange[]) => Promise<void>;

declare module '../../app/context.ts' {
  interface Services {
    recordWriteGuard?: RecordWriteGuard;
  }
}

/** What the write funnel needs of the instance's services. */
export type RecordWriteServices = Pick<Services, 'events' | 'recordWriteGuard'>;

export interface ChangeActor {
  teamId: bigint;
  teamSimplyId: string;
  principal: Principal;
  source: string;
  requestId: string | null;
}

const EVENT_ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Document 1 §6 rule 6: most events carry a 14-character id. */
export function newEventId(): string {
  const bytes = randomBytes(14);
  let id = '';
  for (const b of bytes) id += EVENT_ID_ALPHABET[b % EVENT_ID_ALPHABET.length];
  return id;
}

/** The wire form of a record, with every field (webhook payloads, audit, events). */
export function recordPayload(change: RecordChange): Record<string, unknown> {
  const r = change.record;
  return {
    id: r.simplyId,
    dataRecordSimplyId: r.simplyId,
    dataCollectionSimplyId: change.collection.simplyId,
    name: r.calculatedName,
    fields: decodeRecordFields(change.fields, r.values),
    isArchived: r.isArchived,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function auditChanges(change: RecordChange): { dataFieldSimplyId: string; before: unknown; after: unknown }[] {
  if (change.kind === 'DELETED') return [];
  return change.changedFields.map((f) => ({
    dataFieldSimplyId: f.dataFieldSimplyId,
    before: change.kind === 'CREATED' ? null : decodeValue(f, change.before?.[f.dataFieldSimplyId]),
    after: decodeValue(f, change.record.values[f.dataFieldSimplyId]),
  }));
}

export interface BulkSummary {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  collection: CollectionDefinition | null;
  succeeded: number;
  failed: number;
}

export async function recordChanges(db: pg.PoolClient, services: RecordWriteServices, actor: ChangeActor, changes: readonly RecordChange[], bulk?: BulkSummary): Promise<string[]> {
  if (changes.length === 0 && !bulk) return [];
  if (changes.length > 0) await services.recordWriteGuard?.(db, actor, changes);
  const p = actor.principal;
  const actorKind = p.kind;
  const credentialId = p.credentialId;
  const occurredAt = new Date().toISOString();
  const eventIds = changes.map(() => newEventId());
  // automation loop guard (src/modules/automations): writes made by an automation execution carry the
  // depth the next execution would run at; the automations consumer refuses to go deeper
  const eventActor = { kind: actorKind, id: credentialId, userSimplyId: p.userSimplyId, ...(p.automation ? { automationDepth: p.automation.depth } : {}) };
  const payloads = changes.map((change, i) => ({
    eventType: RECORD_EVENT_TYPES[change.kind],
    eventId: eventIds[i],
    occurredAt,
    data: {
      ...recordPayload(change),
      ...(change.kind === 'UPDATED'
        ? {
            changedFieldSimplyIds: change.changedFields.map((f) => f.dataFieldSimplyId),
            previousFields: Object.fromEntries(change.changedFields.map((f) => [f.dataFieldSimplyId, decodeValue(f, change.before?.[f.dataFieldSimplyId])])),
          }
        : {}),
    },
    actor: eventActor,
  }));
  if (changes.length > 0) {
    await insertAuditEntries(
      db,
      { teamId: actor.teamId, actorKind, credentialId, userSimplyId: p.userSimplyId, source: actor.source, requestId: actor.requestId },
      changes.map((c) => ({
        simplyId: c.record.simplyId,
        action: c.kind === 'CREATED' ? 'CREATE' : c.kind === 'UPDATED' ? 'UPDATE' : 'DELETE',
        changes: JSON.stringify(auditChanges(c)),
      })),
    );
  }
  const outbox: OutboxEvent[] = payloads.map((payload, i) => ({
    eventId: payload.eventId!,
    eventType: payload.eventType,
    collectionId: changes[i]!.collection.id,
    payload,
  }));
  if (bulk) {
    const eventId = newEventId();
    outbox.push({
      eventId,
      eventType: BULK_SYNCED,
      collectionId: bulk.collection?.id ?? null,
      payload: {
        eventType: BULK_SYNCED,
        eventId,
        occurredAt,
        data: {
          operation: bulk.operation,
          dataCollectionSimplyId: bulk.collection?.simplyId ?? null,
          succeeded: bulk.succeeded,
          failed: bulk.failed,
          dataRecordSimplyIds: changes.map((c) => c.record.simplyId),
        },
        actor: eventActor,
      },
    });
  }
  await insertDomainEvents(db, actor.teamId, outbox);
  if (changes.length > 0) {
    const notes = changes.map((change, i) => {
      const event: RecordChangeEvent = {
        changeType: change.kind,
        eventId: eventIds[i]!,
        dataRecordSimplyId: change.record.simplyId,
        dataCollectionSimplyId: change.collection.simplyId,
        changedFieldSimplyIds: change.changedFields.map((f) => f.dataFieldSimplyId),
        occurredAt,
        actor: { kind: actorKind, id: credentialId },
      };
      return services.events.notification('dataRecordChanges', `${actor.teamSimplyId}:${change.collection.simplyId}`, event);
    });
    await notifyAll(db, notes);
  }
  return outbox.map((o) => o.eventId);
}
